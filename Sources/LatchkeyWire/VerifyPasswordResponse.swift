/// Firebase's answer to `accounts:signInWithPassword`: a session for the account.
public struct VerifyPasswordResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#VerifyPasswordResponse"
    /// The session's tokens; absent when the account's second factor is asked for instead.
    public var idToken: String?
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String?
    public var localId: String
    public var email: String
    /// Always true: an unknown address is refused instead.
    public var registered = true

    /// Present only when the account's second factor is asked for (the SDKs treat the key's mere presence so).
    public var mfaPendingCredential: String?
    /// The factors that can answer the challenge.
    public var mfaInfo: [MfaEnrollment]?

    public init(idToken: String?, refreshToken: String?, expiresIn: String?, localId: String, email: String) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
    }
}
