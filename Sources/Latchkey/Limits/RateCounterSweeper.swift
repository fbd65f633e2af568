import Logging
import ServiceLifecycle

/// Deletes rate-limit counters whose window has ended, once a minute, so the table stays the size of the
/// current windows however many addresses and IPs were counted.
package struct RateCounterSweeper: Service {
    let store: any LinkStore
    let clock: any WallClock
    let logger: Logger
    var interval: Duration = .seconds(60)

    package init(store: any LinkStore, clock: any WallClock, logger: Logger) {
        self.store = store
        self.clock = clock
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
        let now = Int(clock.now.timeIntervalSince1970)
        do {
            let removed = try await store.write { try $0.deleteExpiredRateCounters(before: now) }
            logger.trace("Expired rate counters removed", metadata: ["count": "\(removed)"])
        } catch {
            logger.warning("Expired rate counters could not be removed", metadata: ["error": "\(error)"])
        }
    }
}
