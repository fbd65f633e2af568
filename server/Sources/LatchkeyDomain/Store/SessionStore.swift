import Foundation

/// Sessions (one per refresh chain) and their refresh tokens.
package protocol SessionStore {
    func insert(_ session: SessionRecord) async throws
    func session(id: String) async throws -> SessionRecord?
    /// Revokes one session (a replayed refresh token).
    func revokeSession(id: String, at now: Date) async throws
    /// Revokes every session of the account (a takeover strip, a revocation, a password change).
    func revokeSessions(accountID: String, at now: Date) async throws
    /// Revokes the account's sessions that signed in with `providerID` (an unlinked provider), returning how many.
    func revokeSessions(accountID: String, signedInWith providerID: String, at now: Date) async throws -> Int

    func insert(_ token: RefreshToken) async throws
    func refreshToken(hash: Data) async throws -> RefreshToken?
    /// True only for the one caller that rotates a token that was not rotated yet.
    func markRotated(refreshTokenID: Int64, at now: Date) async throws -> Bool
}
