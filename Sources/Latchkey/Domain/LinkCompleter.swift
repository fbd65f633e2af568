import Foundation
import Logging

/// Completes a sign-in link: consumes the code and signs the user in, in one write transaction.
package struct LinkCompleter: Sendable {
    let store: any LinkStore
    let secret: ServerSecret
    let clock: any WallClock
    let minter: SessionMinter

    package init(store: any LinkStore, secret: ServerSecret, clock: any WallClock, tokens: TokenIssuer) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.minter = SessionMinter(tokens: tokens, secret: secret)
    }

    /// Signs in the owner of `email` with the code from their link.
    ///
    /// A wrong email leaves the code usable (up to `PendingRequest.maximumMismatches` times); a disabled
    /// account consumes it. Taking over an account whose email was never verified strips its password and
    /// ends its other sessions, so whoever registered the address first loses access.
    ///
    /// With `signedIn` (the request carried a valid ID token) the proven address is linked to that account instead:
    /// its own address re-authenticates it (a fresh `auth_time`), another free address becomes its verified email,
    /// and an address another account owns is `EMAIL_EXISTS` with the code left unused.
    package func complete(email: EmailAddress, code: String, signedIn: Account? = nil, logger: Logger) async throws -> Session {
        let codeHash = secret.hash(code, for: .linkCode)
        let refresh = minter.makeRefreshToken()
        let now = clock.now
        let verdict = try await store.write { transaction -> Verdict<(Account, isNew: Bool)> in
            guard let pending = try transaction.pendingRequest(codeHash: codeHash), let id = pending.id, !pending.isSpent else {
                return .refused(.invalidOOBCode)
            }
            guard !pending.isExpired(at: now) else { return .refused(.expiredOOBCode) }
            guard pending.email == email else {
                try transaction.recordMismatch(pendingRequestID: id)
                return .refused(.emailMismatch)
            }
            let existing = try transaction.account(email: email)
            if let signedIn, let existing, existing.id != signedIn.id { return .refused(.emailExists) }
            guard try transaction.consumePendingRequest(id: id, at: now) else { return .refused(.invalidOOBCode) }

            if let signedIn {
                guard var account = try transaction.account(id: signedIn.id) else { return .refused(.userNotFound) }
                guard !account.isDisabled else { return .refused(.userDisabled) }
                account.email = email
                account.isEmailVerified = true
                account.lastSignInAt = now
                try transaction.update(account)
                try transaction.insert(
                    RefreshToken(tokenHash: refresh.hash, accountID: account.id, chainID: ServerSecret.makeToken(bytes: 16), authTime: now, createdAt: now))
                return .accepted((account, false))
            }
            var account = existing ?? Account(id: Account.makeID(), email: email, isEmailVerified: true, validSince: now.wholeSeconds, createdAt: now)
            guard !account.isDisabled else { return .refused(.userDisabled) }
            if !account.isEmailVerified {
                if account.passwordHash != nil {
                    account.passwordHash = nil
                    account.validSince = now.wholeSeconds
                    try transaction.revokeRefreshTokens(accountID: account.id, at: now)
                }
                account.isEmailVerified = true
            }
            account.lastSignInAt = now
            if existing == nil { try transaction.insert(account) } else { try transaction.update(account) }
            try transaction.insert(
                RefreshToken(tokenHash: refresh.hash, accountID: account.id, chainID: ServerSecret.makeToken(bytes: 16), authTime: now, createdAt: now))
            return .accepted((account, existing == nil))
        }
        let (account, isNew) = try verdict.get()
        logger.debug("Sign-in link completed", metadata: ["account": "\(account.id)", "new": "\(isNew)"])
        return try await minter.session(for: account, authTime: now, refreshToken: refresh.token, now: now, isNewUser: isNew)
    }
}
