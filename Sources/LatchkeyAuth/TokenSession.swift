import Foundation
import LatchkeyWire

/// A signed-in user's tokens, renewed shortly before the ID token expires, never twice at once: a refresh token is
/// spent when used, and the service treats a second use as theft and ends the session.
///
/// Every change of the tokens bumps `generation`. A renewal that another change overtook (a sign-in again, a password
/// change) is dropped, never stored over newer tokens, and its failure ends nothing.
actor TokenSession {
    private(set) var tokens: TokenSet
    private var generation = 0
    private var renewal: (generation: Int, task: Task<TokenSet, any Error>)?
    /// How long before its expiry an ID token counts as stale, as Firebase's SDKs do.
    static let refreshMargin: TimeInterval = 5 * 60

    init(_ tokens: TokenSet) {
        self.tokens = tokens
    }

    /// A fresh ID token, renewed when it is stale or `forcingRefresh`; callers that ask during a renewal share it.
    /// `keep` stores each new set, in order; `ended` runs when the service refused the current session's renewal
    /// for good (the user must sign in again).
    func idToken(
        forcingRefresh: Bool, backend: IdentityToolkit, keep: @Sendable (TokenSet) -> Void, ended: @Sendable () -> Void
    ) async throws -> String {
        var mustRenew = forcingRefresh
        while true {
            let current: (generation: Int, task: Task<TokenSet, any Error>)
            if let renewal {
                current = renewal
            } else {
                guard mustRenew || tokens.expirationDate.timeIntervalSinceNow < Self.refreshMargin else { return tokens.idToken }
                let refreshToken = tokens.refreshToken
                current = (generation, Task { try await Self.renew(refreshToken, backend: backend) })
                renewal = current
            }
            do {
                let renewed = try await current.task.value
                guard current.generation == generation else {
                    mustRenew = false  // overtaken: the newer tokens are fresh
                    continue
                }
                // The first caller back stores the set; the others find it stored.
                if renewal?.task == current.task {
                    renewal = nil
                    generation += 1
                    tokens = renewed
                    keep(renewed)
                }
                return renewed.idToken
            } catch {
                guard current.generation == generation else {
                    mustRenew = false
                    continue
                }
                if renewal?.task == current.task {
                    renewal = nil
                    if (error as? AuthError)?.endsSession == true { ended() }
                }
                throw error
            }
        }
    }

    /// Takes the tokens a sign-in again, a link or a password change answered with, overtaking any renewal.
    func replace(with tokens: TokenSet, keep: @Sendable (TokenSet) -> Void) {
        renewal?.task.cancel()
        renewal = nil
        generation += 1
        self.tokens = tokens
        keep(tokens)
    }

    private static func renew(_ refreshToken: String, backend: IdentityToolkit) async throws -> TokenSet {
        let answer: GrantTokenResponse = try await backend.call("v1/token", GrantTokenRequest(refreshToken: refreshToken))
        return TokenSet(idToken: answer.idToken, refreshToken: answer.refreshToken, expiresIn: answer.expiresIn)
    }
}

extension AuthError {
    /// A refusal that means the session is over: the user must sign in again.
    var endsSession: Bool { [.invalidUserToken, .userTokenExpired, .userDisabled, .userNotFound].contains(code) }
}
