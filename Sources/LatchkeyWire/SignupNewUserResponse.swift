/// Firebase's answer to `accounts:signUp`: a session for the new account, or to an admin the account alone.
public struct SignupNewUserResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#SignupNewUserResponse"
    /// Absent when an admin created the account: nobody signed in (Firebase's privileged `signUp`).
    public var idToken: String?
    public var refreshToken: String?
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String?
    public var localId: String
    /// Absent for an anonymous account.
    public var email: String?
    /// Given to an admin who set one.
    public var displayName: String?

    public init(idToken: String?, refreshToken: String?, expiresIn: String?, localId: String, email: String?, displayName: String? = nil) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
        self.displayName = displayName
    }
}
