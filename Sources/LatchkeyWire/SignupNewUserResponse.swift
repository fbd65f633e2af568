/// Firebase's answer to `accounts:signUp`: a session for the new account.
public struct SignupNewUserResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#SignupNewUserResponse"
    public var idToken: String
    public var refreshToken: String
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String
    public var localId: String
    /// Absent for an anonymous account.
    public var email: String?

    public init(idToken: String, refreshToken: String, expiresIn: String, localId: String, email: String?) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
    }
}
