import JWTKit

/// The claims of a Latchkey ID token, shaped like a Firebase ID token so existing verifiers accept it.
package struct IDTokenClaims: JWTPayload, Equatable {
    /// Firebase's record of how the user signed in.
    package struct FirebaseClaim: Codable, Sendable, Equatable {
        package var identities: [String: [String]]
        package var signInProvider: String
        /// `totp` on tokens of a session that passed a second factor; absent otherwise.
        package var signInSecondFactor: String?
        /// The enrollment id of that second factor.
        package var secondFactorIdentifier: String?

        enum CodingKeys: String, CodingKey {
            case identities
            case signInProvider = "sign_in_provider"
            case signInSecondFactor = "sign_in_second_factor"
            case secondFactorIdentifier = "second_factor_identifier"
        }
    }

    package var issuer: IssuerClaim
    package var audience: AudienceClaim
    package var subject: SubjectClaim
    package var userID: String
    package var issuedAt: IssuedAtClaim
    package var expiration: ExpirationClaim
    package var authTime: Int
    package var email: String?
    package var emailVerified: Bool?
    package var name: String?
    package var picture: String?
    /// The session (refresh-token chain) the token belongs to, so revoking the session ends it at once.
    package var sessionID: String?
    package var firebase: FirebaseClaim
    /// The account's custom claims, at the top level beside the others; not read back from a token.
    package var customClaims: [String: JSONValue] = [:]

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case subject = "sub"
        case userID = "user_id"
        case issuedAt = "iat"
        case expiration = "exp"
        case authTime = "auth_time"
        case email
        case emailVerified = "email_verified"
        case name
        case picture
        case sessionID = "sid"
        case firebase
    }

    /// The registered and Firebase's claims as the synthesized encoding would write them, then the custom ones, whose
    /// names `CustomClaims` keeps apart from these.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(audience, forKey: .audience)
        try container.encode(subject, forKey: .subject)
        try container.encode(userID, forKey: .userID)
        try container.encode(issuedAt, forKey: .issuedAt)
        try container.encode(expiration, forKey: .expiration)
        try container.encode(authTime, forKey: .authTime)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(picture, forKey: .picture)
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        try container.encode(firebase, forKey: .firebase)
        var custom = encoder.container(keyedBy: ClaimName.self)
        for (name, value) in customClaims { try custom.encode(value, forKey: ClaimName(name)) }
    }

    package func verify(using algorithm: some JWTAlgorithm) async throws {
        try expiration.verifyNotExpired()
    }
}

/// A claim of any name, for the custom ones.
private struct ClaimName: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
