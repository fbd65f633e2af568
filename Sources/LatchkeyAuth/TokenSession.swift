import Foundation
import LatchkeyWire

/// A signed-in user's tokens, renewed shortly before the ID token expires, never twice at once: a refresh token is
/// spent when used, and the service treats a second use as theft and ends the session.
actor TokenSession {
    private(set) var tokens: TokenSet
    private var refreshing: Task<TokenSet, any Error>?
    /// How long before its expiry an ID token counts as stale, as Firebase's SDKs do.
    static let refreshMargin: TimeInterval = 5 * 60

    init(_ tokens: TokenSet) {
        self.tokens = tokens
    }

    /// A fresh ID token and whether it was renewed, renewing it when it is stale or `forcingRefresh`. Callers that ask
    /// while a renewal is under way share it.
    func idToken(forcingRefresh: Bool, backend: IdentityToolkit) async throws -> (tokens: TokenSet, renewed: Bool) {
        if let refreshing { return (try await refreshing.value, true) }
        guard forcingRefresh || tokens.expirationDate.timeIntervalSinceNow < Self.refreshMargin else { return (tokens, false) }
        let refreshToken = tokens.refreshToken
        let renewal = Task {
            let answer: GrantTokenResponse = try await backend.call("v1/token", GrantTokenRequest(refreshToken: refreshToken))
            return TokenSet(idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn)
        }
        refreshing = renewal
        defer { refreshing = nil }
        tokens = try await renewal.value
        return (tokens, true)
    }

    /// Takes the tokens a sign-in, a link or a password change answered with.
    func replace(with tokens: TokenSet) {
        refreshing?.cancel()
        refreshing = nil
        self.tokens = tokens
    }
}
