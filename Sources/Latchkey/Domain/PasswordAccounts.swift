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

    package init(
        store: any LinkStore, hasher: PasswordHasher, clock: any WallClock, tokens: TokenIssuer, secret: ServerSecret, enumerationProtection: Bool
    ) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.minter = SessionMinter(tokens: tokens, secret: secret)
        self.enumerationProtection = enumerationProtection
    }

    /// Creates an unverified account with a password, or with neither an anonymous one, and signs it in.
    /// An anonymous account gets an address later by completing an email link with its ID token.
    package func signUp(email: EmailAddress?, password: String?, logger: Logger) async throws -> Session {
        var passwordHash: String?
        if let password { passwordHash = try await hasher.hash(password) }
        let newHash = passwordHash
        let refresh = minter.makeRefreshToken()
        let now = clock.now
        let verdict = try await store.write { transaction -> Verdict<Account> in
            if let email, try transaction.account(email: email) != nil { return .refused(.emailExists) }
            let account = Account(
                id: Account.makeID(), email: email, isEmailVerified: false, passwordHash: newHash, validSince: now.wholeSeconds, createdAt: now,
                lastSignInAt: now)
            try transaction.insert(account)
            try transaction.insert(
                RefreshToken(tokenHash: refresh.hash, accountID: account.id, chainID: ServerSecret.makeToken(bytes: 16), authTime: now, createdAt: now))
            return .accepted(account)
        }
        let account = try verdict.get()
        logger.debug("Account signed up", metadata: ["account": "\(account.id)", "anonymous": "\(email == nil)"])
        return try await minter.session(for: account, authTime: now, refreshToken: refresh.token, now: now, isNewUser: true)
    }

    /// Signs in with a password. With enumeration protection every failure looks the same.
    package func signIn(email: EmailAddress, password: String, logger: Logger) async throws -> Session {
        let account = try await store.read { try $0.account(email: email) }
        guard let account, let passwordHash = account.passwordHash else {
            try await hasher.verifyDecoy(password)
            throw enumerationProtection ? SignInError.invalidLoginCredentials : account == nil ? .emailNotFound : .invalidPassword
        }
        guard try await hasher.verify(password, against: passwordHash) else {
            throw enumerationProtection ? SignInError.invalidLoginCredentials : .invalidPassword
        }
        guard !account.isDisabled else { throw SignInError.userDisabled }
        let refresh = minter.makeRefreshToken()
        let now = clock.now
        try await store.write { transaction in
            guard var current = try transaction.account(id: account.id) else { return }
            current.lastSignInAt = now
            try transaction.update(current)
            try transaction.insert(
                RefreshToken(tokenHash: refresh.hash, accountID: account.id, chainID: ServerSecret.makeToken(bytes: 16), authTime: now, createdAt: now))
        }
        logger.debug("Password sign-in", metadata: ["account": "\(account.id)"])
        return try await minter.session(for: account, authTime: now, refreshToken: refresh.token, now: now, isNewUser: false)
    }
}
