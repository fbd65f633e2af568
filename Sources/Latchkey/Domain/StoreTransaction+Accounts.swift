import Foundation

extension StoreTransaction {
    /// Writes `account`, inserting it when `stored` (how it was before) is nil, and keeps its email identity in step
    /// with its address: a new address replaces the old identity, a proof of it marks the identity verified. With
    /// `createsEmailIdentity` false (a provider's sign-in) an address gets no email identity, as Firebase lists the
    /// password provider only once the address has signed in by itself; one it has is still kept in step.
    func saveAccount(_ account: Account, stored: Account?, createsEmailIdentity: Bool = true) async throws {
        if stored == nil { try await insert(account) } else { try await update(account) }
        guard stored?.email != account.email || stored?.isEmailVerified != account.isEmailVerified else { return }
        // A new account has no identity yet to replace.
        if let stored, stored.email != account.email {
            try await deleteIdentities(accountID: account.id, providerID: SignInProvider.password.id)
        }
        guard let identity = account.emailIdentity else { return }
        let keeps = createsEmailIdentity ? true : try await hasEmailIdentity(account, stored: stored)
        if keeps { try await save(identity) }
    }

    private func hasEmailIdentity(_ account: Account, stored: Account?) async throws -> Bool {
        guard stored?.email == account.email else { return false }
        return try await identities(accountID: account.id).contains { $0.providerID == SignInProvider.password.id }
    }

    /// The account with its identities, and with its second factors when `describing` it (`lookup`).
    func userRecord(_ account: Account, describing: Bool = false) async throws -> UserRecord {
        UserRecord(
            account: account, identities: try await identities(accountID: account.id),
            secondFactors: describing ? try await secondFactors(accountID: account.id) : nil)
    }
}
