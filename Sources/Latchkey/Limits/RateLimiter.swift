import Foundation

/// Counts attempts in the database, so restarts and several instances share the counts.
///
/// Each window is one fixed-window counter row keyed by a keyed hash of the subject, then rule and window length:
/// the windows of one subject sort together, so counting them touches one page of the key index.
/// An attempt is checked against every window first and counted in all of them only when none refuses, so a
/// refused attempt does not push the subject's other windows further.
package struct RateLimiter: Sendable {
    /// One subject to count under one rule.
    package struct Check: Sendable {
        let rule: RateLimits.Rule
        let subject: String

        package init(_ rule: RateLimits.Rule, _ subject: String) {
            self.rule = rule
            self.subject = subject
        }
    }

    let limits: RateLimits
    let secret: ServerSecret
    let store: any LinkStore
    let clock: any WallClock

    package init(limits: RateLimits, secret: ServerSecret, store: any LinkStore, clock: any WallClock) {
        self.limits = limits
        self.secret = secret
        self.store = store
        self.clock = clock
    }

    /// Counts one attempt in its own transaction, or throws `RateLimited` (and audits the refusal).
    package func admit(_ checks: [Check], requester: RequesterSummary = RequesterSummary()) async throws {
        let now = clock.now
        let counters = counters(for: checks, at: now)
        guard !counters.isEmpty else { return }
        let refusal = try await store.write { transaction in
            try Self.count(counters, in: transaction, at: now, requester: requester)
        }
        if let refusal { throw refusal }
    }

    /// The counters `checks` touch at `now`; to be counted inside a caller's own transaction with `count`.
    package func counters(for checks: [Check], at now: Date) -> [Counter] {
        checks.flatMap { check in
            let subject = secret.hash(check.subject, for: .rateLimitSubject).base64URLEncoded()
            return (limits.windows[check.rule] ?? []).map { window in
                let start = Int(now.timeIntervalSince1970) / window.seconds * window.seconds
                return Counter(
                    rule: check.rule, key: "\(subject):\(check.rule.rawValue):\(window.seconds)", limit: window.limit, windowStart: start,
                    windowEnd: start + window.seconds)
            }
        }
    }

    /// Refuses when any counter is full, recording the refusal in the audit trail (naming `email` when the caller
    /// knows it); otherwise counts the attempt in every one of them.
    package static func count(
        _ counters: [Counter], in transaction: any StoreTransaction, at now: Date, email: EmailAddress? = nil, requester: RequesterSummary
    ) throws -> RateLimited? {
        for counter in counters where try transaction.rateCount(key: counter.key, windowStart: counter.windowStart) >= counter.limit {
            try transaction.record(AuditEvent(.rateLimited, at: now, email: email, requester: requester, detail: counter.rule.rawValue))
            return RateLimited(rule: counter.rule, retryAfter: max(1, counter.windowEnd - Int(now.timeIntervalSince1970)))
        }
        for counter in counters {
            try transaction.countRateAttempt(key: counter.key, windowStart: counter.windowStart, expiresAt: counter.windowEnd)
        }
        return nil
    }

    /// One fixed window of one rule for one subject.
    package struct Counter: Sendable {
        let rule: RateLimits.Rule
        let key: String
        let limit: Int
        let windowStart: Int
        let windowEnd: Int
    }
}
