import Foundation
import LatchkeyDomain
import Logging
import ServiceLifecycle

/// Once a minute, deletes the rows whose time is over (`RetentionPolicy`), in chunks of `chunkSize` rows, each chunk
/// its own short transaction, so a large backlog never holds the writer for long.
package struct ExpiredRowSweeper: Service {
    let store: any Store
    let clock: any WallClock
    let policy: RetentionPolicy
    let logger: Logger
    var interval: Duration = .seconds(60)
    var chunkSize = 1_000

    package init(store: any Store, clock: any WallClock, policy: RetentionPolicy, logger: Logger, chunkSize: Int = 1_000) {
        self.store = store
        self.clock = clock
        self.policy = policy
        self.logger = logger
        self.chunkSize = chunkSize
    }

    package func run() async {
        // Shutdown cancels the sleep, so stopping never waits out the interval.
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                await sweep()
            }
        }
    }

    /// What one sweep did: how many rows of each kind went, and the kinds it could not remove (left to the next sweep).
    package struct Outcome: Sendable {
        package var removed: [ExpiringRows: Int] = [:]
        package var failures: [ExpiringRows: String] = [:]
    }

    /// Deletes everything over at this moment.
    @discardableResult
    package func sweep() async -> Outcome {
        var outcome = Outcome()
        for (rows, cutoff) in policy.cutoffs(at: clock.now) {
            do {
                var deleted = 0
                repeat {
                    let limit = chunkSize
                    deleted = try await store.write { transaction in
                        guard try await transaction.takeSweepTurn() else { return 0 }
                        return try await transaction.deleteExpired(rows, before: cutoff, limit: limit)
                    }
                    outcome.removed[rows, default: 0] += deleted
                } while deleted == chunkSize && !Task.isCancelled
            } catch {
                logger.warning("Expired rows could not be removed", metadata: ["rows": "\(rows.rawValue)", "error": "\(error)"])
                outcome.failures[rows] = "\(error)"
            }
        }
        logger.trace("Expired rows removed", metadata: .init(uniqueKeysWithValues: outcome.removed.map { ($0.key.rawValue, "\($0.value)") }))
        return outcome
    }
}
