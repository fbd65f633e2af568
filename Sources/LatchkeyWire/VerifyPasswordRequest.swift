/// Firebase's `VerifyPasswordRequest` (`accounts:signInWithPassword`).
public struct VerifyPasswordRequest: Sendable, Codable, Equatable {
    public var email: String?
    public var password: String?
    /// Sent by Firebase's SDKs; tokens are always returned.
    public var returnSecureToken: Bool?

    public init(email: String?, password: String?, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        returnSecureToken = container.decodeLenientBool(forKey: .returnSecureToken)
    }
}
