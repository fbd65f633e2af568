import Foundation

/// What a successful sign-in or refresh hands back: a signed ID token and the next refresh token.
package struct Session: Sendable {
    package var account: Account
    package var idToken: String
    package var refreshToken: String
    package var expiresIn: Int
    package var isNewUser: Bool
}

/// A transaction's verdict. Refusals are returned rather than thrown so that what they record
/// (a mismatch count, a consumed code, a revoked chain) commits before the error reaches the caller.
enum Verdict<Value: Sendable>: Sendable {
    case accepted(Value)
    case refused(SignInError)

    func get() throws(SignInError) -> Value {
        switch self {
        case .accepted(let value): value
        case .refused(let error): throw error
        }
    }
}

/// Mints the tokens of a new session, shared by link completion and refresh.
struct SessionMinter: Sendable {
    let tokens: TokenIssuer
    let secret: ServerSecret

    /// A fresh refresh token and the hash to store for it.
    func makeRefreshToken() -> (token: String, hash: Data) {
        let token = ServerSecret.makeToken()
        return (token, secret.hash(token, for: .refreshToken))
    }

    func session(for account: Account, authTime: Date, refreshToken: String, now: Date, isNewUser: Bool) async throws -> Session {
        let idToken = try await tokens.makeIDToken(for: account, authTime: authTime, now: now)
        return Session(account: account, idToken: idToken, refreshToken: refreshToken, expiresIn: tokens.lifetime, isNewUser: isNewUser)
    }
}
