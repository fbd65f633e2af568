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
