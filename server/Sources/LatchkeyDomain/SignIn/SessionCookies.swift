import Foundation
import LatchkeyWire

/// Firebase's `createSessionCookie` (admin only): a backend trades a signed-in user's ID token for a longer-lived
/// session cookie, which its server-rendered pages verify on each request (the Admin SDKs' `verify_session_cookie`).
///
/// The ID token must still count, as for any other use of it (`Authentication`): a token revoked by `validSince` or by
/// its session, or of a disabled or deleted account, gets no cookie. The cookie is then as revocable as the account's
/// sessions: `verify_session_cookie(check_revoked=True)` refuses it once `validSince` passes its `iat` (a revocation, a
/// password change) or the account is disabled or gone, which `accounts:lookup` tells.
package struct SessionCookies: Sendable {
    let store: any Store
    let authentication: Authentication
    let tokens: any TokenIssuer
    let clock: any WallClock

    /// Five minutes to fourteen days, in seconds, inclusive: Firebase's bounds, as firebase-tools' emulator
    /// (`SESSION_COOKIE_MIN_VALID_DURATION`, `SESSION_COOKIE_MAX_VALID_DURATION`) and the Admin SDKs
    /// (`MIN_SESSION_COOKIE_DURATION_SECONDS` in firebase-admin-python's `_token_gen.py`,
    /// `MIN_SESSION_COOKIE_DURATION_SECS` in firebase-admin-node's `auth-api-request.ts`) hold them.
    package static let validDurations: ClosedRange<Int64> = 300...1_209_600

    package init(store: any Store, authentication: Authentication, tokens: any TokenIssuer, clock: any WallClock) {
        self.store = store
        self.authentication = authentication
        self.tokens = tokens
        self.clock = clock
    }

    /// The session cookie for the request's ID token. The checks come in the emulator's order (`createSessionCookie`
    /// in firebase-tools' `src/emulator/auth/operations.ts`): the token present (`MISSING_ID_TOKEN`), the duration
    /// (`INVALID_DURATION`), then the token itself. A duration absent or 0 (which proto3 cannot tell apart) is the
    /// longest, as there.
    package func create(_ request: CreateSessionCookieRequest) async throws -> String {
        guard let idToken = request.idToken, !idToken.isEmpty else { throw SignInError.missingIDToken }
        let duration = request.validDuration.flatMap { $0 == 0 ? nil : $0 } ?? Self.validDurations.upperBound
        guard Self.validDurations.contains(duration) else { throw SignInError.invalidDuration }
        let claims = try await authentication.claims(of: idToken)
        _ = try await store.read { transaction in try await Authentication.account(of: claims, in: transaction) }
        return try tokens.makeSessionCookie(from: claims, now: clock.now, validFor: Int(duration))
    }
}
