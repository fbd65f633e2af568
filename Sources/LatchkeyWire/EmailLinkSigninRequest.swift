/// Firebase's `EmailLinkSigninRequest` (`accounts:signInWithEmailLink`): complete a sign-in link.
public struct EmailLinkSigninRequest: Sendable, Codable, Equatable {
    public var email: String?
    /// The `oobCode` of the link.
    public var oobCode: String?
    /// A signed-in user's ID token: the link's address is linked to that account instead of signing in.
    public var idToken: String?

    public init(email: String?, oobCode: String?, idToken: String? = nil) {
        self.email = email
        self.oobCode = oobCode
        self.idToken = idToken
    }
}
