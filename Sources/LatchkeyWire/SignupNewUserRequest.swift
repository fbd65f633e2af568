/// Firebase's `SignupNewUserRequest` (`accounts:signUp`): a password account, or with neither field an anonymous one.
public struct SignupNewUserRequest: Sendable, Codable, Equatable {
    /// Present (even null) makes this a password sign-up, which then needs both fields.
    public var email: String?
    public var password: String?
    /// Sent by Firebase's SDKs; tokens are always returned.
    public var returnSecureToken: Bool?

    public init(email: String? = nil, password: String? = nil, returnSecureToken: Bool? = true) {
        self.email = email
        self.password = password
        self.returnSecureToken = returnSecureToken
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decodePresentString(forKey: .email)
        password = try container.decodePresentString(forKey: .password)
        returnSecureToken = container.decodeLenientBool(forKey: .returnSecureToken)
    }
}
