import Foundation

/// Who a request's ID token signs in, decided in one place and in two steps: the token's signature, expiry, issuer and
/// audience before any write (`claims(of:)`, no store needed), then, inside the transaction that acts on the account,
/// whether the token still counts (`account(of:in:locking:)`), so a change never rests on a check made before a
/// concurrent revocation.
package struct Authentication: Sendable {
    let tokens: any TokenIssuer

    package init(tokens: any TokenIssuer) {
        self.tokens = tokens
    }

    /// The verified claims of `idToken`.
    package func claims(of idToken: String) async throws(SignInError) -> IDTokenClaims {
        try await tokens.verifyIDToken(idToken)
    }

    /// The account behind `claims`, if the token still counts: neither revoked by `validSince` (whole seconds, as
    /// Firebase's Admin SDKs compare) nor by its own session (exact), and the account not disabled; else the refusal
    /// is thrown, and the transaction, asked first, keeps nothing (not even the attempt a rate limit counted in it: a
    /// token that no longer counts gets nothing done). With `locking` (in a write that then changes the account) the
    /// account's row is held (`lockedAccount`).
    static func account(of claims: IDTokenClaims, in transaction: any StoreTransaction, locking: Bool = false) async throws -> Account {
        let found = locking ? try await transaction.lockedAccount(id: claims.userID) : try await transaction.account(id: claims.userID)
        guard let account = found else { throw SignInError.userNotFound }
        guard claims.issuedAt >= account.validSince else { throw SignInError.tokenExpired }
        if let id = claims.sessionID {
            // A session gone from the store was revoked days ago (`RetentionPolicy`): no token of it is still valid.
            guard let session = try await transaction.session(id: id), session.revokedAt == nil else { throw SignInError.tokenExpired }
        }
        guard !account.isDisabled else { throw SignInError.userDisabled }
        return account
    }
}
