import Foundation

/// Codes texted and numbers proven by them (`PhoneVerification`).
package protocol PhoneVerificationStore {
    func insert(_ verification: PhoneVerification) async throws
    /// Counts one code tried against the verification of `sessionHash` for `purpose` and returns it (with the count
    /// after this try), if fewer than `PhoneVerification.maximumAttempts` were tried: one conditional statement, so
    /// concurrent tries can never take more attempts than there are. Its expiry is the caller's to judge.
    func claimPhoneVerificationAttempt(sessionHash: Data, purpose: PhoneVerification.Purpose) async throws -> PhoneVerification?
    /// Removes the verification; false when another request used it first.
    func deletePhoneVerification(sessionHash: Data) async throws -> Bool
}
