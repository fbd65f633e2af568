/// Who makes a request: where from, for the audit trail and the per-IP limits, and whether it carries an admin token.
package struct Caller: Sendable {
    package var requester: RequesterSummary
    /// Admins are trusted callers: their requests count against no rate limit.
    package var isAdmin: Bool

    package init(requester: RequesterSummary = RequesterSummary(), isAdmin: Bool = false) {
        self.requester = requester
        self.isAdmin = isAdmin
    }

    /// The client address per-IP limits count.
    package var ipAddress: String { requester.ipAddress ?? "" }

    /// The limits a request of this caller counts against: `checks`, or none for an admin.
    package func limits(_ checks: [RateLimiter.Check]) -> [RateLimiter.Check] {
        isAdmin ? [] : checks
    }
}
