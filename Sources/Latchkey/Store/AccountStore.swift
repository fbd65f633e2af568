import Foundation

/// Accounts, by id and by address. Ids and addresses are unique keys: a clash throws `AccountConflict`.
package protocol AccountStore {
    func account(email: EmailAddress) async throws -> Account?
    func account(id: String) async throws -> Account?
    func insert(_ account: Account) async throws
    func update(_ account: Account) async throws
    /// Deletes the account with its identities and revokes its sessions (kept a while, so a refresh answers `USER_NOT_FOUND`).
    func deleteAccount(id: String, at now: Date) async throws
}
