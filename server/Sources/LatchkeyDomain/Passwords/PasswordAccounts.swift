import Foundation
import LatchkeyWire
import Logging

/// Firebase's `signUp` (with a password, or anonymous) and `signInWithPassword`.
///
/// A password account's email stays unverified until its owner completes an email link, which then strips
/// the password (see `SignInFinisher`), so registering someone else's address gains nothing lasting.
package struct PasswordAccounts: Sendable {
    let store: any Store
    let authentication: Authentication
    let hasher: PasswordHasher
    let clock: any WallClock
    let finisher: SignInFinisher
    let enumerationProtection: Bool
    let limiter: RateLimiter
    let notices: SecurityNotices
    let recentLogin: TimeInterval
    /// What a new password must contain and, with `forceUpgradeOnSignIn`, one that signs in.
    let passwordPolicy: PasswordPolicy
    let metrics: SignInMetrics

    package init(
        store: any Store, authentication: Authentication, hasher: PasswordHasher, clock: any WallClock, finisher: SignInFinisher,
        enumerationProtection: Bool, limiter: RateLimiter, notices: SecurityNotices, recentLogin: TimeInterval,
        passwordPolicy: PasswordPolicy = PasswordPolicy(), metrics: SignInMetrics = SignInMetrics()
    ) {
        self.store = store
        self.authentication = authentication
        self.hasher = hasher
        self.clock = clock
        self.finisher = finisher
        self.enumerationProtection = enumerationProtection
        self.limiter = limiter
        self.notices = notices
        self.recentLogin = recentLogin
        self.passwordPolicy = passwordPolicy
        self.metrics = metrics
    }

    /// `accounts:signUp`: either field, even null, makes a password sign-up, which needs both; neither makes an anonymous
    /// account. With an `idToken` both are linked to that user's account instead (Firebase's `linkEmailPassword`).
    package func signUp(_ request: SignupNewUserRequest, language: LanguageTag = .english, by caller: Caller = Caller(), logger: Logger) async throws
        -> Session
    {
        let idToken = request.idToken.flatMap { $0.isEmpty ? nil : $0 }
        guard request.email != nil || request.password != nil || idToken != nil else {
            return try await signUp(email: nil, password: nil, by: caller, logger: logger)
        }
        let email = try EmailAddress(requestField: request.email)
        let password = try PasswordHasher.validate(request.password, policy: passwordPolicy)
        guard let idToken else { return try await signUp(email: email, password: password, by: caller, logger: logger) }
        let claims = try await authentication.claims(of: idToken)
        return try await link(email: email, password: password, to: claims, language: language, by: caller, logger: logger)
    }

    /// Creates an unverified account with a password, or with neither an anonymous one, and signs it in.
    /// An anonymous account gets an address later by completing an email link with its ID token.
    /// Sign-ups count per IP: each is an account, and `EMAIL_EXISTS` tells whether an address is registered. An admin
    /// creates accounts through `AccountAdministration.create`, which signs nobody in.
    package func signUp(email: EmailAddress?, password: String?, by caller: Caller = Caller(), logger: Logger) async throws -> Session {
        try await limiter.admit(caller.limits([.init(.signUpPerIP, caller.ipAddress)]), email: email, requester: caller.requester)
        var passwordHash: String?
        if let password { passwordHash = try await hasher.hash(password) }
        let now = clock.now
        var account = Account.new(email: email, at: now)
        account.passwordHash = passwordHash
        let attempt = SignInFinisher.Attempt(
            account: account, stored: nil, provider: email == nil ? .anonymous : .password, requester: caller.requester)
        let finished: SignInFinisher.Finished
        do {
            finished = try await store.write { transaction in try await finisher.finish(attempt, at: now, in: transaction) }.get()
        } catch let conflict as AccountConflict {
            throw conflict.refusal
        }
        metrics.countSignUp(email == nil ? "anonymous" : "password")
        logger.debug("Account signed up", metadata: ["account": "\(account.id)", "anonymous": "\(email == nil)"])
        return try finisher.session(for: finished)
    }

    /// Links `email` and `password` to the signed-in account of `claims`: Firebase's `signUp` with an `idToken`, which the
    /// SDKs send for `linkWithCredential(EmailAuthProvider.credential(…))` (the upgrade of an anonymous user above all),
    /// answered with a new session of the same account.
    ///
    /// An account with a password already is `PROVIDER_ALREADY_LINKED`; an address of another account `EMAIL_EXISTS`; a
    /// proven address is left only for another proven one (`verifyNewEmailFirst`); an account that already signs in some
    /// way needs a recent sign-in (`IDTokenClaims.mayChangeSignIn`), and its address is told of the new password.
    private func link(
        email: EmailAddress, password: String, to claims: IDTokenClaims, language: LanguageTag = .english, by caller: Caller = Caller(),
        logger: Logger
    ) async throws -> Session {
        let passwordHash = try await hasher.hash(password)
        let now = clock.now
        let (recentLogin, notices, finisher, requester) = (recentLogin, notices, finisher, caller.requester)
        let verdict: Verdict<SignInFinisher.Finished>
        do {
            verdict = try await store.write { transaction -> Verdict<SignInFinisher.Finished> in
                let stored = try await Authentication.account(of: claims, in: transaction, locking: true)
                guard stored.passwordHash == nil else { return .refused(.providerAlreadyLinked) }
                guard claims.mayChangeSignIn(of: try await transaction.userRecord(stored), at: now, within: recentLogin) else {
                    return .refused(.credentialTooOld)
                }
                if let owner = try await transaction.account(email: email), owner.id != stored.id { return .refused(.emailExists) }
                var account = stored
                if account.email != email {
                    guard !account.isEmailVerified else { return .refused(.verifyNewEmailFirst) }
                    (account.email, account.isEmailVerified) = (email, false)
                }
                account.passwordHash = passwordHash
                var attempt = SignInFinisher.Attempt(
                    account: account, stored: stored, provider: .password, requester: requester, auditDetail: "password linked")
                attempt.secondFactor = claims.carriedSecondFactor
                let verdict = try await finisher.finish(attempt, at: now, in: transaction)
                if case .accepted = verdict {
                    try await notices.queue(
                        SecurityNotice(.passwordAdded, language: language, at: now, requester: requester), to: stored, at: now, in: transaction)
                }
                return verdict
            }
        } catch let conflict as AccountConflict {
            throw conflict.refusal
        }
        let finished = try verdict.get()
        notices.nudge()
        logger.debug("Password linked", metadata: ["account": "\(finished.user.account.id)"])
        return try finisher.session(for: finished)
    }

    /// Signs in with a password. With enumeration protection every failure looks the same.
    ///
    /// Every attempt counts against the per-IP limit on sign-ins, and against the per-IP and per-address limits on wrong
    /// passwords before its password is checked, in the same conditional statements: concurrent guesses cannot outrun
    /// them (once a window is full every attempt is refused unchecked). A right password gives its count on those back
    /// (an admin counts against none). An imported or outdated hash is replaced by a current one (`PasswordHasher.needsRehash`).
    /// A right password that misses the policy's requirements signs in nothing when the policy forces an upgrade
    /// (`PasswordPolicy.refusal(ofSignInWith:)`); it still counts as right.
    package func signIn(email: EmailAddress, password: String, by caller: Caller = Caller(), logger: Logger) async throws -> SignInResult {
        let requester = caller.requester
        let failureLimits = caller.limits([.init(.passwordPerIP, caller.ipAddress), .init(.passwordPerEmail, email.value)])
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]) + failureLimits, email: email, requester: requester)
        let account = try await store.read { try await $0.account(email: email) }
        guard try await check(password, against: account?.passwordHash, for: email, counted: failureLimits), let account,
            let passwordHash = account.passwordHash
        else {
            throw enumerationProtection ? SignInError.invalidLoginCredentials : account == nil ? .emailNotFound : .invalidPassword
        }
        let upgradedHash = hasher.needsRehash(passwordHash, password: password) ? try await hasher.hash(password) : nil
        let now = clock.now
        let refusal: SignInError = enumerationProtection ? .invalidLoginCredentials : .invalidPassword
        let verdict = try await store.write { transaction -> Verdict<SignInFinisher.Finished> in
            // The hash was checked outside the write; if an email-link sign-in stripped or replaced it meanwhile,
            // the password no longer opens this account.
            guard let current = try await transaction.lockedAccount(id: account.id), current.passwordHash == passwordHash else { return .refused(refusal) }
            try await limiter.uncount(failureLimits, in: transaction)
            if let refusal = passwordPolicy.refusal(ofSignInWith: password) { return .refused(refusal) }
            var attempt = SignInFinisher.Attempt(
                account: current, stored: current, provider: .password, requester: requester, auditDetail: "password")
            if let upgradedHash { attempt.account.passwordHash = upgradedHash }
            return try await finisher.finish(attempt, at: now, in: transaction)
        }
        let finished = try verdict.get()
        logger.debug("Password sign-in", metadata: ["account": "\(finished.user.account.id)"])
        return try finisher.result(for: finished)
    }

    /// Checks `password` against `hash`, or spends a decoy check's time when there is none. An attempt the hashing line
    /// turned away (`PasswordHashingBusy`) was never checked: its count on the wrong-password `limits` is given back.
    private func check(_ password: String, against hash: String?, for email: EmailAddress, counted limits: [RateLimiter.Check]) async throws -> Bool {
        do {
            guard let hash else {
                try await hasher.verifyDecoy(password, for: email)
                return false
            }
            return try await hasher.verify(password, against: hash, for: email)
        } catch let busy as PasswordHashingBusy {
            try await store.write { transaction in try await limiter.uncount(limits, in: transaction) }
            throw busy
        }
    }
}
