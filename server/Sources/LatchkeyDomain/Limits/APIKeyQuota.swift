import Foundation
import Synchronization

/// Requests per minute per API key, counted in this process's memory.
///
/// Unlike the abuse limits this runs before every request, so it must not cost a database write: each
/// instance counts on its own, and with N instances a key gets at most N times its quota.
package final class APIKeyQuota: Sendable {
    private struct Minute {
        var start = 0
        var counts: [String: Int] = [:]
    }

    let requestsPerMinute: Int
    private let clock: any WallClock
    private let minute = Mutex(Minute())

    package init(requestsPerMinute: Int, clock: any WallClock) {
        self.requestsPerMinute = requestsPerMinute
        self.clock = clock
    }

    /// Counts one request for `key`, or throws `RateLimited` once the key's minute is used up (0 means no quota).
    package func admit(_ key: String) throws(RateLimited) {
        guard requestsPerMinute > 0 else { return }
        let now = Int(clock.now.timeIntervalSince1970)
        let start = now / 60 * 60
        let admitted = minute.withLock { minute in
            if minute.start != start { minute = Minute(start: start) }
            let count = minute.counts[key, default: 0]
            guard count < requestsPerMinute else { return false }
            minute.counts[key] = count + 1
            return true
        }
        guard admitted else { throw RateLimited(rule: .apiKeyPerMinute, retryAfter: max(1, start + 60 - now)) }
    }
}
