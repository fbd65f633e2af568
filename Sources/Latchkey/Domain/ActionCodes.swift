import Foundation
import Logging

/// Uses the codes of the email actions other than sign-in: tells what a code is for without spending it
/// (`checkActionCode`), resets a password, and applies a verification, an address change or its undo
/// (`applyActionCode`), each in one write transaction that spends the code with a conditional UPDATE.
///
/// A code works only for the account it was issued to, and only while that account still has the address it was
/// issued for; every use counts against the per-IP limit on completions (an admin's against none).
package struct ActionCodes: Sendable {
    /// What a code is for.
    package struct Checked: Sendable, Equatable {
        package var action: EmailAction
        /// The code's address; nil for a sign-in code, whose address the app must get from its user, not from the code.
        package var email: EmailAddress?
        /// For an address change the new address; for its undo the address the account was changed to.
        package var newEmail: EmailAddress?
    }

    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock
    let hasher: PasswordHasher
    /// Issues the undo that an address change mails to the old address.
    let issuer: ActionCodeIssuer
    let limiter: RateLimiter
    let metrics: ServiceMetrics

    package init(
        store: any Store, secret: ServerSecret, clock: any WallClock, hasher: PasswordHasher, issuer: ActionCodeIssuer, limiter: RateLimiter,
        metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.hasher = hasher
        self.issuer = issuer
        self.limiter = limiter
        self.metrics = metrics
    }

    /// What `code` is for, looked up without spending or counting it against the code.
    package func check(_ code: String, by caller: Caller) async throws -> Checked {
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
        let found = try await store.read { try await $0.pendingRequest(codeHash: secret.hash(code, for: .linkCode)) }
        let pending = try usable(found, at: clock.now).get()
        return Checked(action: pending.action, email: pending.action == .signIn ? nil : pending.email, newEmail: pending.newEmail)
    }

    /// Sets `newPassword` (already checked against the length rules) on the account of a password reset code, marks its
    /// address verified (the reset link proved it), ends every session and spends every reset code of the address.
    package func resetPassword(_ code: String, to newPassword: String, by caller: Caller, logger: Logger) async throws -> Checked {
        let passwordHash = try await hasher.hash(newPassword)
        let checked = try await redeem(code, as: [.resetPassword], by: caller, logger: logger) { pending, account, now, transaction in
            var changed = account
            changed.passwordHash = passwordHash
            changed.isEmailVerified = true
            try await endSessions(of: &changed, because: "password reset", requester: caller.requester, at: now, in: transaction)
            try await transaction.saveAccount(changed, stored: account)
            try await transaction.spendOutstandingRequests(for: pending.email, action: .resetPassword, at: now)
            try await transaction.record(AuditEvent(.passwordReset, at: now, accountID: account.id, email: pending.email, requester: caller.requester))
            return changed
        }
        return checked.0
    }

    /// Applies a verification, an address change or its undo. A change mails the old address an undo link and ends every
    /// session; an undo puts the old address back, verified, and ends every session too. Either refuses with
    /// `EMAIL_EXISTS`, leaving the code unspent, when another account took the address meanwhile.
    package func apply(_ code: String, apiKey: String, by caller: Caller, logger: Logger) async throws -> (Checked, UserRecord) {
        try await redeem(code, as: [.verifyEmail, .verifyAndChangeEmail, .recoverEmail], by: caller, logger: logger) { pending, account, now, transaction in
            var changed = account
            changed.isEmailVerified = true
            let requester = caller.requester
            switch pending.action {
            case .verifyAndChangeEmail:
                guard let newEmail = pending.newEmail else { throw SignInError.invalidOOBCode }
                changed.email = newEmail
                try await endSessions(of: &changed, because: "address changed", requester: requester, at: now, in: transaction)
                try await transaction.saveAccount(changed, stored: account)
                try await transaction.record(
                    AuditEvent(.emailChanged, at: now, accountID: account.id, email: newEmail, requester: requester, detail: "from \(pending.email.redacted)"))
                _ = try await issuer.record(
                    .recoverEmail, for: account.id, email: pending.email, newEmail: newEmail, settings: .returning(to: pending.continueURL),
                    language: pending.language, apiKey: apiKey, requester: requester, at: now, in: transaction)
            case .recoverEmail:
                changed.email = pending.email
                try await endSessions(of: &changed, because: "address change undone", requester: requester, at: now, in: transaction)
                try await transaction.saveAccount(changed, stored: account)
                try await transaction.record(
                    AuditEvent(
                        .emailRestored, at: now, accountID: account.id, email: pending.email, requester: requester,
                        detail: pending.newEmail.map { "from \($0.redacted)" }))
            default:
                try await transaction.saveAccount(changed, stored: account)
                try await transaction.record(AuditEvent(.emailVerified, at: now, accountID: account.id, email: pending.email, requester: requester))
            }
            return changed
        }
    }

    /// Finds `code`, checks it is one of `actions` for an account that still has its address, spends it and runs
    /// `change` in the same write; the outbox is woken for any letter the change queued.
    private func redeem(
        _ code: String, as actions: Set<EmailAction>, by caller: Caller, logger: Logger,
        _ change: @escaping @Sendable (PendingRequest, Account, Date, any StoreTransaction) async throws -> Account
    ) async throws -> (Checked, UserRecord) {
        let now = clock.now
        let codeHash = secret.hash(code, for: .linkCode)
        let limits = caller.limits([.init(.completePerIP, caller.ipAddress)])
        let verdict: Verdict<(Checked, UserRecord)>
        do {
            verdict = try await limiter.write(counting: limits, requester: caller.requester) { transaction in
                let found = usable(try await transaction.pendingRequest(codeHash: codeHash), at: now)
                guard case .accepted(let pending) = found, let id = pending.id else { return .refused(found.refusal ?? .invalidOOBCode) }
                // An undo works whatever the address is now, so changing it again cannot outrun the undo.
                guard actions.contains(pending.action), let accountID = pending.accountID, let account = try await transaction.account(id: accountID),
                    pending.action == .recoverEmail || account.email == pending.email
                else { return .refused(.invalidOOBCode) }
                guard !account.isDisabled else { return .refused(.userDisabled) }
                guard try await transaction.consumePendingRequest(id: id, at: now) else { return .refused(.invalidOOBCode) }
                let changed = try await change(pending, account, now, transaction)
                let checked = Checked(action: pending.action, email: pending.email, newEmail: pending.newEmail)
                return .accepted((checked, try await transaction.userRecord(changed)))
            }
        } catch let conflict as AccountConflict {
            throw conflict.refusal
        }
        let (checked, user) = try verdict.get()
        metrics.count(code: .completed)
        if checked.action == .verifyAndChangeEmail { issuer.outbox.nudge() }
        logger.debug("Email action applied", metadata: ["action": "\(checked.action)", "account": "\(user.account.id)"])
        return (checked, user)
    }

    /// `pending` if its code can still be used: issued, unspent and unexpired.
    private func usable(_ pending: PendingRequest?, at now: Date) -> Verdict<PendingRequest> {
        guard let pending, !pending.isSpent else {
            metrics.count(code: .invalid)
            return .refused(.invalidOOBCode)
        }
        guard !pending.isExpired(at: now) else {
            metrics.count(code: .expired)
            return .refused(.expiredOOBCode)
        }
        return .accepted(pending)
    }

    /// Ends every session of `account` (its `validSince` only moves forward), with an audit line saying why.
    private func endSessions(
        of account: inout Account, because reason: String, requester: RequesterSummary, at now: Date, in transaction: any StoreTransaction
    ) async throws {
        account.validSince = max(account.validSince, now.wholeSeconds)
        try await transaction.revokeSessions(accountID: account.id, at: now)
        try await transaction.record(AuditEvent(.sessionsRevoked, at: now, accountID: account.id, email: account.email, requester: requester, detail: reason))
    }
}
