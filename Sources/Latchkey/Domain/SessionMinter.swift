import Foundation

/// Mints the tokens of a session: built once at start-up and shared by every service that signs someone in or refreshes.
package struct SessionMinter: Sendable {
    let tokens: TokenIssuer
    let secret: ServerSecret

    package init(tokens: TokenIssuer, secret: ServerSecret) {
        self.tokens = tokens
        self.secret = secret
    }

    /// A fresh refresh token opening a new session signed in with `provider` (`next(in:)` rotates within a session).
    func makeRefreshToken(signingInWith provider: SignInProvider) -> IssuedRefreshToken {
        IssuedRefreshToken(token: ServerSecret.makeToken(), secret: secret, sessionID: ServerSecret.makeToken(bytes: 16), provider: provider)
    }

    /// The refresh token that replaces a used one of `session`.
    func makeRefreshToken(rotating session: SessionRecord) -> IssuedRefreshToken {
        IssuedRefreshToken(token: ServerSecret.makeToken(), secret: secret, sessionID: session.id, provider: session.signInProvider)
    }

    /// The signed ID token and the refresh token for `account`; the ID token names its session (`sid`), so
    /// revoking the session ends the ID token too, even within the second `validSince` is rounded to.
    func session(for account: Account, authTime: Date, refresh: IssuedRefreshToken, now: Date, isNewUser: Bool) async throws -> Session {
        let idToken = try tokens.makeIDToken(
            for: account, authTime: authTime, now: now, sessionID: refresh.sessionID, signInProvider: refresh.provider)
        return Session(account: account, idToken: idToken, refreshToken: refresh.token, expiresIn: tokens.lifetime, isNewUser: isNewUser)
    }
}

/// A refresh token about to be handed out: the token for the client, and what is stored for it.
struct IssuedRefreshToken: Sendable {
    let token: String
    let hash: Data
    /// The session (rotation chain): one per sign-in, kept through every refresh.
    let sessionID: String
    let provider: SignInProvider

    init(token: String, secret: ServerSecret, sessionID: String, provider: SignInProvider) {
        self.token = token
        self.hash = secret.hash(token, for: .refreshToken)
        self.sessionID = sessionID
        self.provider = provider
    }

    /// The row to store.
    func record(now: Date) -> RefreshToken {
        RefreshToken(tokenHash: hash, sessionID: sessionID, createdAt: now)
    }
}

extension StoreTransaction {
    /// Opens the session `refresh` starts, for `accountID` signed in at `authTime`: the session's row and its first token.
    func openSession(_ refresh: IssuedRefreshToken, accountID: String, authTime: Date, now: Date) throws {
        try insert(SessionRecord(id: refresh.sessionID, accountID: accountID, signInProvider: refresh.provider, authTime: authTime, createdAt: now))
        try insert(refresh.record(now: now))
    }
}
