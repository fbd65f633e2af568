import JWTKit
import LatchkeyDomain

/// A Latchkey ID token's claims as JWT carries them, shaped like a Firebase ID token so existing verifiers accept it;
/// the domain reads them as `IDTokenClaims`.
struct IDTokenPayload: JWTPayload, Equatable {
    var issuer: IssuerClaim
    var audience: AudienceClaim
    var subject: SubjectClaim
    var userID: String
    var issuedAt: IssuedAtClaim
    var expiration: ExpirationClaim
    var authTime: Int
    var email: String?
    var emailVerified: Bool?
    var phoneNumber: String?
    var name: String?
    var picture: String?
    var sessionID: String?
    var firebase: IDTokenClaims.FirebaseClaim
    var customClaims: [String: JSONValue] = [:]

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
        case phoneNumber = "phone_number"
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
        try container.encodeIfPresent(phoneNumber, forKey: .phoneNumber)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(picture, forKey: .picture)
        try container.encodeIfPresent(sessionID, forKey: .sessionID)
        try container.encode(firebase, forKey: .firebase)
        var custom = encoder.container(keyedBy: ClaimName.self)
        for (name, value) in customClaims { try custom.encode(value, forKey: ClaimName(name)) }
    }

    /// The registered and Firebase's claims by name, and every other claim as a custom one, so that a session cookie
    /// made from a verified token carries the developer claims the token did.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(IssuerClaim.self, forKey: .issuer)
        audience = try container.decode(AudienceClaim.self, forKey: .audience)
        subject = try container.decode(SubjectClaim.self, forKey: .subject)
        userID = try container.decode(String.self, forKey: .userID)
        issuedAt = try container.decode(IssuedAtClaim.self, forKey: .issuedAt)
        expiration = try container.decode(ExpirationClaim.self, forKey: .expiration)
        authTime = try container.decode(Int.self, forKey: .authTime)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        picture = try container.decodeIfPresent(String.self, forKey: .picture)
        sessionID = try container.decodeIfPresent(String.self, forKey: .sessionID)
        firebase = try container.decode(IDTokenClaims.FirebaseClaim.self, forKey: .firebase)
        let custom = try decoder.container(keyedBy: ClaimName.self)
        for name in custom.allKeys where CodingKeys(rawValue: name.stringValue) == nil {
            customClaims[name.stringValue] = try custom.decode(JSONValue.self, forKey: name)
        }
    }

    package func verify(using algorithm: some JWTAlgorithm) async throws {
        try expiration.verifyNotExpired()
    }

    init(_ claims: IDTokenClaims) {
        issuer = IssuerClaim(value: claims.issuer)
        audience = AudienceClaim(value: claims.audience)
        subject = SubjectClaim(value: claims.subject)
        userID = claims.userID
        issuedAt = IssuedAtClaim(value: claims.issuedAt)
        expiration = ExpirationClaim(value: claims.expiration)
        authTime = claims.authTime
        email = claims.email
        emailVerified = claims.emailVerified
        phoneNumber = claims.phoneNumber
        name = claims.name
        picture = claims.picture
        sessionID = claims.sessionID
        firebase = claims.firebase
        customClaims = claims.customClaims
    }

    var claims: IDTokenClaims {
        IDTokenClaims(
            issuer: issuer.value, audience: audience.value, subject: subject.value, userID: userID, issuedAt: issuedAt.value,
            expiration: expiration.value, authTime: authTime, email: email, emailVerified: emailVerified, name: name, picture: picture,
            sessionID: sessionID, firebase: firebase, customClaims: customClaims, phoneNumber: phoneNumber)
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
