import Foundation

/// Signs and verifies ID tokens, and signs the session cookies made from them: a port of the domain, filled by
/// `JWTTokenIssuer` (Tokens/) with the store's signing keys.
package protocol TokenIssuer: Sendable {
    /// Seconds an ID token is valid: a session's `expiresIn`.
    var lifetime: Int { get }

    /// An ID token for `user`, valid for `lifetime` from `now`, signed by the key active at `now`. With `secondFactor`
    /// the token says the session passed that factor; `developerClaims` (a custom token's) go at
    /// its top level beside, and over, the account's custom claims.
    func makeIDToken(
        for user: UserRecord, authTime: Date, now: Date, sessionID: String, signInProvider: SignInProvider, secondFactor: PassedSecondFactor?,
        developerClaims: CustomClaims?
    ) throws -> String

    /// The claims of an ID token this server issued: signature, expiry, issuer and audience checked (`.tokenExpired`,
    /// `.invalidIDToken`).
    func verifyIDToken(_ token: String) async throws(SignInError) -> IDTokenClaims

    /// A session cookie (Firebase's `createSessionCookie`) carrying the claims of a verified ID token, valid for
    /// `duration` seconds from `now` and signed by the key active at `now`, like an ID token, but with Firebase's
    /// session-cookie issuer, so that no verifier of ID tokens (this server's included) takes one for the other.
    func makeSessionCookie(from claims: IDTokenClaims, now: Date, validFor duration: Int) throws -> String
}
