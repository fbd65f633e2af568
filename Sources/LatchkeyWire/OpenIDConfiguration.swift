/// The subset of OpenID Connect discovery (`/.well-known/openid-configuration`) that token verifiers read.
public struct OpenIDConfiguration: Sendable, Codable, Equatable {
    /// `iss` of ID tokens.
    public var issuer: String
    public var jwksURI: String
    public var responseTypesSupported = ["id_token"]
    public var subjectTypesSupported = ["public"]
    /// The algorithms of the published keys, so old tokens stay verifiable after the signing algorithm changes.
    public var idTokenSigningAlgValuesSupported: [String]

    public init(issuer: String, jwksURI: String, idTokenSigningAlgValuesSupported: [String]) {
        self.issuer = issuer
        self.jwksURI = jwksURI
        self.idTokenSigningAlgValuesSupported = idTokenSigningAlgValuesSupported
    }

    private enum CodingKeys: String, CodingKey {
        case issuer
        case jwksURI = "jwks_uri"
        case responseTypesSupported = "response_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
    }
}
