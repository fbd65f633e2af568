import Foundation

extension StoreTransaction {
    /// Writes `account`, inserting it when `stored` (how it was before) is nil, and keeps its email identity in step
    /// with its address: a new address replaces the old identity, a proof of it marks the identity verified.
    func saveAccount(_ account: Account, stored: Account?) async throws {
        if stored == nil { try await insert(account) } else { try await update(account) }
        guard stored?.email != account.email || stored?.isEmailVerified != account.isEmailVerified else { return }
        // A new account has no identity yet to replace.
        if let stored, stored.email != account.email {
            try await deleteIdentities(accountID: account.id, providerID: SignInProvider.password.id)
        }
        if let identity = account.emailIdentity { try await save(identity) }
    }

    /// The account with its identities.
    func userRecord(_ account: Account) async throws -> UserRecord {
        UserRecord(account: account, identities: try await identities(accountID: account.id))
    }
}
