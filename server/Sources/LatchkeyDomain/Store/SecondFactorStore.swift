import Foundation

/// Second factors, enrollments waiting for their first code, and sign-ins waiting for a second factor.
package protocol SecondFactorStore {
    /// The account's factors, oldest first.
    func secondFactors(accountID: String) async throws -> [SecondFactor]
    func insert(_ factor: SecondFactor) async throws
    /// Removes one factor of the account; false when it has none with that id.
    func deleteSecondFactor(id: String, accountID: String) async throws -> Bool
    /// Removes every factor of the account; returns how many there were.
    func deleteSecondFactors(accountID: String) async throws -> Int
    /// Records `step` as the factor's last accepted one if it is later than the last; false otherwise (a replay), in one
    /// conditional statement so that two requests with one code cannot both pass.
    func useSecondFactorStep(_ step: Int64, factorID: String, accountID: String) async throws -> Bool

    func insert(_ enrollment: PendingEnrollment) async throws
    func pendingEnrollment(sessionHash: Data) async throws -> PendingEnrollment?
    /// Removes the enrollment; false when another request finished it first.
    func deletePendingEnrollment(sessionHash: Data) async throws -> Bool

    func insert(_ challenge: SecondFactorChallenge) async throws
    func secondFactorChallenge(credentialHash: Data) async throws -> SecondFactorChallenge?
    /// Counts one code tried against the challenge and returns it, if it was still live at `now` (fewer than
    /// `SecondFactorChallenge.maximumAttempts` tried, unexpired): one conditional statement, so concurrent tries can never
    /// take more attempts than there are.
    func claimSecondFactorAttempt(credentialHash: Data, at now: Date) async throws -> SecondFactorChallenge?
    /// Removes the challenge; false when another request used it first.
    func deleteSecondFactorChallenge(credentialHash: Data) async throws -> Bool
}
