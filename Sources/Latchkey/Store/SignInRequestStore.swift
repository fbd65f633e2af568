import Foundation

/// Pending sign-in requests, found by the keyed hash of their code.
package protocol SignInRequestStore {
    func insert(_ request: PendingRequest) async throws
    /// Drops the oldest unused requests for `email` beyond the newest `count`.
    func dropOutstandingRequests(for email: EmailAddress, keepingNewest count: Int) async throws
    func pendingRequest(codeHash: Data) async throws -> PendingRequest?
    /// The single conditional UPDATE that makes a code single-use: true only for the one caller that finds it unused,
    /// unexpired and not killed by mismatches.
    func consumePendingRequest(id: Int64, at now: Date) async throws -> Bool
    func recordMismatch(pendingRequestID: Int64) async throws
}
