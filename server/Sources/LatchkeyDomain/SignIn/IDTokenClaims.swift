import Foundation

/// What a Latchkey ID token says, as the domain reads it (who, which session, when it signed in, how): plain values, so
/// the domain knows no JWT library. `IDTokenPayload` (Tokens/) carries them as a Firebase-shaped JWT.
package struct IDTokenClaims: Sendable, Equatable {
    /// Firebase's record of how the user signed in.
    package struct FirebaseClaim: Codable, Sendable, Equatable {
        package var identities: [String: [String]]
        package var signInProvider: String
        /// `totp` on tokens of a session that passed a second factor; absent otherwise.
        package var signInSecondFactor: String?
        /// The enrollment id of that second factor.
        package var secondFactorIdentifier: String?

        package init(identities: [String: [String]], signInProvider: String, signInSecondFactor: String?, secondFactorIdentifier: String?) {
            self.identities = identities
            self.signInProvider = signInProvider
            self.signInSecondFactor = signInSecondFactor
            self.secondFactorIdentifier = secondFactorIdentifier
        }

        enum CodingKeys: String, CodingKey {
            case identities
            case signInProvider = "sign_in_provider"
            case signInSecondFactor = "sign_in_second_factor"
            case secondFactorIdentifier = "second_factor_identifier"
        }
    }

    /// `iss`: the configured issuer.
    package var issuer: String
    /// `aud`: the project.
    package var audience: [String]
    package var subject: String
    package var userID: String
    /// `iat`, in whole seconds.
    package var issuedAt: Date
    package var expiration: Date
    /// `auth_time`: Unix seconds of the sign-in behind the session.
    package var authTime: Int
    package var email: String?
    package var emailVerified: Bool?
    /// The account's number in E.164 (`phone_number`), as Firebase's tokens carry it.
    package var phoneNumber: String?
    package var name: String?
    package var picture: String?
    /// The session (refresh-token chain) the token belongs to, so revoking the session ends it at once.
    package var sessionID: String?
    package var firebase: FirebaseClaim
    /// The account's custom claims, at the top level beside the others; read back from a verified token too, so a session
    /// cookie made from it carries them.
    package var customClaims: [String: JSONValue]

    package init(
        issuer: String, audience: [String], subject: String, userID: String, issuedAt: Date, expiration: Date, authTime: Int, email: String?,
        emailVerified: Bool?, name: String?, picture: String?, sessionID: String?, firebase: FirebaseClaim, customClaims: [String: JSONValue] = [:],
        phoneNumber: String? = nil
    ) {
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.userID = userID
        self.issuedAt = issuedAt
        self.expiration = expiration
        self.authTime = authTime
        self.email = email
        self.emailVerified = emailVerified
        self.phoneNumber = phoneNumber
        self.name = name
        self.picture = picture
        self.sessionID = sessionID
        self.firebase = firebase
        self.customClaims = customClaims
    }
}
