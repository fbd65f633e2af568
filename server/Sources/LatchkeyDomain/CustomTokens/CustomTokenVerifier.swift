/// What a custom token asserts once `CustomTokenVerifier` has checked who signed it, for whom and when: the raw values,
/// which `CustomTokenSignIn` checks by the domain's own rules (a uid as an admin's, claims as custom claims).
package struct CustomTokenAssertion: Sendable, Equatable {
    /// `uid`, as the Admin SDKs write it; nil when absent or not a string (`user_id`, which firebase-tools' emulator also
    /// reads, is not read here).
    package var uid: String?
    /// The `claims` member written back as JSON text, whatever its type; nil when the token has none.
    package var claims: String?
    /// `tenant_id`: Identity Platform's tenant, which Latchkey has none of.
    package var tenantID: String?

    package init(uid: String?, claims: String? = nil, tenantID: String? = nil) {
        self.uid = uid
        self.claims = claims
        self.tenantID = tenantID
    }
}

/// Checks a custom token: a port of the domain, filled by `ServiceAccountTokens` (Tokens/) with the configured service
/// accounts' keys.
package protocol CustomTokenVerifier: Sendable {
    /// The token's assertion if it is what the Admin SDKs mint (RS256, signed by a configured service account's key, `iss`
    /// and `sub` its address, `aud` Identity Toolkit's, at most an hour between `iat` and `exp`, not expired); else
    /// `.invalidCustomToken` with the reason, or `.credentialMismatch` for a service account of another project.
    func verify(_ token: String) async throws(SignInError) -> CustomTokenAssertion
}
