import Foundation
import Logging

/// Firebase's `signUp` (with a password, or anonymous) and `signInWithPassword`.
///
/// A password account's email stays unverified until its owner completes an email link, which then strips
/// the password (see `LinkCompleter`), so registering someone else's address gains nothing lasting.
package struct PasswordAccounts: Sendable {
    let store: any LinkStore
    let hasher: PasswordHasher
    let clock: any WallClock
    let minter: SessionMinter
    let enumerationProtection: Bool
    let limiter: RateLimiter
    let metrics: ServiceMetrics

    package init(
        store: any LinkStore, hasher: PasswordHasher, clock: any WallClock, minter: SessionMinter, enumerationProtection: Bool,
        limiter: RateLimiter, metrics: ServiceMetrics = ServiceMetrics()
    ) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.minter = minter
        self.enumerationProtection = enumerationProtection
        self.limiter = limiter
        self.metrics = metrics
    }

    /// Creates an unverified account with a password, or with neither an anonymous one, and signs it in.
    /// An anonymous account gets an address later by completing an email link with its ID token.
    /// Creates an account; `id` is the uid an admin chose (`create_user(uid=…)`), otherwise a new random one.
    package func signUp(id: String? = nil, email: EmailAddress?, password: String?, logger: Logger) async throws -> Session {
        var passwordHash: String?
        if let password { passwordHash = try await hasher.hash(password) }
        let newHash = passwordHash
        let refresh = minter.makeRefreshToken(signingInWith: email == nil ? .anonymous : .password)
        let now = clock.now
        let verdict = try await store.write { transaction -> Verdict<Account> in
            let account = Account(
                id: id ?? Account.makeID(), email: email, isEmailVerified: false, passwordHash: newHash, validSince: now.wholeSeconds, createdAt: now,
                lastSignInAt: now)
            do {
                try transaction.insert(account)
            } catch let conflict as AccountConflict {
                return .refused(conflict.refusal)
            }
            try transaction.openSession(refresh, accountID: account.id, authTime: now, now: now)
            return .accepted(account)
        }
        let account = try verdict.get()
        metrics.countSignUp(email == nil ? "anonymous" : password == nil ? "admin" : "password")
        logger.debug("Account signed up", metadata: ["account": "\(account.id)", "anonymous": "\(email == nil)"])
        return try await minter.session(for: account, authTime: now, refresh: refresh, now: now, isNewUser: true)
    }

    /// Signs in with a password. With enumeration protection every failure looks the same.
    ///
    /// Wrong passwords are counted against `failureLimits`; once one of their windows is full, every attempt is refused
    /// before the password is looked at. A hash made before passwords were pre-hashed is replaced by a current one.
    package func signIn(
        email: EmailAddress, password: String, failureLimits: [RateLimiter.Check] = [], requester: RequesterSummary = RequesterSummary(),
        logger: Logger
    ) async throws -> Session {
        try await limiter.refuseIfFull(failureLimits, email: email, requester: requester)
        let account = try await store.read { try $0.account(email: email) }
        guard let account, let passwordHash = account.passwordHash else {
            try await hasher.verifyDecoy(password)
            try await limiter.countFailure(failureLimits)
            throw enumerationProtection ? SignInError.invalidLoginCredentials : account == nil ? .emailNotFound : .invalidPassword
        }
        guard try await hasher.verify(password, against: passwordHash) else {
            try await limiter.countFailure(failureLimits)
            throw enumerationProtection ? SignInError.invalidLoginCredentials : .invalidPassword
        }
        let upgradedHash = PasswordHasher.isOutdated(passwordHash) ? try await hasher.hash(password) : nil
        let refresh = minter.makeRefreshToken(signingInWith: .password)
        let now = clock.now
        let verdict = try await store.write { transaction -> Verdict<Account> in
            // The hash was checked outside the write; if an email-link sign-in stripped or replaced it meanwhile,
            // the password no longer opens this account.
            guard var current = try transaction.account(id: account.id), current.passwordHash == passwordHash else {
                return .refused(enumerationProtection ? .invalidLoginCredentials : .invalidPassword)
            }
            guard !current.isDisabled else { return .refused(.userDisabled) }
            current.lastSignInAt = now
            if let upgradedHash { current.passwordHash = upgradedHash }
            try transaction.update(current)
            try transaction.openSession(refresh, accountID: current.id, authTime: now, now: now)
            return .accepted(current)
        }
        let signedIn = try verdict.get()
        logger.debug("Password sign-in", metadata: ["account": "\(signedIn.id)"])
        return try await minter.session(for: signedIn, authTime: now, refresh: refresh, now: now, isNewUser: false)
    }
}
