import Foundation

/// Counts attempts in the database, so restarts and several instances share the counts.
///
/// Each window is one counter row keyed by a keyed hash of the subject, then rule and window length: the windows of
/// one subject sort together, so counting them touches one page of the key index. A window opens with the subject's
/// first attempt and lasts its length (a rolling window, not the clock's minutes). An attempt is checked against
/// every window first and counted in all of them only when none refuses, so a refused attempt does not push the
/// subject's other windows further.
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

    /// Counts one attempt in its own transaction, or throws `RateLimited` (auditing a window's first refusal).
    package func admit(_ checks: [Check], email: EmailAddress? = nil, requester: RequesterSummary = RequesterSummary()) async throws {
        let now = clock.now
        let counters = counters(for: checks)
        guard !counters.isEmpty else { return }
        let refusal = try await store.write { transaction in
            try Self.count(counters, in: transaction, at: now, email: email, requester: requester)
        }
        if let refusal { throw refusal }
    }

    /// Throws `RateLimited` (auditing a window's first refusal) when any window of `checks` is full, counting nothing: for limits
    /// on failures, which are counted with `countFailure` once an attempt has failed.
    package func refuseIfFull(_ checks: [Check], email: EmailAddress? = nil, requester: RequesterSummary) async throws {
        let now = clock.now
        let counters = counters(for: checks)
        guard !counters.isEmpty else { return }
        let full = try await store.read { transaction in try Self.firstFull(counters, in: transaction, at: now) }
        guard let (counter, window) = full else { return }
        if window.count == counter.limit {
            try await store.write { transaction in try Self.recordRefusal(counter, in: transaction, at: now, email: email, requester: requester) }
        }
        throw RateLimited(rule: counter.rule, retryAfter: max(1, window.endsAt - Int(now.timeIntervalSince1970)))
    }

    /// Counts one failed attempt in every window of `checks`.
    package func countFailure(_ checks: [Check]) async throws {
        let now = Int(clock.now.timeIntervalSince1970)
        let counters = counters(for: checks)
        guard !counters.isEmpty else { return }
        try await store.write { transaction in
            for counter in counters { try transaction.countRateAttempt(key: counter.key, at: now, windowSeconds: counter.seconds) }
        }
    }

    /// The counters `checks` touch; to be counted inside a caller's own transaction with `count`.
    package func counters(for checks: [Check]) -> [Counter] {
        checks.flatMap { check in
            let subject = secret.hash(subject(of: check), for: .rateLimitSubject).base64URLEncoded()
            return (limits.windows[check.rule] ?? []).map { window in
                Counter(rule: check.rule, key: "\(subject):\(check.rule.rawValue):\(window.seconds)", limit: window.limit, seconds: window.seconds)
            }
        }
    }

    /// An IPv6 client is counted by its network, since one host commonly holds a whole /64.
    private func subject(of check: Check) -> String {
        guard check.rule.isPerIP, let address = IPAddress(check.subject), address.bytes.count == 16 else { return check.subject }
        return IPNetwork(address, prefixLength: limits.ipv6PrefixLength).description
    }

    /// Refuses when any counter is full, recording the window's first refusal in the audit trail (naming `email` when
    /// the caller knows it); otherwise counts the attempt in every one of them.
    package static func count(
        _ counters: [Counter], in transaction: any StoreTransaction, at now: Date, email: EmailAddress? = nil, requester: RequesterSummary
    ) throws -> RateLimited? {
        if let (counter, window) = try firstFull(counters, in: transaction, at: now) {
            if window.count == counter.limit { try recordRefusal(counter, in: transaction, at: now, email: email, requester: requester) }
            return RateLimited(rule: counter.rule, retryAfter: max(1, window.endsAt - Int(now.timeIntervalSince1970)))
        }
        let seconds = Int(now.timeIntervalSince1970)
        for counter in counters {
            try transaction.countRateAttempt(key: counter.key, at: seconds, windowSeconds: counter.seconds)
        }
        return nil
    }

    /// The first counter whose open window is full, with that window.
    private static func firstFull(_ counters: [Counter], in transaction: any StoreTransaction, at now: Date) throws -> (Counter, RateWindow)? {
        let seconds = Int(now.timeIntervalSince1970)
        for counter in counters {
            if let window = try transaction.rateWindow(key: counter.key, at: seconds), window.count >= counter.limit {
                return (counter, window)
            }
        }
        return nil
    }

    /// Audits the first refusal of a window and counts it past the limit, so the refusals after it, a flood's worth,
    /// write nothing.
    private static func recordRefusal(
        _ counter: Counter, in transaction: any StoreTransaction, at now: Date, email: EmailAddress?, requester: RequesterSummary
    ) throws {
        try transaction.record(AuditEvent(.rateLimited, at: now, email: email, requester: requester, detail: counter.rule.rawValue))
        try transaction.countRateAttempt(key: counter.key, at: Int(now.timeIntervalSince1970), windowSeconds: counter.seconds)
    }

    /// One window of one rule for one subject.
    package struct Counter: Sendable {
        let rule: RateLimits.Rule
        let key: String
        let limit: Int
        let seconds: Int
    }
}
