import Foundation

/// Counts attempts in the database, so restarts and several instances share the counts.
///
/// Each window is one counter row keyed by a keyed hash of the subject, then rule and window length: the windows of
/// one subject sort together, so counting them touches one page of the key index. A window opens with the subject's
/// first attempt and lasts its length (a rolling window, not the clock's minutes). Counting and reading a window are
/// one conditional statement, so concurrent writers never admit more than its limit. An attempt that one window
/// refuses is counted in none (its transaction rolls back), so it does not push the subject's other windows further.
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
    let store: any Store
    let clock: any WallClock

    package init(limits: RateLimits, secret: ServerSecret, store: any Store, clock: any WallClock) {
        self.limits = limits
        self.secret = secret
        self.store = store
        self.clock = clock
    }

    /// Counts one attempt in its own transaction, or throws `RateLimited` (auditing a window's first refusal).
    package func admit(_ checks: [Check], email: EmailAddress? = nil, requester: RequesterSummary = RequesterSummary()) async throws {
        guard !checks.isEmpty else { return }
        let now = clock.now
        let counters = counters(for: checks)
        try await refusing(at: now, email: email, requester: requester) {
            try await store.count(counters.map(\.key)) { transaction in try await Self.count(counters, in: transaction, at: now) }
        }
    }

    /// Counts the attempt in every window of `checks`, then runs `body` (`Store.write(counting:_:_:)`: on PostgreSQL the
    /// counts commit first, on their own, when another request counts the same rows). A full window throws `RateLimited`
    /// before `body` runs, and none of the counts is kept; the window's first refusal is audited (naming `email` when the
    /// caller knows it) in a transaction of its own.
    package func write<T: Sendable>(
        counting checks: [Check], email: EmailAddress? = nil, requester: RequesterSummary,
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        let now = clock.now
        let counters = counters(for: checks)
        guard !counters.isEmpty else { return try await store.write(body) }
        return try await refusing(at: now, email: email, requester: requester) {
            try await store.write(counting: counters.map(\.key), { transaction in try await Self.count(counters, in: transaction, at: now) }, body)
        }
    }

    /// Runs `work`, turning a full window met while counting into `RateLimited`, after auditing the window's first refusal.
    private func refusing<T: Sendable>(
        at now: Date, email: EmailAddress?, requester: RequesterSummary, _ work: () async throws -> T
    ) async throws -> T {
        do {
            return try await work()
        } catch let refusal as Refusal {
            if refusal.window.count == refusal.counter.limit { try await recordRefusal(refusal.counter, at: now, email: email, requester: requester) }
            throw refusal.rateLimited(at: now)
        }
    }

    /// Takes back, inside a later write, the attempt that `admit` or `write(counting:)` counted for `checks`: for limits on
    /// failures, which must be counted before the outcome is known (so concurrent attempts cannot outrun them), once the
    /// attempt turned out well.
    package func uncount(_ checks: [Check], in transaction: any StoreTransaction) async throws {
        let now = Int(clock.now.timeIntervalSince1970)
        for counter in counters(for: checks) { try await transaction.uncountRateAttempt(key: counter.key, at: now) }
    }

    /// The counters `checks` touch.
    private func counters(for checks: [Check]) -> [Counter] {
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

    /// Counts the attempt in every counter, or throws the `Refusal` of the first full one.
    private static func count(_ counters: [Counter], in transaction: any StoreTransaction, at now: Date) async throws {
        let seconds = Int(now.timeIntervalSince1970)
        for counter in counters {
            guard try await transaction.countRateAttempt(key: counter.key, at: seconds, windowSeconds: counter.seconds, limit: counter.limit) == nil
            else { continue }
            // Full: the window is read back only to say when it ends.
            let window = try await transaction.rateWindow(key: counter.key, at: seconds) ?? RateWindow(count: counter.limit, endsAt: seconds + 1)
            throw Refusal(counter: counter, window: window)
        }
    }

    /// Audits the first refusal of a window and counts it past the limit, so that the refusals after it, a flood's worth,
    /// write nothing; of concurrent first refusals only one wins.
    private func recordRefusal(_ counter: Counter, at now: Date, email: EmailAddress?, requester: RequesterSummary) async throws {
        try await store.write { transaction in
            let seconds = Int(now.timeIntervalSince1970)
            guard try await transaction.markRateWindowRefused(key: counter.key, at: seconds, limit: counter.limit) else { return }
            try await transaction.record(AuditEvent(.rateLimited, at: now, email: email, requester: requester, detail: counter.rule.rawValue))
        }
    }

    /// One window of one rule for one subject.
    struct Counter: Sendable {
        let rule: RateLimits.Rule
        let key: String
        let limit: Int
        let seconds: Int
    }

    /// A full window met while counting, thrown out of the transaction so that nothing it counted is kept.
    private struct Refusal: Error {
        let counter: Counter
        let window: RateWindow

        func rateLimited(at now: Date) -> RateLimited {
            RateLimited(rule: counter.rule, retryAfter: max(1, window.endsAt - Int(now.timeIntervalSince1970)))
        }
    }
}
