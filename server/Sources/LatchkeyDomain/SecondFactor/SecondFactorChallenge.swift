import Foundation

/// A first factor passed by an account with second factors (Firebase's `mfaPendingCredential`): found by the keyed
/// hash of the credential, it names the account and how it signed in, keeps what the sign-in will change in the account
/// once its code is right, and counts the codes tried against it. Revoking the account's sessions ends it too: it is a
/// session waiting for its second factor.
package struct SecondFactorChallenge: Sendable, Equatable {
    /// Codes a challenge may be answered with; the right one ends it sooner.
    package static let maximumAttempts = 5

    package var credentialHash: Data
    package var accountID: String
    package var signInProvider: SignInProvider
    /// What the sign-in changes when the code is right; nil when the stored form cannot be read (the challenge then
    /// cannot be passed: nothing is applied half-known).
    package var pending: PendingSignIn?
    package var attempts: Int
    package var expiresAt: Date

    package init(
        credentialHash: Data, accountID: String, signInProvider: SignInProvider, pending: PendingSignIn? = PendingSignIn(), attempts: Int = 0,
        expiresAt: Date
    ) {
        self.credentialHash = credentialHash
        self.accountID = accountID
        self.signInProvider = signInProvider
        self.pending = pending
        self.attempts = attempts
        self.expiresAt = expiresAt
    }

    /// Whether the challenge can still be answered at `now`.
    func isLive(at now: Date) -> Bool {
        attempts < Self.maximumAttempts && now < expiresAt
    }
}
