/// Firebase's answer to `accounts:signInWithEmailLink`: a session for the link's address.
public struct EmailLinkSigninResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#EmailLinkSigninResponse"
    /// The session's tokens; absent when the account's second factor is asked for instead.
    public var idToken: String?
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String?
    public var localId: String
    public var email: String
    public var isNewUser: Bool

    /// Present only when the account's second factor is asked for (the SDKs treat the key's mere presence so).
    public var mfaPendingCredential: String?
    /// The factors that can answer the challenge.
    public var mfaInfo: [MfaEnrollment]?

    public init(idToken: String?, refreshToken: String?, expiresIn: String?, localId: String, email: String, isNewUser: Bool) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
        self.isNewUser = isNewUser
    }
}
