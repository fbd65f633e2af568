import Foundation
import Logging

/// Exchanges a refresh token for a new ID token and a new refresh token.
///
/// Tokens rotate on every use; presenting one that was already rotated means two parties hold it,
/// so the whole chain is revoked (theft detection).
package struct SessionRefresher: Sendable {
    let store: any LinkStore
    let secret: ServerSecret
    let clock: any WallClock
    let minter: SessionMinter

    package init(store: any LinkStore, secret: ServerSecret, clock: any WallClock, minter: SessionMinter) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.minter = minter
    }

    package func refresh(token: String, logger: Logger) async throws -> Session {
        let tokenHash = secret.hash(token, for: .refreshToken)
        let next = minter.makeRefreshToken()
        let now = clock.now
        let verdict = try await store.write { transaction -> Verdict<(Account, authTime: Date, refresh: IssuedRefreshToken)> in
            guard let stored = try transaction.refreshToken(hash: tokenHash), let id = stored.id else { return .refused(.invalidRefreshToken) }
            guard let account = try transaction.account(id: stored.accountID) else { return .refused(.userNotFound) }
            guard !account.isDisabled else { return .refused(.userDisabled) }
            if stored.revokedAt != nil { return .refused(stored.isRevokedWithAccount ? .tokenExpired : .invalidRefreshToken) }
            guard try transaction.markRotated(refreshTokenID: id, at: now) else {
                try transaction.revokeRefreshTokens(chainID: stored.chainID, at: now)
                return .refused(.invalidRefreshToken)
            }
            let refresh = next.inSession(stored.chainID)
            try transaction.insert(refresh.record(accountID: account.id, authTime: stored.authTime, now: now))
            return .accepted((account, stored.authTime, refresh))
        }
        let (account, authTime, refresh) = try verdict.get()
        logger.debug("Session refreshed", metadata: ["account": "\(account.id)"])
        return try await minter.session(for: account, authTime: authTime, refresh: refresh, now: now, isNewUser: false)
    }
}
