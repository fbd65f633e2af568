import Foundation
import LatchkeyWire
import Logging

/// Completes a sign-in link: consumes the code and signs the user in, in one write transaction.
package struct LinkCompleter: Sendable {
    let store: any Store
    let authentication: Authentication
    let secret: ServerSecret
    let clock: any WallClock
    let finisher: SignInFinisher
    let recentLogin: TimeInterval
    let limiter: RateLimiter
    /// Mails the old address its undo when a link moves a signed-in account to a new address.
    let undos: ActionCodeIssuer
    /// Whether the short code of the email is taken too (`emailLink.typedCode`).
    let acceptsTypedCode: Bool
    let metrics: SignInMetrics

    package init(
        store: any Store, authentication: Authentication, secret: ServerSecret, clock: any WallClock, finisher: SignInFinisher,
        recentLogin: TimeInterval, limiter: RateLimiter, undos: ActionCodeIssuer, acceptsTypedCode: Bool = false,
        metrics: SignInMetrics = SignInMetrics()
    ) {
        self.authentication = authentication
        self.undos = undos
        self.acceptsTypedCode = acceptsTypedCode
        self.store = store
        self.secret = secret
        self.clock = clock
        self.finisher = finisher
        self.recentLogin = recentLogin
        self.limiter = limiter
        self.metrics = metrics
    }

    /// Signs in the owner of `email` with the code from their link, or the short code the email shows beside it
    /// (`TypedCode`, when `emailLink.typedCode` is on): whichever comes first spends the request. A typed code matches
    /// only its own address, and each wrong one counts against the typed codes of every live request of the address, so
    /// a few wrong guesses kill them all (the links, which need no such budget, stay).
    ///
    /// A wrong email leaves the code usable (up to `PendingRequest.maximumMismatches` times); a disabled
    /// account consumes it. Taking over an account whose email was never verified strips its password and
    /// ends its other sessions, so whoever registered the address first loses access (`SignInFinisher`).
    ///
    /// With an `idToken` the proven address is linked to that account instead: its own address re-authenticates it (a
    /// fresh `auth_time`), a free address becomes the email of an account that has none, or replaces another after a
    /// recent sign-in only; an address another account owns is `EMAIL_EXISTS`. The token is checked before the code
    /// (its signature before the write, its session and account first thing inside it), so every refusal of the token
    /// leaves the code unused and uncounted.
    ///
    /// An account with second factors gets a challenge instead of a session (`SignInFinisher`); the code is spent
    /// either way, and a refused second factor never gives it back.
    ///
    /// The attempt counts against the per-IP limit on completions (an admin's against none) first, in the same
    /// transaction, so guessing codes is cut off; a full window throws `RateLimited` (audited) before the code is even
    /// looked up.
    package func complete(_ request: EmailLinkSigninRequest, by caller: Caller = Caller(), logger: Logger) async throws -> SignInResult {
        let email = try EmailAddress(requestField: request.email)
        let code = try OOBCode.requestField(request.oobCode)
        let idToken = request.idToken.flatMap { $0.isEmpty ? nil : $0 }
        let signedIn: IDTokenClaims? = if let idToken { try await authentication.claims(of: idToken) } else { nil }
        let presented: PresentedCode =
            if acceptsTypedCode, let typed = TypedCode.normalize(code) {
                .typed(TypedCode.hash(typed, email: email, secret: secret))
            } else {
                .link(LinkCode.key(code, secret: secret))
            }
        let now = clock.now
        let (requester, limits) = (caller.requester, caller.limits([.init(.completePerIP, caller.ipAddress)]))
        let attempt = { @Sendable (limits: [RateLimiter.Check]) in
            try await limiter.write(counting: limits, requester: requester) { transaction in
                try await settle(email: email, code: presented, signedIn: signedIn, requester: requester, now: now, in: transaction)
            }
        }
        let verdict: Verdict<SignInFinisher.Finished>
        do {
            verdict = try await attempt(limits)
        } catch AccountConflict.emailTaken where signedIn == nil {
            // Another completion created the account for this address meanwhile; this one signs in to it. Its attempt
            // stays counted where the store counts apart from the work (PostgreSQL, the only store where two
            // completions interleave), so it is not counted twice.
            verdict = try await attempt([])
        }
        count(verdict)
        let finished = try verdict.get()
        // A link that moved a signed-in account may have queued the old address's undo.
        if signedIn != nil { undos.outbox.nudge() }
        logger.debug("Sign-in link completed", metadata: ["account": "\(finished.user.account.id)", "new": "\(finished.isNewUser)"])
        return try finisher.result(for: finished)
    }

    /// A link's code, or a typed one, by its keyed hash.
    private enum PresentedCode: Sendable {
        case link(Data)
        case typed(Data)
    }

    /// The rules of a completion, inside its write transaction.
    private func settle(
        email: EmailAddress, code: PresentedCode, signedIn: IDTokenClaims?, requester: RequesterSummary, now: Date, in transaction: any StoreTransaction
    ) async throws -> Verdict<SignInFinisher.Finished> {
        // The token first, before the code is looked at (a refusal keeps nothing), and inside the write, so a revocation
        // that raced this request still counts.
        var linking: Account?
        if let signedIn { linking = try await Authentication.account(of: signedIn, in: transaction, locking: true) }
        let found: PendingRequest?
        switch code {
        case .link(let hash):
            found = try await transaction.pendingRequest(codeHash: hash)
        case .typed(let hash):
            let typed = try await transaction.pendingRequest(typedCodeHash: hash)
            if typed == nil { try await transaction.recordTypedCodeMiss(for: email, at: now) }
            found = typed.flatMap { $0.typedCodeMisses < PendingRequest.maximumMismatches ? $0 : nil }
        }
        guard let pending = found, pending.action == .signIn, let id = pending.id, !pending.isSpent else { return .refused(.invalidOOBCode) }
        guard !pending.isExpired(at: now) else { return .refused(.expiredOOBCode) }
        guard pending.email == email else {
            try await transaction.recordMismatch(pendingRequestID: id)
            return .refused(.emailMismatch)
        }
        let existing = try await transaction.lockedAccount(email: email)
        var attempt = SignInFinisher.Attempt(
            account: existing ?? Account.new(email: email, at: now), stored: existing, provider: .password, requester: requester)
        if let claims = signedIn, let account = linking {
            if let existing, existing.id != account.id { return .refused(.emailExists) }
            // An address for the account (a new one, or its first) is a way in: the token's sign-in must be recent.
            if account.email != email, !claims.mayChangeSignIn(of: try await transaction.userRecord(account), at: now, within: recentLogin) {
                return .refused(.credentialTooOld)
            }
            if account.email != email {
                // Moving to the proven address is an address change: the old one, if proven, gets its undo.
                _ = try await undos.addressChanging(account, to: email, language: pending.language, requester: requester, at: now, in: transaction)
            }
            attempt.account = account
            attempt.account.email = email
            attempt.stored = account
            attempt.auditDetail = "linked to a signed-in account"
            attempt.secondFactor = claims.carriedSecondFactor
        } else {
            attempt.provesAddressOnly = true
        }
        guard try await transaction.consumePendingRequest(id: id, at: now) else { return .refused(.invalidOOBCode) }
        attempt.account.isEmailVerified = true
        return try await finisher.finish(attempt, at: now, in: transaction)
    }

    private func count(_ verdict: Verdict<SignInFinisher.Finished>) {
        switch verdict {
        case .accepted(let finished):
            metrics.count(code: .completed)
            if finished.isNewUser { metrics.countSignUp("email_link") }
            if finished.tookOver { metrics.countPasswordStrip() }
        case .refused(.expiredOOBCode): metrics.count(code: .expired)
        case .refused(.emailMismatch): metrics.count(code: .mismatched)
        case .refused(.invalidOOBCode): metrics.count(code: .invalid)
        case .refused: break
        }
    }
}
