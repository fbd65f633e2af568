import Foundation

/// Codes texted and numbers proven by them (`PhoneVerification`).
package protocol PhoneVerificationStore {
    func insert(_ verification: PhoneVerification) async throws
    /// Counts one code tried against the verification of `sessionHash` for `purpose` and returns it (with the count
    /// after this try), if it was still live at `now` (fewer than `PhoneVerification.maximumAttempts` tried, unexpired):
    /// one conditional statement, so concurrent tries can never take more attempts than there are.
    func claimPhoneVerificationAttempt(sessionHash: Data, purpose: PhoneVerification.Purpose, at now: Date) async throws -> PhoneVerification?
    /// Removes the verification; false when another request used it first.
    func deletePhoneVerification(sessionHash: Data) async throws -> Bool
}
