/// Firebase's answer to `accounts:signInWithEmailLink`: a session for the link's address.
public struct EmailLinkSigninResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#EmailLinkSigninResponse"
    public var idToken: String
    public var refreshToken: String
    /// The ID token's lifetime in seconds, as a decimal string (Google's JSON mapping of int64).
    public var expiresIn: String
    public var localId: String
    public var email: String
    public var isNewUser: Bool

    public init(idToken: String, refreshToken: String, expiresIn: String, localId: String, email: String, isNewUser: Bool) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.localId = localId
        self.email = email
        self.isNewUser = isNewUser
    }
}
