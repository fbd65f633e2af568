/// Firebase's `DeleteAccountRequest` (`accounts:delete`): by the signed-in user, or by an admin.
public struct DeleteAccountRequest: Sendable, Codable, Equatable {
    /// Present (even null) means the user's own account, for admins too.
    public var idToken: String?
    /// Admin only.
    public var localId: String?

    public init(idToken: String? = nil, localId: String? = nil) {
        self.idToken = idToken
        self.localId = localId
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idToken = try container.decodePresentString(forKey: .idToken)
        localId = container.decodeLenientString(forKey: .localId)
    }
}
