/// Firebase's answer to `accounts:createAuthUri`; with enumeration protection only `kind` and `sessionId` (and, for a
/// provider sign-in, `authUri` and `providerId`).
public struct CreateAuthUriResponse: Sendable, Codable, Equatable {
    public var kind = "identitytoolkit#CreateAuthUriResponse"
    public var registered: Bool?
    /// `password` for a registered address: Firebase files email-link sign-in under the password provider too.
    public var allProviders: [String]?
    /// `password`, `emailLink`.
    public var signinMethods: [String]?
    public var sessionId: String
    /// The provider's authorization URL to send the browser to.
    public var authUri: String?
    public var providerId: String?

    public init(registered: Bool? = nil, allProviders: [String]? = nil, signinMethods: [String]? = nil, sessionId: String) {
        self.registered = registered
        self.allProviders = allProviders
        self.signinMethods = signinMethods
        self.sessionId = sessionId
    }
}
