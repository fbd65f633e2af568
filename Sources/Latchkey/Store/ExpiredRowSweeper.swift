import Foundation
import Logging
import ServiceLifecycle

/// Once a minute, deletes rows whose time is over: rate-limit counters of ended windows and audit events past
/// their retention, so both tables stay the size of what still matters.
package struct ExpiredRowSweeper: Service {
    let store: any LinkStore
    let clock: any WallClock
    let auditRetention: TimeInterval
    let logger: Logger
    var interval: Duration = .seconds(60)

    package init(store: any LinkStore, clock: any WallClock, auditRetention: TimeInterval, logger: Logger) {
        self.store = store
        self.clock = clock
        self.auditRetention = auditRetention
        self.logger = logger
    }

    package func run() async {
        // Shutdown cancels the sleep, so stopping never waits out the interval.
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                await sweep()
            }
        }
    }

    package func sweep() async {
        let now = clock.now
        let auditCutoff = now.addingTimeInterval(-auditRetention)
        do {
            let (counters, events) = try await store.write { transaction in
                (try transaction.deleteExpiredRateCounters(before: Int(now.timeIntervalSince1970)), try transaction.deleteAuditEvents(before: auditCutoff))
            }
            logger.trace("Expired rows removed", metadata: ["rate_counters": "\(counters)", "audit_events": "\(events)"])
        } catch {
            logger.warning("Expired rows could not be removed", metadata: ["error": "\(error)"])
        }
    }
}
