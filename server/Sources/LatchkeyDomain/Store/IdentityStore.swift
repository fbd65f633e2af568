import Foundation

/// The identities that sign in to an account, one per provider and provider's user id (a unique key).
package protocol IdentityStore {
    /// The account's identities, oldest first.
    func identities(accountID: String) async throws -> [Identity]
    func identity(providerID: String, providerUserID: String) async throws -> Identity?
    /// The identities with any of these keys (imports, many at a time).
    func identities(keys: [IdentityKey]) async throws -> [Identity]
    /// The identities of any of these accounts (imports, many at a time).
    func identities(accountIDs: [String]) async throws -> [Identity]
    /// Stores `identity`, replacing the one with the same provider and provider's user id when it belongs to the same
    /// account; one that belongs to another account throws `AccountConflict.identityTaken`.
    func save(_ identity: Identity) async throws
    /// Removes the account's identities of `providerID`.
    func deleteIdentities(accountID: String, providerID: String) async throws
}
