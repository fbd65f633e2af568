import Foundation
import LatchkeyWire

/// How every flow texts a code, in one place: the number's region must be one `SMSRegionPolicy` allows, the app must
/// prove itself (`AppVerification`), and the send is counted against the number, the client's address, the number's
/// calling code and (unless `budgeted` is false) the day's budget, in the one transaction that also runs the flow's own
/// checks and keeps the code with its text. A refused send writes nothing but its counters.
package struct PhoneTexting: Sendable {
    let codes: PhoneCodes
    let appVerification: AppVerification
    let regions: SMSRegionPolicy
    let limiter: RateLimiter
    let clock: any WallClock

    package init(codes: PhoneCodes, appVerification: AppVerification, regions: SMSRegionPolicy, limiter: RateLimiter, clock: any WallClock) {
        self.codes = codes
        self.appVerification = appVerification
        self.regions = regions
        self.limiter = limiter
        self.clock = clock
    }

    /// Texts a code for `purpose` to `number` once `admit` (run first in the transaction that keeps the code, throwing its
    /// refusal) lets it; returns the code's `sessionInfo`. `proof` carries the app's proof; a second-factor challenge is
    /// not `budgeted`: the budget never locks an enrolled account out.
    func send(
        _ purpose: PhoneVerification.Purpose, to number: PhoneNumber, proof: SendVerificationCodeRequest, by caller: Caller, budgeted: Bool = true,
        language: LanguageTag, accountID: String? = nil, factorID: String? = nil,
        admitting admit: @escaping @Sendable (any StoreTransaction) async throws -> Void = { _ in }
    ) async throws -> String {
        try regions.admit(number)
        try await appVerification.check(proof, by: caller)
        let (now, codes) = (clock.now, codes)
        let checks = RateLimiter.Check.texts(to: number, by: caller, budgeted: budgeted)
        let sessionInfo = try await limiter.write(counting: checks, requester: caller.requester) { transaction in
            try await admit(transaction)
            return try await codes.issue(purpose, to: number, accountID: accountID, factorID: factorID, language: language, at: now, in: transaction)
        }
        codes.nudge()
        return sessionInfo
    }
}
