import Foundation

/// What an OpenID Connect provider's discovery document (`/.well-known/openid-configuration`) says of it, checked.
struct ProviderMetadata: Sendable, Equatable {
    let issuer: String
    let authorizationEndpoint: URL
    let jwksURI: URL
    /// Where codes are exchanged for tokens; required only for the code flow.
    let tokenEndpoint: URL?
    /// `token_endpoint_auth_methods_supported`; nil when the document does not say.
    let tokenEndpointAuthMethods: [String]?
    /// The ID-token algorithms it signs with; RS256 when it does not say (OpenID Connect Discovery's default).
    let signingAlgorithms: [String]
    /// Where tokens are revoked (RFC 7009; Apple's `/auth/revoke`), when the provider says.
    let revocationEndpoint: URL?

    private struct Document: Decodable {
        let issuer: String?
        let authorization_endpoint: String?
        let jwks_uri: String?
        let token_endpoint: String?
        let token_endpoint_auth_methods_supported: [String]?
        let id_token_signing_alg_values_supported: [String]?
        let revocation_endpoint: String?
    }

    /// Where `issuer`'s document is: the issuer without a trailing slash, then the well-known path.
    static func discoveryURL(of issuer: URL) -> URL? {
        var text = issuer.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return URL(string: text + "/.well-known/openid-configuration")
    }

    /// Reads a discovery document, which must name exactly `issuer` (OpenID Connect Discovery §4.3: a document naming
    /// another issuer could hand out another provider's keys) and endpoints of the scheme the issuer may use.
    init(document: Data, issuer: String, allowingHTTP: Bool) throws(ProviderFailure) {
        guard let document = try? JSONDecoder().decode(Document.self, from: document) else {
            throw .invalidResponse("discovery failed: not a discovery document")
        }
        guard document.issuer == issuer else { throw .invalidResponse("discovery failed: the document names another issuer") }
        func endpoint(_ text: String?) -> URL? {
            guard let text, let url = URL(string: text), url.host() != nil else { return nil }
            return url.scheme == "https" || (allowingHTTP && url.scheme == "http") ? url : nil
        }
        guard let authorization = endpoint(document.authorization_endpoint), let keys = endpoint(document.jwks_uri) else {
            throw .invalidResponse("discovery failed: authorization_endpoint or jwks_uri missing or not https")
        }
        self.issuer = issuer
        authorizationEndpoint = authorization
        jwksURI = keys
        tokenEndpoint = endpoint(document.token_endpoint)
        tokenEndpointAuthMethods = document.token_endpoint_auth_methods_supported
        signingAlgorithms = document.id_token_signing_alg_values_supported ?? ["RS256"]
        revocationEndpoint = endpoint(document.revocation_endpoint)
    }
}
