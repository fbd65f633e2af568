import Foundation

/// A code texted to a number, waiting for the app to send it back (Firebase's `sessionInfo`), or a number proven by
/// such a code and handed back as a `temporaryProof`. Kept by the keyed hash of its `sessionInfo` (or proof), with
/// the keyed hash of its code bound to it; the code itself is never stored.
package struct PhoneVerification: Sendable, Equatable {
    /// What the code was texted for: a code for one purpose never works for another.
    package enum Purpose: String, Sendable {
        /// `accounts:sendVerificationCode`, for `signInWithPhoneNumber` (a sign-in, or a link with an ID token).
        case signIn = "sign-in"
        /// `mfaEnrollment:start` with `phoneEnrollmentInfo`.
        case enrollment
        /// `mfaSignIn:start` with `phoneSignInInfo`.
        case challenge
        /// A number proven by a sign-in code that another account already had: `PHONE_NUMBER_EXISTS` hands it back as
        /// a `temporaryProof`, which signs in to that account (no code: the proof is the credential).
        case temporaryProof = "temporary-proof"
    }

    /// Codes a `sessionInfo` may be answered with; the right one ends it sooner.
    package static let maximumAttempts = 5

    package var sessionHash: Data
    package var purpose: Purpose
    package var phoneNumber: PhoneNumber
    /// The keyed hash of the code with its `sessionInfo` (`ServerSecret.hash(code:session:)`); none for a proof.
    package var codeHash: Data?
    /// The account an enrollment or a challenge belongs to.
    package var accountID: String?
    /// The factor a challenge's code was texted for.
    package var factorID: String?
    package var attempts: Int
    package var createdAt: Date
    package var expiresAt: Date

    package init(
        sessionHash: Data, purpose: Purpose, phoneNumber: PhoneNumber, codeHash: Data?, accountID: String? = nil, factorID: String? = nil,
        attempts: Int = 0, createdAt: Date, expiresAt: Date
    ) {
        self.sessionHash = sessionHash
        self.purpose = purpose
        self.phoneNumber = phoneNumber
        self.codeHash = codeHash
        self.accountID = accountID
        self.factorID = factorID
        self.attempts = attempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
