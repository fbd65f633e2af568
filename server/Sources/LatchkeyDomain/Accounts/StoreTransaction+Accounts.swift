import Foundation

extension StoreTransaction {
    /// Writes `account`, inserting it when `stored` (how it was before) is nil, and keeps its email identity in step
    /// with its address: a new address replaces the old identity, a proof of it marks the identity verified. With
    /// `createsEmailIdentity` false (a provider's sign-in) an address gets no email identity, as Firebase lists the
    /// password provider only once the address has signed in by itself; one it has is still kept in step.
    ///
    /// An address another account left by a change whose undo is still live stays that account's owner's to take back:
    /// no other account gets it (`AccountConflict.emailTaken`), so nobody can block the undo by taking the address.
    func saveAccount(_ account: Account, stored: Account?, createsEmailIdentity: Bool = true, at now: Date) async throws {
        if stored == nil { try await insert(account) } else { try await update(account) }
        // Looked at after the write: on PostgreSQL a write that took the address waited for the change that freed it,
        // so this sees that change's undo even if it committed meanwhile.
        if let email = account.email, email != stored?.email, try await isAwaitingUndo(email, byAnotherThan: account.id, at: now) {
            throw AccountConflict.emailTaken
        }
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

    /// Deletes `account` (with its identities, second factors and sessions: `deleteAccount(id:at:)`) and audits who did:
    /// every deletion, one or in a batch, goes through here.
    func delete(_ account: Account, by actor: AccountActor, requester: RequesterSummary, at now: Date) async throws {
        try await deleteAccount(id: account.id, at: now)
        try await record(
            AuditEvent(.accountDeleted, at: now, accountID: account.id, email: account.email, requester: requester, detail: actor.auditName))
    }

    /// The account with its identities, and with its second factors when `describing` it (`lookup`).
    func userRecord(_ account: Account, describing: Bool = false) async throws -> UserRecord {
        UserRecord(
            account: account, identities: try await identities(accountID: account.id),
            secondFactors: describing ? try await secondFactors(accountID: account.id) : nil)
    }

    /// Whoever held this account before its owner took it (a password, or a password since removed, an address set on an
    /// anonymous account, another provider's identity, an authenticator) loses it and every session now: the rule for an
    /// email link or a password reset that proves an address the account never had verified, and for the undo of an
    /// address change. The caller spends the account's codes as its case needs.
    ///
    /// An undo keeps the authenticators enrolled before the change (`keepingFactorsEnrolledBefore`): the owner's own, which
    /// the old mailbox alone must not get around. Only those added since, by whoever changed the address, go.
    func stripForeignAccess(
        of account: inout Account, because reason: String, requester: RequesterSummary, at now: Date, keepingFactorsEnrolledBefore cutoff: Date? = nil
    ) async throws {
        account.passwordHash = nil
        account.validSince = now.wholeSeconds
        try await revokeSessions(accountID: account.id, at: now)
        for identity in try await identities(accountID: account.id) where identity.providerID != SignInProvider.password.id {
            try await deleteIdentities(accountID: account.id, providerID: identity.providerID)
        }
        var kinds = [AuditEvent.Kind.passwordStripped, .sessionsRevoked]
        if try await deleteSecondFactors(of: account.id, enrolledSince: cutoff) > 0 { kinds.append(.secondFactorRemoved) }
        for kind in kinds {
            try await record(
                AuditEvent(kind, at: now, accountID: account.id, email: account.email, requester: requester, detail: reason))
        }
    }

    /// Deletes the account's authenticators enrolled at or after `cutoff` (every one without it), returning how many.
    private func deleteSecondFactors(of accountID: String, enrolledSince cutoff: Date?) async throws -> Int {
        guard let cutoff else { return try await deleteSecondFactors(accountID: accountID) }
        var deleted = 0
        for factor in try await secondFactors(accountID: accountID) where factor.enrolledAt >= cutoff {
            if try await deleteSecondFactor(id: factor.id, accountID: accountID) { deleted += 1 }
        }
        return deleted
    }
}
