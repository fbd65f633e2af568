import Foundation

/// An authenticator app enrolled on an account as its second factor (Firebase's `mfaInfo` entry with `totpInfo`).
/// The shared secret is kept only sealed under the server secret.
package struct SecondFactor: Sendable, Equatable {
    /// The factor id both SDKs give TOTP, and what ID tokens carry as `sign_in_second_factor`.
    package static let kind = "totp"

    /// Firebase's `mfaEnrollmentId`: 28 letters and digits, what an ID token's `second_factor_identifier` names.
    package var id: String
    package var accountID: String
    package var displayName: String?
    package var enrolledAt: Date
    package var sealedSecret: Data
    /// The latest time step whose code was accepted: a code of that step or an earlier one is never accepted again
    /// (RFC 6238 §5.2), so a code seen over a shoulder or replayed from a log is spent.
    package var lastUsedStep: Int64

    package init(id: String, accountID: String, displayName: String?, enrolledAt: Date, sealedSecret: Data, lastUsedStep: Int64) {
        self.id = id
        self.accountID = accountID
        self.displayName = displayName
        self.enrolledAt = enrolledAt
        self.sealedSecret = sealedSecret
        self.lastUsedStep = lastUsedStep
    }
}

/// An enrollment started (`mfaEnrollment:start`) and waiting for the first code from the authenticator app: found by
/// the keyed hash of its `sessionInfo`, holding the secret sealed. A wrong code leaves it waiting; a right one ends it.
package struct PendingEnrollment: Sendable, Equatable {
    package var sessionHash: Data
    package var accountID: String
    package var sealedSecret: Data
    package var expiresAt: Date

    package init(sessionHash: Data, accountID: String, sealedSecret: Data, expiresAt: Date) {
        self.sessionHash = sessionHash
        self.accountID = accountID
        self.sealedSecret = sealedSecret
        self.expiresAt = expiresAt
    }
}

/// A first factor passed by an account with second factors (Firebase's `mfaPendingCredential`): found by the keyed
/// hash of the credential, it names the account and how it signed in, and counts the codes tried against it. Revoking
/// the account's sessions ends it too: it is a session waiting for its second factor.
package struct SecondFactorChallenge: Sendable, Equatable {
    /// Codes a challenge may be answered with; the right one ends it sooner.
    package static let maximumAttempts = 5

    package var credentialHash: Data
    package var accountID: String
    package var signInProvider: SignInProvider
    package var attempts: Int
    package var expiresAt: Date

    package init(credentialHash: Data, accountID: String, signInProvider: SignInProvider, attempts: Int = 0, expiresAt: Date) {
        self.credentialHash = credentialHash
        self.accountID = accountID
        self.signInProvider = signInProvider
        self.attempts = attempts
        self.expiresAt = expiresAt
    }

    /// Whether the challenge can still be answered at `now`.
    func isLive(at now: Date) -> Bool {
        attempts < Self.maximumAttempts && now < expiresAt
    }
}
