import Foundation
import LatchkeyWire
import Logging

/// `accounts:signInWithCustomToken`: the app's backend vouches for a uid by signing a custom token with a service
/// account's key; the sign-in creates the account for an unknown uid or signs in the existing one, as Firebase's
/// (firebase-tools `src/emulator/auth/operations.ts`, `signInWithCustomToken`). The token's `claims` go into every ID
/// token of the session, through refreshes. Unlike Firebase, an account with second factors stops at them.
///
/// A token may be used again until it expires (within the hour), as with Firebase: it is a bearer credential the backend
/// hands its own signed-in user, not a one-time code.
package struct CustomTokenSignIn: Sendable {
    let store: any Store
    let verifier: any CustomTokenVerifier
    let finisher: SignInFinisher
    let limiter: RateLimiter
    let clock: any WallClock

    package init(store: any Store, verifier: any CustomTokenVerifier, finisher: SignInFinisher, limiter: RateLimiter, clock: any WallClock) {
        self.store = store
        self.verifier = verifier
        self.finisher = finisher
        self.limiter = limiter
        self.clock = clock
    }

    package func signIn(_ request: SignInWithCustomTokenRequest, by caller: Caller, logger: Logger) async throws -> SignInResult {
        guard let token = request.token, !token.isEmpty else { throw SignInError.missingCustomToken }
        try Tenancy.requireNoTenant(request.tenantId)
        try await limiter.admit(caller.limits([.init(.completePerIP, caller.ipAddress)]), requester: caller.requester)
        let assertion = try await verifier.verify(token)
        try Tenancy.requireNoTenant(assertion.tenantID)
        let (id, claims) = try Self.check(assertion)
        let now = clock.now
        let finished = try await finish(accountID: id, claims: claims, caller: caller, at: now)
        logger.debug("Custom token sign-in", metadata: ["account": "\(finished.user.account.id)", "new": "\(finished.isNewUser)"])
        return try finisher.result(for: finished)
    }

    /// The uid and the claims of `assertion`, by the rules of an admin's uid and of custom claims.
    static func check(_ assertion: CustomTokenAssertion) throws(SignInError) -> (id: String, claims: CustomClaims?) {
        guard let uid = assertion.uid else { throw .missingIdentifier }
        guard let id = try? Account.chosenID(uid) else {
            throw .invalidCustomToken("The uid must be 1 to 128 characters without control characters.")
        }
        return (id, try assertion.claims.flatMap { json throws(SignInError) in try CustomClaims.parse(json) })
    }

    /// Signs `accountID` in, creating it when it is new. Two first sign-ins of one new uid racing on PostgreSQL both try
    /// to create it; the loser's unique constraint refusal is answered by signing in to the winner's account.
    private func finish(accountID: String, claims: CustomClaims?, caller: Caller, at now: Date) async throws -> SignInFinisher.Finished {
        do {
            return try await finishOnce(accountID: accountID, claims: claims, caller: caller, at: now)
        } catch AccountConflict.idTaken {
            return try await finishOnce(accountID: accountID, claims: claims, caller: caller, at: now)
        }
    }

    private func finishOnce(accountID: String, claims: CustomClaims?, caller: Caller, at now: Date) async throws -> SignInFinisher.Finished {
        let finisher = finisher
        let verdict = try await store.write { transaction -> Verdict<SignInFinisher.Finished> in
            let stored = try await transaction.lockedAccount(id: accountID)
            var attempt = SignInFinisher.Attempt(
                account: stored ?? .new(id: accountID, email: nil, at: now), stored: stored, provider: .custom, requester: caller.requester,
                auditDetail: stored == nil ? "custom token, new account" : "custom token")
            attempt.developerClaims = claims
            return try await finisher.finish(attempt, at: now, in: transaction)
        }
        return try verdict.get()
    }
}
