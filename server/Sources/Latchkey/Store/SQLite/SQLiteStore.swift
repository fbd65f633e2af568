import Foundation
import GRDB
import LatchkeyDomain
import Logging

/// The embedded store: one SQLite file in WAL mode, reached through a GRDB `DatabasePool`.
///
/// It migrates in its initializer, so an unmigrated store cannot exist, and refuses a database a newer
/// Latchkey has migrated, whose schema this build cannot know. Request writes go through a
/// `WriteBatcher`, which commits concurrent ones together.
package struct SQLiteStore: Store {
    private let writer: any DatabaseWriter
    private let batcher: WriteBatcher
    /// The migrations this opening applied (empty when the schema was current).
    package let applied: [String]
    /// The database file.
    package let path: String

    /// Opens (creating when missing) the database at `path` and brings its schema up to date. `statementObserver`, when
    /// given, sees the SQL of every statement run, its parameters unexpanded (a test compares the store bench's replay
    /// with the service's own statements this way).
    package init(
        path: String, synchronous: StorageConfiguration.Synchronous = .normal, statementObserver: (@Sendable (String) -> Void)? = nil
    ) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createPrivateDirectory(at: url.deletingLastPathComponent())
        try createPrivateFileIfMissing(at: url)
        var configuration = Configuration()
        // Another process (`latchkey outbox`, a backup) may hold the write lock for a moment; wait rather than fail.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            if let statementObserver {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { statementObserver(statement.sql) }
                }
            }
        }
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        // Set on the one writing connection, after GRDB has put it in WAL mode with its own `NORMAL`. A batch runs every
        // caller in its own savepoint, whose journal outgrows SQLite's in-memory default and would spill into a
        // temporary file, written and unlinked per batch: keep it in memory. Every request's random index pages pass
        // through this one connection, and SQLite's default 2 MB cache made it read them again and again: 32 MB.
        try pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue.uppercased())")
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            try db.execute(sql: "PRAGMA cache_size = -32768")
        }
        applied = try Self.migrate(pool, path: path)
        self.path = url.path
        writer = pool
        batcher = WriteBatcher(writer: pool)
    }

    private static func migrate(_ writer: any DatabaseWriter, path: String) throws -> [String] {
        let migrator = SQLiteMigrations.migrator
        let known = try writer.read { db in
            guard try !migrator.hasBeenSuperseded(db) else {
                throw StartupError("\(path) was migrated by a newer Latchkey; this build cannot use it (run the newer build, or restore a backup)")
            }
            return try migrator.appliedIdentifiers(db)
        }
        try migrator.migrate(writer)
        return migrator.migrations.filter { !known.contains($0) }
    }

    /// The service that checkpoints this store's write-ahead log while the server runs.
    package func checkpointer(logger: Logger) throws -> WALCheckpointer {
        try WALCheckpointer(path: path, logger: logger)
    }

    /// The journal mode and `synchronous` level commits really get, read back from SQLite (for the start-up line).
    package func durability() async throws -> String {
        try await writer.write { db in
            let journal = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?"
            let level = try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1
            let name = [0: "off", 1: "normal", 2: "full", 3: "extra"][level] ?? "\(level)"
            return "journal \(journal), synchronous \(name)"
        }
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await Self.unlessLocked { try await batcher.write { db in try await body(SQLiteStoreTransaction(db: db)) } }
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await Self.unlessLocked {
            try await writer.read { db in
                let connection = UncheckedConnection(db)
                return try ConnectionExecutor.run { try await body(SQLiteStoreTransaction(db: connection.db)) }.get()
            }
        }
    }

    /// Another process holding the file's lock past the busy timeout makes the store unavailable, not broken.
    private static func unlessLocked<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            throw StoreUnavailable("SQLite: \(error.message ?? "database is locked")")
        }
    }
}
