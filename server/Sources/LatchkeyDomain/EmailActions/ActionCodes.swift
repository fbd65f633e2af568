import Foundation
import Logging

/// Uses the codes of the email actions other than sign-in: tells what a code is for without spending it
/// (`checkActionCode`), resets a password, and applies a verification, an address change or its undo
/// (`applyActionCode`), each in one write transaction that holds the account's row and spends the code with a
/// conditional UPDATE.
///
/// A code works only for the account it was issued to, and only while that account still has the address it was
/// issued for; a verification or change, which a session asked for, also dies with the account's sessions. Every use
/// counts against the per-IP limit on completions (an admin's against none).
package struct ActionCodes: Sendable {
    /// What a code is for.
    package struct Checked: Sendable, Equatable {
        package var action: EmailAction
        /// The code's address; nil for a sign-in code, whose address the app must get from its user, not from the code.
        package var email: EmailAddress?
        /// For an address change the new address; for its undo the address the account was changed to.
        package var newEmail: EmailAddress?
    }

    /// A code used: what it was for, and the account after it.
    package struct Applied: Sendable {
        package var checked: Checked
        package var user: UserRecord
    }

    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock
    let hasher: PasswordHasher
    /// Issues the undo that an address change mails to the old address.
    let issuer: ActionCodeIssuer
    let limiter: RateLimiter
    /// What a reset's new password must contain.
    let passwordPolicy: PasswordPolicy
    let metrics: SignInMetrics

    package init(
        store: any Store, secret: ServerSecret, clock: any WallClock, hasher: PasswordHasher, issuer: ActionCodeIssuer, limiter: RateLimiter,
        passwordPolicy: PasswordPolicy = PasswordPolicy(), metrics: SignInMetrics = SignInMetrics()
    ) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.hasher = hasher
        self.issuer = issuer
        self.limiter = limiter
        self.passwordPolicy = passwordPolicy
        self.metrics = metrics
    }

    /// What `code` is for, looked up without spending it; refused as its use would be refused.
    package func check(_ code: String, by caller: Caller) async throws -> Checked {
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
        let (now, codeHash) = (clock.now, LinkCode.key(code, secret: secret))
        let verdict = try await store.read { transaction -> Verdict<PendingRequest> in
            let found = Self.usable(try await transaction.pendingRequest(codeHash: codeHash), at: now)
            guard case .accepted(let pending) = found, pending.action.isForAccount else { return found }
            return try await Self.account(for: pending, at: now, locking: false, in: transaction).map { _ in pending }
        }
        count(verdict)
        let pending = try verdict.get()
        return Checked(action: pending.action, email: pending.action == .signIn ? nil : pending.email, newEmail: pending.newEmail)
    }

    /// Sets `newPassword` on the account of a password reset code, marks its address verified (the reset link proved
    /// it), ends every session and spends the account's other codes but its undos. An account whose address was never
    /// verified first loses whatever else could sign in to it, and every code, as when an email link proves the address
    /// (`stripForeignAccess`). The code is checked before the password, which is hashed only for a live reset code.
    package func resetPassword(_ code: String, to newPassword: String, by caller: Caller, logger: Logger) async throws -> Checked {
        guard try await check(code, by: caller).action == .resetPassword else { throw SignInError.invalidOOBCode }
        let passwordHash = try await hasher.hash(try PasswordHasher.validate(newPassword, policy: passwordPolicy))
        let applied = try await redeem(code, as: [.resetPassword], counted: true, by: caller, logger: logger) { pending, account, now, transaction in
            var changed = account
            if account.isEmailVerified {
                try await Self.endSessions(of: &changed, because: "password reset", requester: caller.requester, at: now, in: transaction)
                try await transaction.spendOutstandingRequests(accountID: account.id, sparingUndosBefore: .max, at: now)
            } else {
                try await transaction.stripForeignAccess(of: &changed, because: "address proven by a password reset", requester: caller.requester, at: now)
                try await transaction.spendOutstandingRequests(accountID: account.id, sparingUndosBefore: nil, at: now)
            }
            changed.passwordHash = passwordHash
            changed.isEmailVerified = true
            try await transaction.saveAccount(changed, stored: account, at: now)
            try await transaction.record(AuditEvent(.passwordReset, at: now, accountID: account.id, email: pending.email, requester: caller.requester))
            return changed
        }
        return applied.checked
    }

    /// Applies a verification, an address change or its undo. A change ends every session and mails the old address an
    /// undo (`ActionCodeIssuer.addressChanging`). An undo puts the old address back, verified, and takes the account from
    /// whoever changed it: its password, other providers, the authenticators enrolled since the change and every session
    /// go (the page offers a password reset), with every code but the undos issued before this one, so the first undo of a
    /// run of changes wins; the authenticators from before the change stay, so the old mailbox alone never gets around
    /// them. Either
    /// refuses with `EMAIL_EXISTS`, leaving the code unspent, when another account holds the address.
    package func apply(_ code: String, by caller: Caller, logger: Logger) async throws -> Applied {
        let applied = try await redeem(code, as: [.verifyEmail, .verifyAndChangeEmail, .recoverEmail], counted: false, by: caller, logger: logger) {
            pending, account, now, transaction in
            var changed = account
            changed.isEmailVerified = true
            let requester = caller.requester
            switch pending.action {
            case .verifyAndChangeEmail:
                guard let newEmail = pending.newEmail else { throw SignInError.invalidOOBCode }
                changed.email = newEmail
                try await Self.endSessions(of: &changed, because: "address changed", requester: requester, at: now, in: transaction)
                try await transaction.saveAccount(changed, stored: account, at: now)
                try await transaction.record(
                    AuditEvent(.emailChanged, at: now, accountID: account.id, email: newEmail, requester: requester, detail: "from \(pending.email.redacted)"))
                _ = try await issuer.addressChanging(
                    account, to: newEmail, continueURL: pending.continueURL, language: pending.language, requester: requester, at: now, in: transaction)
            case .recoverEmail:
                try await transaction.stripForeignAccess(
                    of: &changed, because: "address change undone", requester: requester, at: now, keepingFactorsEnrolledBefore: pending.createdAt)
                changed.email = pending.email
                try await transaction.saveAccount(changed, stored: account, at: now)
                try await transaction.spendOutstandingRequests(accountID: account.id, sparingUndosBefore: pending.id, at: now)
                try await transaction.record(
                    AuditEvent(
                        .emailRestored, at: now, accountID: account.id, email: pending.email, requester: requester,
                        detail: pending.newEmail.map { "from \($0.redacted)" }))
            default:
                try await transaction.saveAccount(changed, stored: account, at: now)
                try await transaction.record(AuditEvent(.emailVerified, at: now, accountID: account.id, email: pending.email, requester: requester))
            }
            return changed
        }
        if applied.checked.action == .verifyAndChangeEmail { issuer.outbox.nudge() }
        return applied
    }

    /// Finds `code`, checks it is one of `actions` for the account it was issued to (holding the account's row), spends
    /// it and runs `change` in the same write. `counted` says the attempt already counted against the limits (`check`).
    private func redeem(
        _ code: String, as actions: Set<EmailAction>, counted: Bool, by caller: Caller, logger: Logger,
        _ change: @escaping @Sendable (PendingRequest, Account, Date, any StoreTransaction) async throws -> Account
    ) async throws -> Applied {
        let now = clock.now
        let codeHash = LinkCode.key(code, secret: secret)
        let limits = counted ? [] : caller.limits([.init(.completePerIP, caller.ipAddress)])
        let verdict = try await limiter.write(counting: limits, requester: caller.requester) { transaction -> Verdict<Applied> in
            let found = Self.usable(try await transaction.pendingRequest(codeHash: codeHash), at: now)
            guard case .accepted(let pending) = found, let id = pending.id else { return .refused(found.refusal ?? .invalidOOBCode) }
            guard actions.contains(pending.action) else { return .refused(.invalidOOBCode) }
            let bound = try await Self.account(for: pending, at: now, locking: true, in: transaction)
            guard case .accepted(let account) = bound else { return .refused(bound.refusal ?? .invalidOOBCode) }
            guard try await transaction.consumePendingRequest(id: id, at: now) else { return .refused(.invalidOOBCode) }
            let changed = try await change(pending, account, now, transaction)
            let checked = Checked(action: pending.action, email: pending.email, newEmail: pending.newEmail)
            return .accepted(Applied(checked: checked, user: try await transaction.userRecord(changed)))
        }
        count(verdict)
        let applied = try verdict.get()
        metrics.count(code: .completed)
        logger.debug("Email action applied", metadata: ["action": "\(applied.checked.action)", "account": "\(applied.user.account.id)"])
        return applied
    }

    /// `pending` if its code can still be used: issued, unspent and unexpired.
    private static func usable(_ pending: PendingRequest?, at now: Date) -> Verdict<PendingRequest> {
        guard let pending, !pending.isSpent else { return .refused(.invalidOOBCode) }
        guard !pending.isExpired(at: now) else { return .refused(.expiredOOBCode) }
        return .accepted(pending)
    }

    /// The account an action's code is for, while the code still binds it: the account has the code's address (an undo
    /// takes it back whatever the address is now, so changing it again cannot outrun the undo), and a code a session
    /// asked for was asked after the account's last revocation. With `locking` the account's row is held.
    private static func account(
        for pending: PendingRequest, at now: Date, locking: Bool, in transaction: any StoreTransaction
    ) async throws -> Verdict<Account> {
        guard let id = pending.accountID else { return .refused(.invalidOOBCode) }
        let found = locking ? try await transaction.lockedAccount(id: id) : try await transaction.account(id: id)
        guard let account = found else { return .refused(.invalidOOBCode) }
        let askedBySession = pending.action == .verifyEmail || pending.action == .verifyAndChangeEmail
        guard pending.action == .recoverEmail || account.email == pending.email, !askedBySession || pending.createdAt >= account.validSince
        else { return .refused(.invalidOOBCode) }
        return account.isDisabled ? .refused(.userDisabled) : .accepted(account)
    }

    /// Ends every session of `account` (its `validSince` only moves forward), with an audit line saying why.
    private static func endSessions(
        of account: inout Account, because reason: String, requester: RequesterSummary, at now: Date, in transaction: any StoreTransaction
    ) async throws {
        account.validSince = max(account.validSince, now.wholeSeconds)
        try await transaction.revokeSessions(accountID: account.id, at: now)
        try await transaction.record(AuditEvent(.sessionsRevoked, at: now, accountID: account.id, email: account.email, requester: requester, detail: reason))
    }

    private func count<T: Sendable>(_ verdict: Verdict<T>) {
        switch verdict {
        case .accepted: break
        case .refused(.expiredOOBCode): metrics.count(code: .expired)
        case .refused(.invalidOOBCode): metrics.count(code: .invalid)
        case .refused: break
        }
    }
}
