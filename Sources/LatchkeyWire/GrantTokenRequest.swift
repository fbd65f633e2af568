/// The Secure Token API's `GrantTokenRequest` (`POST /v1/token`), whose fields are snake_case; sent form-encoded by
/// Firebase's SDKs, or as JSON.
public struct GrantTokenRequest: Sendable, Codable, Equatable {
    public var grantType: GrantType
    public var refreshToken: String?

    public init(grantType: GrantType = .refreshToken, refreshToken: String?) {
        self.grantType = grantType
        self.refreshToken = refreshToken
    }

    private enum CodingKeys: String, CodingKey {
        case grantType = "grant_type"
        case refreshToken = "refresh_token"
    }
}
