import Foundation

/// Rate-limit windows, one counter row per key. Counting and reading the count are one statement, so concurrent
/// writers never admit more than a window's limit.
package protocol RateCounterStore {
    /// The window of `key` still open at `now` (Unix seconds), or nil when none is.
    func rateWindow(key: String, at now: Int) async throws -> RateWindow?
    /// Counts one attempt in the open window of `key` when it has fewer than `limit`, or opens a window of
    /// `windowSeconds` at `now`; returns the window as counted, or nil (counting nothing) when it is full.
    func countRateAttempt(key: String, at now: Int, windowSeconds: Int, limit: Int) async throws -> RateWindow?
    /// Counts the first refusal of a full window past its limit, so that only one refusal per window is audited:
    /// true for the one caller that finds the window's count at exactly `limit`.
    func markRateWindowRefused(key: String, at now: Int, limit: Int) async throws -> Bool
    /// Takes back one attempt counted in the open window of `key`, in the transaction that counted it.
    func uncountRateAttempt(key: String, at now: Int) async throws
}

/// The attempts counted in one open rate-limit window, and when it ends (Unix seconds).
package struct RateWindow: Sendable, Equatable {
    package var count: Int
    package var endsAt: Int

    package init(count: Int, endsAt: Int) {
        self.count = count
        self.endsAt = endsAt
    }
}
