import Foundation

/// Mints the tokens of a session: built once at start-up and shared by every service that signs someone in or refreshes.
package struct SessionMinter: Sendable {
    let tokens: TokenIssuer
    let secret: ServerSecret

    package init(tokens: TokenIssuer, secret: ServerSecret) {
        self.tokens = tokens
        self.secret = secret
    }

    /// A fresh refresh token in a new session (`inSession(_:)` moves it to an existing one when rotating).
    func makeRefreshToken() -> IssuedRefreshToken {
        let token = ServerSecret.makeToken()
        return IssuedRefreshToken(token: token, hash: secret.hash(token, for: .refreshToken), sessionID: ServerSecret.makeToken(bytes: 16))
    }

    /// The signed ID token and the refresh token for `account`; the ID token names its session (`sid`), so
    /// revoking the session ends the ID token too, even within the second `validSince` is rounded to.
    func session(for account: Account, authTime: Date, refresh: IssuedRefreshToken, now: Date, isNewUser: Bool) async throws -> Session {
        let idToken = try tokens.makeIDToken(for: account, authTime: authTime, now: now, sessionID: refresh.sessionID)
        return Session(account: account, idToken: idToken, refreshToken: refresh.token, expiresIn: tokens.lifetime, isNewUser: isNewUser)
    }
}

/// A refresh token about to be handed out: the token for the client, and what is stored for it.
struct IssuedRefreshToken: Sendable {
    let token: String
    let hash: Data
    /// The rotation chain: one per sign-in, kept through every refresh.
    let sessionID: String

    /// The same token as the next one of an existing session.
    func inSession(_ sessionID: String) -> IssuedRefreshToken {
        IssuedRefreshToken(token: token, hash: hash, sessionID: sessionID)
    }

    /// The row to store, for `accountID` signed in at `authTime`.
    func record(accountID: String, authTime: Date, now: Date) -> RefreshToken {
        RefreshToken(tokenHash: hash, accountID: accountID, chainID: sessionID, authTime: authTime, createdAt: now)
    }
}
