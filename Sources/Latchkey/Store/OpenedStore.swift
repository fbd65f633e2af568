import Foundation
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
package func makeStore(_ configuration: AppConfiguration, clock: any WallClock = SystemWallClock(), logger: Logger) async throws -> OpenedStore {
    let storage = configuration.storage
    let policy = RetentionPolicy(auditRetentionDays: configuration.observability.auditRetentionDays)
    switch storage.kind {
    case .sqlite:
        // Opening migrates and syncs the file: a blocking wait that must not hold a cooperative thread.
        let store = try await NIOThreadPool.singleton.runIfActive { try SQLiteStore(path: storage.sqlitePath, synchronous: storage.synchronous) }
        let sweeper = ExpiredRowSweeper(store: store, clock: clock, policy: policy, logger: logger)
        return OpenedStore(
            store: store, services: [try store.checkpointer(logger: logger), sweeper], sweeper: sweeper,
            summary: "\(storage.sqlitePath) (\(try await store.durability()))", appliedMigrations: store.applied)
    case .postgres:
        guard let settings = storage.postgres else { throw StartupError("storage.postgres: missing for storage.kind \"postgres\"") }
        let store = try PostgresStore(settings: settings, logger: logger)
        let connections = PostgresClientService(pool: store.pool)
        let applied: [String]
        do {
            applied = try await withDeadline(seconds: settings.connectTimeoutSeconds + 5) { try await store.migrate() }
        } catch let error as StartupError {
            throw error
        } catch {
            throw StartupError("storage.postgres: cannot use \(settings.displayName): \(error)")
        }
        let sweeper = ExpiredRowSweeper(store: store, clock: clock, policy: policy, logger: logger)
        return OpenedStore(
            store: store, services: [connections, sweeper], sweeper: sweeper, summary: "\(settings.displayName) (pool \(settings.poolSize))",
            appliedMigrations: applied)
    }
}
