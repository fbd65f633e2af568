import Foundation
import LatchkeyDomain
import Logging
import NIOPosix
import ServiceLifecycle

/// A store ready for requests, with the background services it needs while the server runs.
package struct OpenedStore: Sendable {
    package let store: any Store
    /// Work that keeps the store healthy (checkpointing, connections, retention); `buildApplication` runs it beside
    /// the server.
    package let services: [any Service]
    /// Retention, which `services` runs once a minute and `latchkey sweep` once.
    package let sweeper: ExpiredRowSweeper
    /// Where the data lives and how durable commits are, for the start-up line.
    package let summary: String
    /// The migrations this opening applied (empty when the schema was current).
    package let appliedMigrations: [String]
}

/// Opens the configured store, migrating it first. The one place that knows which stores there are.
///
/// Only `serve`, `latchkey init` (and a copy's target) may create a SQLite file: every other command passes
/// `creatingIfMissing: false`, so one run from another directory, where the relative `storage.sqlite.path` names a
/// file that is not there, is refused rather than answered from a new, empty database.
package func makeStore(
    _ configuration: AppConfiguration, creatingIfMissing: Bool = true, clock: any WallClock = SystemWallClock(), logger: Logger
) async throws -> OpenedStore {
    let storage = configuration.storage
    let policy = RetentionPolicy(auditRetentionDays: configuration.observability.auditRetentionDays)
    switch storage.kind {
    case .sqlite:
        if !creatingIfMissing, !FileManager.default.fileExists(atPath: storage.sqlitePath) {
            throw StartupError(
                "no SQLite store at \(URL(fileURLWithPath: storage.sqlitePath).path) (storage.sqlite.path \"\(storage.sqlitePath)\""
                    + "\(relativePathNote(storage.sqlitePath))): run the command where `serve` runs, or give the path absolute; "
                    + "only `serve` and `latchkey init` create a store")
        }
        // Opening migrates and syncs the file: a blocking wait that must not hold a cooperative thread.
        let store = try await NIOThreadPool.singleton.runIfActive { try SQLiteStore(path: storage.sqlitePath, synchronous: storage.synchronous) }
        let sweeper = ExpiredRowSweeper(store: store, clock: clock, policy: policy, logger: logger)
        return OpenedStore(
            store: store, services: [try store.checkpointer(logger: logger), sweeper], sweeper: sweeper,
            summary: "\(storage.sqlitePath) (\(try await store.durability()))", appliedMigrations: store.applied)
    case .postgres:
        guard let settings = storage.postgres else { throw StartupError("storage.postgres: missing for storage.kind \"postgres\"") }
        let tls = try await PostgresStore.probeTLS(settings)
        let store = try PostgresStore(settings: settings, probeTLS: tls, logger: logger)
        let connections = PostgresClientService(pool: store.pool)
        let applied: [String]
        let replication: String
        do {
            (applied, replication) = try await withDeadline(seconds: settings.connectTimeoutSeconds + 5) {
                try await PostgresStore.refuseUnusableHosts(settings, tls: tls, logger: logger)
                return (try await store.migrate(), try await store.replication())
            }
        } catch let error as StartupError {
            throw error
        } catch {
            throw StartupError("storage.postgres: cannot use \(settings.displayName): \(error)")
        }
        let sweeper = ExpiredRowSweeper(store: store, clock: clock, policy: policy, logger: logger)
        return OpenedStore(
            store: store, services: [connections, sweeper], sweeper: sweeper, summary: "\(settings.displayName) (pool \(settings.poolSize)\(replication))",
            appliedMigrations: applied)
    }
}
