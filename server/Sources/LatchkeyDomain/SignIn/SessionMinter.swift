import Foundation

/// Mints the tokens of a session: built once at start-up and shared by the sign-in finish and the refresher.
package struct SessionMinter: Sendable {
    let tokens: any TokenIssuer
    let secret: ServerSecret

    package init(tokens: any TokenIssuer, secret: ServerSecret) {
        self.tokens = tokens
        self.secret = secret
    }

    /// A fresh refresh token opening a new session signed in with `provider` (and the `secondFactor` it passed, and a
    /// custom token's `developerClaims`) at `now` (`makeRefreshToken(rotating:)` rotates within a session).
    func makeRefreshToken(
        signingInWith provider: SignInProvider, secondFactor: PassedSecondFactor? = nil, developerClaims: CustomClaims? = nil, at now: Date
    ) -> IssuedRefreshToken {
        IssuedRefreshToken(
            token: ServerSecret.makeToken(), secret: secret, sessionID: SessionRecord.makeID(at: now), provider: provider, secondFactor: secondFactor,
            developerClaims: developerClaims)
    }

    /// The refresh token that replaces a used one of `session`.
    func makeRefreshToken(rotating session: SessionRecord) -> IssuedRefreshToken {
        IssuedRefreshToken(
            token: ServerSecret.makeToken(), secret: secret, sessionID: session.id, provider: session.signInProvider,
            secondFactor: session.secondFactor, developerClaims: session.developerClaims)
    }

    /// The signed ID token and the refresh token for `user`; the ID token names its session (`sid`), so revoking the
    /// session ends the ID token too, even within the second `validSince` is rounded to.
    func session(for user: UserRecord, authTime: Date, refresh: IssuedRefreshToken, now: Date, isNewUser: Bool) throws -> Session {
        let idToken = try tokens.makeIDToken(
            for: user, authTime: authTime, now: now, sessionID: refresh.sessionID, signInProvider: refresh.provider,
            secondFactor: refresh.secondFactor, developerClaims: refresh.developerClaims)
        return Session(account: user.account, idToken: idToken, refreshToken: refresh.token, expiresIn: tokens.lifetime, isNewUser: isNewUser)
    }
}

/// A refresh token about to be handed out: the token for the client, and what is stored for it.
struct IssuedRefreshToken: Sendable {
    let token: String
    let hash: Data
    /// The session (rotation chain): one per sign-in, kept through every refresh.
    let sessionID: String
    let provider: SignInProvider
    /// The second factor the session passed.
    let secondFactor: PassedSecondFactor?
    let developerClaims: CustomClaims?

    init(token: String, secret: ServerSecret, sessionID: String, provider: SignInProvider, secondFactor: PassedSecondFactor?, developerClaims: CustomClaims?
    ) {
        self.token = token
        self.hash = secret.hash(token, for: .refreshToken)
        self.sessionID = sessionID
        self.provider = provider
        self.secondFactor = secondFactor
        self.developerClaims = developerClaims
    }

    /// The row to store.
    func record(now: Date) -> RefreshToken {
        RefreshToken(tokenHash: hash, sessionID: sessionID, createdAt: now)
    }

    /// The session it opens, signed in at `authTime`.
    func session(accountID: String, authTime: Date, now: Date) -> SessionRecord {
        SessionRecord(
            id: sessionID, accountID: accountID, signInProvider: provider, secondFactor: secondFactor, developerClaims: developerClaims,
            authTime: authTime, createdAt: now)
    }
}
