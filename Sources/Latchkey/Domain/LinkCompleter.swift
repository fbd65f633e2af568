import Foundation
import Logging

/// Completes a sign-in link: consumes the code and signs the user in, in one write transaction.
package struct LinkCompleter: Sendable {
    let store: any LinkStore
    let secret: ServerSecret
    let clock: any WallClock
    let minter: SessionMinter
    let recentLogin: TimeInterval
    let limiter: RateLimiter
    let metrics: ServiceMetrics

    package init(
        store: any LinkStore, secret: ServerSecret, clock: any WallClock, minter: SessionMinter, recentLogin: TimeInterval, limiter: RateLimiter,
        metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.minter = minter
        self.recentLogin = recentLogin
        self.limiter = limiter
        self.metrics = metrics
    }

    /// Signs in the owner of `email` with the code from their link.
    ///
    /// A wrong email leaves the code usable (up to `PendingRequest.maximumMismatches` times); a disabled
    /// account consumes it. Taking over an account whose email was never verified strips its password and
    /// ends its other sessions, so whoever registered the address first loses access.
    ///
    /// With `signedIn` (the claims of the request's valid ID token) the proven address is linked to that account
    /// instead: its own address re-authenticates it (a fresh `auth_time`), a free address becomes the email of an
    /// account that has none, or replaces another after a recent sign-in only; an address another account owns is
    /// `EMAIL_EXISTS`. Every refusal of the token leaves the code unused.
    ///
    /// The attempt is counted against `limits` first, in the same transaction; a full window throws `RateLimited`
    /// (audited) before the code is even looked up.
    package func complete(
        email: EmailAddress, code: String, signedIn: IDTokenClaims? = nil, requester: RequesterSummary = RequesterSummary(),
        limits: [RateLimiter.Check] = [], logger: Logger
    ) async throws -> Session {
        let codeHash = secret.hash(code, for: .linkCode)
        let refresh = minter.makeRefreshToken(signingInWith: .password)
        let now = clock.now
        let counters = limiter.counters(for: limits)
        let outcome = try await store.write { transaction -> Result<Verdict<SignedIn>, RateLimited> in
            if let refusal = try RateLimiter.count(counters, in: transaction, at: now, requester: requester) { return .failure(refusal) }
            return .success(
                try settle(email: email, codeHash: codeHash, signedIn: signedIn, requester: requester, refresh: refresh, now: now, in: transaction))
        }
        let verdict = try outcome.get()
        count(verdict)
        let (account, isNew, _) = try verdict.get()
        logger.debug("Sign-in link completed", metadata: ["account": "\(account.id)", "new": "\(isNew)"])
        return try await minter.session(for: account, authTime: now, refresh: refresh, now: now, isNewUser: isNew)
    }

    /// Who a completion signed in, whether the account is new, and whether taking it over stripped a password.
    private typealias SignedIn = (Account, isNew: Bool, strippedPassword: Bool)

    /// The rules of a completion, inside its write transaction.
    private func settle(
        email: EmailAddress, codeHash: Data, signedIn: IDTokenClaims?, requester: RequesterSummary, refresh: IssuedRefreshToken, now: Date,
        in transaction: any StoreTransaction
    ) throws -> Verdict<SignedIn> {
        guard let pending = try transaction.pendingRequest(codeHash: codeHash), let id = pending.id, !pending.isSpent else {
            return .refused(.invalidOOBCode)
        }
        guard !pending.isExpired(at: now) else { return .refused(.expiredOOBCode) }
        guard pending.email == email else {
            try transaction.recordMismatch(pendingRequestID: id)
            return .refused(.emailMismatch)
        }
        let existing = try transaction.account(email: email)
        if let claims = signedIn {
            // Checked again inside the write, so a revocation that raced this request still counts.
            let checked = try AccountLookup.check(claims, in: transaction)
            guard case .accepted(var account) = checked else { return .refused(checked.refusal ?? .invalidIDToken) }
            if let existing, existing.id != account.id { return .refused(.emailExists) }
            if let current = account.email, current != email, !claims.isRecentLogin(at: now, within: recentLogin) {
                return .refused(.credentialTooOld)
            }
            guard try transaction.consumePendingRequest(id: id, at: now) else { return .refused(.invalidOOBCode) }
            account.email = email
            account.isEmailVerified = true
            account.lastSignInAt = now
            try transaction.update(account)
            try transaction.openSession(refresh, accountID: account.id, authTime: now, now: now)
            try transaction.record(
                AuditEvent(.signInCompleted, at: now, accountID: account.id, email: email, requester: requester, detail: "linked to a signed-in account"))
            return .accepted((account, false, false))
        }
        guard try transaction.consumePendingRequest(id: id, at: now) else { return .refused(.invalidOOBCode) }
        var account = existing ?? Account(id: Account.makeID(), email: email, isEmailVerified: true, validSince: now.wholeSeconds, createdAt: now)
        guard !account.isDisabled else { return .refused(.userDisabled) }
        let strips = existing != nil && !account.isEmailVerified
        if strips {
            // Whoever held this account before the address was proven (a password, or a password since
            // removed, or an address set on an anonymous account) loses every session now.
            account.passwordHash = nil
            account.validSince = now.wholeSeconds
            try transaction.revokeSessions(accountID: account.id, at: now)
            for kind in [AuditEvent.Kind.passwordStripped, .sessionsRevoked] {
                try transaction.record(
                    AuditEvent(kind, at: now, accountID: account.id, email: email, requester: requester, detail: "address proven by another party"))
            }
        }
        account.isEmailVerified = true
        account.lastSignInAt = now
        if existing == nil { try transaction.insert(account) } else { try transaction.update(account) }
        try transaction.openSession(refresh, accountID: account.id, authTime: now, now: now)
        try transaction.record(
            AuditEvent(.signInCompleted, at: now, accountID: account.id, email: email, requester: requester, detail: existing == nil ? "new account" : nil))
        return .accepted((account, existing == nil, strips))
    }

    private func count(_ verdict: Verdict<SignedIn>) {
        switch verdict {
        case .accepted(let (_, isNew, strippedPassword)):
            metrics.count(code: .completed)
            if isNew { metrics.countSignUp("email_link") }
            if strippedPassword { metrics.countPasswordStrip() }
        case .refused(.expiredOOBCode): metrics.count(code: .expired)
        case .refused(.emailMismatch): metrics.count(code: .mismatched)
        case .refused(.invalidOOBCode): metrics.count(code: .invalid)
        case .refused: break
        }
    }
}
