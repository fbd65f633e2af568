/// Firebase's `BatchDeleteAccountsRequest` (`accounts:batchDelete`, admin only; the Admin SDKs' `delete_users`), as
/// firebase-admin-node's `src/auth/auth-api-request.ts` and firebase-tools' `src/emulator/auth/schema.ts` define it.
/// Either field of the wrong JSON type refuses the request, as Google's parser does.
public struct BatchDeleteAccountsRequest: Sendable, Codable, Equatable {
    /// The uids to delete: 1 to 1,000 of them.
    public var localIds: [String]?
    /// Whether enabled accounts go too; without it only disabled ones do, and the others are listed in `errors`.
    public var force: Bool?

    public init(localIds: [String]? = nil, force: Bool? = nil) {
        self.localIds = localIds
        self.force = force
    }
}
