/// Firebase's `RevokeTokenRequest` (v2 `accounts:revokeToken`): firebase-ios-sdk `RevokeTokenRequest` (an Apple
/// authorization code, `tokenType` `"3"`), firebase-js-sdk `packages/auth/src/api/authentication/token.ts`
/// (`revokeToken`, an access token, `tokenType` `"ACCESS_TOKEN"`).
public struct RevokeTokenRequest: Sendable, Codable, Equatable {
    /// Identity Toolkit's `TokenType`, sent by name or by number (as a string or a number).
    public enum TokenType: String, Sendable, Codable, Equatable {
        case refreshToken = "REFRESH_TOKEN"
        case accessToken = "ACCESS_TOKEN"
        case code = "CODE"

        static let numbers: [String: TokenType] = ["1": .refreshToken, "2": .accessToken, "3": .code]
    }

    public var providerId: String?
    public var tokenType: TokenType?
    /// The token to revoke, or the authorization code whose tokens are revoked.
    public var token: String?
    /// The signed-in user's ID token: only the user whose provider tokens they are may revoke them.
    public var idToken: String?
    public var tenantId: String?

    public init(providerId: String?, tokenType: TokenType?, token: String?, idToken: String?, tenantId: String? = nil) {
        self.providerId = providerId
        self.tokenType = tokenType
        self.token = token
        self.idToken = idToken
        self.tenantId = tenantId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        providerId = try container.decodeIfPresent(String.self, forKey: .providerId)
        token = try container.decodeIfPresent(String.self, forKey: .token)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        tenantId = try container.decodeIfPresent(String.self, forKey: .tenantId)
        var raw = try? container.decodeIfPresent(String.self, forKey: .tokenType)
        if raw == nil, let number = try? container.decodeIfPresent(Int.self, forKey: .tokenType) { raw = String(number) }
        guard let raw else {
            tokenType = nil
            return
        }
        guard let type = TokenType(rawValue: raw) ?? TokenType.numbers[raw] else {
            throw DecodingError.dataCorruptedError(forKey: .tokenType, in: container, debugDescription: "not a token type")
        }
        tokenType = type
    }
}

/// Firebase's answer to `accounts:revokeToken`: an empty object.
public struct RevokeTokenResponse: Sendable, Codable, Equatable {
    public init() {}
}
