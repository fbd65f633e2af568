/// Firebase's `GetAccountInfoRequest` (`accounts:lookup`): the ID token's account, or for an admin accounts by id
/// or address.
public struct GetAccountInfoRequest: Sendable, Codable, Equatable {
    /// Present (even null) means a lookup by token, for admins too.
    public var idToken: String?
    /// Admin only; also read as a single string.
    public var localId: [String]?
    /// Admin only; also read as a single string.
    public var email: [String]?
    /// Admin only: accounts by number (the Admin SDKs' `get_user_by_phone_number`); also read as a single string.
    public var phoneNumber: [String]?
    /// Admin only: accounts by an identity provider's user id.
    public var federatedUserId: [FederatedUserIdentifier]?

    /// One identity-provider identity to look up; an entry missing either part is skipped.
    public struct FederatedUserIdentifier: Sendable, Codable, Equatable {
        public var providerId: String?
        public var rawId: String?

        public init(providerId: String?, rawId: String?) {
            self.providerId = providerId
            self.rawId = rawId
        }
    }

    public init(
        idToken: String? = nil, localId: [String]? = nil, email: [String]? = nil, federatedUserId: [FederatedUserIdentifier]? = nil
    ) {
        self.idToken = idToken
        self.localId = localId
        self.email = email
        self.federatedUserId = federatedUserId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try container.decodePresentString(forKey: .idToken)
        localId = container.decodeLenientStrings(forKey: .localId)
        email = container.decodeLenientStrings(forKey: .email)
        phoneNumber = container.decodeLenientStrings(forKey: .phoneNumber)
        federatedUserId = try? container.decodeIfPresent([FederatedUserIdentifier].self, forKey: .federatedUserId)
    }
}
