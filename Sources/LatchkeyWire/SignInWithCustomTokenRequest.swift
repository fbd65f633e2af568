/// Firebase's `SignInWithCustomTokenRequest` (`accounts:signInWithCustomToken`, v3 `verifyCustomToken`): firebase-js-sdk
/// `packages/auth/src/api/authentication/custom_token.ts`, firebase-ios-sdk `VerifyCustomTokenRequest`.
public struct SignInWithCustomTokenRequest: Sendable, Codable, Equatable {
    /// The custom token the app's backend minted.
    public var token: String?
    /// Sent by Firebase's SDKs; tokens are always returned.
    public var returnSecureToken: Bool?
    /// Identity Platform's tenant; Latchkey has none.
    public var tenantId: String?

    public init(token: String?, returnSecureToken: Bool? = true, tenantId: String? = nil) {
        self.token = token
        self.returnSecureToken = returnSecureToken
        self.tenantId = tenantId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decodeIfPresent(String.self, forKey: .token)
        returnSecureToken = container.decodeLenientBool(forKey: .returnSecureToken)
        tenantId = try container.decodeIfPresent(String.self, forKey: .tenantId)
    }
}
