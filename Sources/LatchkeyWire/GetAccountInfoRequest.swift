/// Firebase's `GetAccountInfoRequest` (`accounts:lookup`): the ID token's account, or for an admin accounts by id
/// or address.
public struct GetAccountInfoRequest: Sendable, Codable, Equatable {
    /// Present (even null) means a lookup by token, for admins too.
    public var idToken: String?
    /// Admin only; also read as a single string.
    public var localId: [String]?
    /// Admin only; also read as a single string.
    public var email: [String]?

    public init(idToken: String? = nil, localId: [String]? = nil, email: [String]? = nil) {
        self.idToken = idToken
        self.localId = localId
        self.email = email
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try container.decodePresentString(forKey: .idToken)
        localId = container.decodeLenientStrings(forKey: .localId)
        email = container.decodeLenientStrings(forKey: .email)
    }
}
