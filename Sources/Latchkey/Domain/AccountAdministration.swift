import Foundation
import Logging

/// `accounts:update` and `accounts:delete`, for the signed-in user or an admin.
package struct AccountAdministration: Sendable {
    let store: any LinkStore
    let hasher: PasswordHasher
    let clock: any WallClock
    let minter: SessionMinter
    let recentLogin: TimeInterval

    package init(store: any LinkStore, hasher: PasswordHasher, clock: any WallClock, minter: SessionMinter, recentLogin: TimeInterval) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.minter = minter
        self.recentLogin = recentLogin
    }

    /// Applies `changes`; a password change ends every other session and returns a fresh one to a user changing
    /// their own password (an admin gets none: the new session would be the user's).
    package func update(
        _ account: Account, with changes: AccountChanges, by actor: AccountActor, requester: RequesterSummary = RequesterSummary(), logger: Logger
    ) async throws -> (Account, Session?) {
        if changes.isSensitive, case .user(let claims) = actor { try requireRecentLogin(claims) }
        var passwordHash: String?
        if let password = changes.password { passwordHash = try await hasher.hash(password) }
        let refresh = minter.makeRefreshToken(signingInWith: .password)
        let now = clock.now
        let newHash = passwordHash
        let verdict: Verdict<Account>
        do {
            verdict = try await store.write { transaction -> Verdict<Account> in
                var current: Account
                if case .user(let claims) = actor {
                    // Checked again inside the write, so a revocation that raced this request still counts.
                    let checked = try AccountLookup.check(claims, in: transaction)
                    guard case .accepted(let account) = checked else { return .refused(checked.refusal ?? .invalidIDToken) }
                    current = account
                } else {
                    guard let account = try transaction.account(id: account.id) else { return .refused(.userNotFound) }
                    current = account
                }
                if let email = changes.email, email != current.email {
                    current.email = email
                    current.isEmailVerified = false
                }
                if let displayName = changes.displayName { current.displayName = displayName }
                if let photoURL = changes.photoURL { current.photoURL = photoURL }
                if changes.deletesDisplayName { current.displayName = nil }
                if changes.deletesPhotoURL { current.photoURL = nil }
                if changes.deletesPassword { current.passwordHash = nil }
                if let isDisabled = changes.isDisabled, isDisabled != current.isDisabled {
                    current.isDisabled = isDisabled
                    try transaction.record(
                        AuditEvent(
                            isDisabled ? .accountDisabled : .accountEnabled, at: now, accountID: current.id, email: current.email, requester: requester,
                            detail: actor.auditName))
                }
                if let isEmailVerified = changes.isEmailVerified { current.isEmailVerified = isEmailVerified }
                // Disabling blocks refresh and lookup by itself (as in Firebase, re-enabling restores the sessions).
                let revokesSessions = newHash != nil || changes.validSince != nil
                if let newHash { current.passwordHash = newHash }
                if revokesSessions {
                    // A future validSince would lock the account out for good; one in the past revokes nothing new.
                    let requested = min(changes.validSince ?? now, now).wholeSeconds
                    if requested > current.validSince || newHash != nil {
                        current.validSince = max(current.validSince, requested)
                        try transaction.revokeSessions(accountID: current.id, at: now)
                        try transaction.record(
                            AuditEvent(
                                .sessionsRevoked, at: now, accountID: current.id, email: current.email, requester: requester,
                                detail: "\(newHash != nil ? "password changed" : "validSince set") by \(actor.auditName)"))
                    }
                }
                try transaction.update(current)
                if newHash != nil, case .user = actor {
                    try transaction.openSession(refresh, accountID: current.id, authTime: now, now: now)
                }
                return .accepted(current)
            }
        } catch let conflict as AccountConflict {
            // Thrown, not returned: the audit rows and revocations written before the clash are undone with it.
            throw conflict.refusal
        }
        let updated = try verdict.get()
        logger.debug("Account updated", metadata: ["account": "\(updated.id)"])
        guard passwordHash != nil, case .user = actor else { return (updated, nil) }
        // The new session starts with the password change itself; validSince is whole seconds, so is iat.
        return (updated, try await minter.session(for: updated, authTime: now, refresh: refresh, now: now, isNewUser: false))
    }

    /// Deletes the account and its sessions. Pending sign-in links for its address stay harmless: completing one
    /// creates a fresh account.
    package func delete(_ account: Account, by actor: AccountActor, requester: RequesterSummary = RequesterSummary(), logger: Logger) async throws {
        if case .user(let claims) = actor { try requireRecentLogin(claims) }
        let now = clock.now
        try await store.write { transaction in
            try transaction.deleteAccount(id: account.id, at: now)
            try transaction.record(
                AuditEvent(.accountDeleted, at: now, accountID: account.id, email: account.email, requester: requester, detail: actor.auditName))
        }
        logger.debug("Account deleted", metadata: ["account": "\(account.id)"])
    }

    private func requireRecentLogin(_ claims: IDTokenClaims) throws(SignInError) {
        guard claims.isRecentLogin(at: clock.now, within: recentLogin) else { throw .credentialTooOld }
    }
}
