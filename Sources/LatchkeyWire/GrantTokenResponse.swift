/// The Secure Token API's snake_case answer to a refresh: the new ID token, also as `access_token`, and the next
/// refresh token.
public struct GrantTokenResponse: Sendable, Codable, Equatable {
    public var idToken: String
    /// The ID token again, as OAuth clients read it.
    public var accessToken: String
    public var refreshToken: String
    /// Seconds, as a decimal string.
    public var expiresIn: String
    public var tokenType = "Bearer"
    public var userId: String
    public var projectId: String

    public init(idToken: String, refreshToken: String, expiresIn: String, userId: String, projectId: String) {
        self.idToken = idToken
        accessToken = idToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.userId = userId
        self.projectId = projectId
    }

    private enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case userId = "user_id"
        case projectId = "project_id"
    }
}
