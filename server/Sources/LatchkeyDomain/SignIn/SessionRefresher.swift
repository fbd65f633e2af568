import Foundation
import Logging

/// Exchanges a refresh token for a new ID token and a new refresh token.
///
/// Tokens rotate on every use; presenting one that was already rotated means two parties hold it,
/// so the session is revoked (theft detection). The new ID token keeps the session's own sign-in provider.
package struct SessionRefresher: Sendable {
    let store: any Store
    let secret: ServerSecret
    let clock: any WallClock
    let minter: SessionMinter

    package init(store: any Store, secret: ServerSecret, clock: any WallClock, minter: SessionMinter) {
        self.store = store
        self.secret = secret
        self.clock = clock
        self.minter = minter
    }

    package func refresh(token: String, logger: Logger) async throws -> Session {
        let tokenHash = secret.hash(token, for: .refreshToken)
        let now = clock.now
        let minter = minter
        let verdict = try await store.write { transaction -> Verdict<(UserRecord, authTime: Date, refresh: IssuedRefreshToken)> in
            guard let stored = try await transaction.refreshToken(hash: tokenHash), let id = stored.id,
                let session = try await transaction.session(id: stored.sessionID)
            else { return .refused(.invalidRefreshToken) }
            guard let account = try await transaction.account(id: session.accountID) else { return .refused(.userNotFound) }
            guard !account.isDisabled else { return .refused(.userDisabled) }
            if session.revokedAt != nil { return .refused(session.isRevokedWithAccount ? .tokenExpired : .invalidRefreshToken) }
            guard try await transaction.markRotated(refreshTokenID: id, at: now) else {
                try await transaction.revokeSession(id: session.id, at: now)
                return .refused(.invalidRefreshToken)
            }
            let refresh = minter.makeRefreshToken(rotating: session)
            try await transaction.insert(refresh.record(now: now))
            return .accepted((try await transaction.userRecord(account), session.authTime, refresh))
        }
        let (user, authTime, refresh) = try verdict.get()
        logger.debug("Session refreshed", metadata: ["account": "\(user.account.id)"])
        return try minter.session(for: user, authTime: authTime, refresh: refresh, now: now, isNewUser: false)
    }
}
