/// Firebase's `SignUpRequest` as the Admin SDKs' `create_user` sends it to `projects/{projectId}/accounts`.
public struct CreateAccountRequest: Sendable, Codable, Equatable {
    /// The uid to give the account; absent for a random one.
    public var localId: String?
    /// Present (even null) asks for an address.
    public var email: String?
    public var password: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var disabled: Bool?
    /// E.164; one account per number.
    public var phoneNumber: String?

    public init(
        localId: String? = nil, email: String? = nil, password: String? = nil, emailVerified: Bool? = nil, displayName: String? = nil,
        photoUrl: String? = nil, disabled: Bool? = nil
    ) {
        self.localId = localId
        self.email = email
        self.password = password
        self.emailVerified = emailVerified
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.disabled = disabled
    }

    /// Flags are read leniently; the other fields must be strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        localId = try container.decodeIfPresent(String.self, forKey: .localId)
        email = try container.decodePresentString(forKey: .email)
        password = try container.decodeIfPresent(String.self, forKey: .password)
        emailVerified = container.decodeLenientBool(forKey: .emailVerified)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        photoUrl = try container.decodeIfPresent(String.self, forKey: .photoUrl)
        disabled = container.decodeLenientBool(forKey: .disabled)
        phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
    }
}
