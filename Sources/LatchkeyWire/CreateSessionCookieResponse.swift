/// Firebase's answer to `createSessionCookie`: the cookie, a JWT the backend sets in the browser as it is.
public struct CreateSessionCookieResponse: Sendable, Codable, Equatable {
    public var sessionCookie: String

    public init(sessionCookie: String) {
        self.sessionCookie = sessionCookie
    }
}
