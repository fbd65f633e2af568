/// Firebase's `CreateSessionCookieRequest` (`projects/{projectId}:createSessionCookie`, admin only; the Admin SDKs'
/// `create_session_cookie`/`createSessionCookie`): a session cookie made from a signed-in user's ID token.
public struct CreateSessionCookieRequest: Sendable, Codable, Equatable {
    public var idToken: String?
    /// Seconds the cookie is valid, from five minutes to fourteen days; an int64, so a JSON number or a decimal string
    /// (the Admin SDKs send a number, Google's JSON mapping allows both).
    public var validDuration: Int64?

    public init(idToken: String? = nil, validDuration: Int64? = nil) {
        self.idToken = idToken
        self.validDuration = validDuration
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        validDuration = try container.decodeInt64IfPresent(forKey: .validDuration)
    }
}
