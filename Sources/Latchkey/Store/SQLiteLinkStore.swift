import Foundation
import GRDB
import Logging

/// The embedded store: one SQLite file in WAL mode, reached through a GRDB `DatabasePool`.
///
/// It migrates in its initializer, so an unmigrated store cannot exist, and refuses a database a newer
/// Latchkey has migrated, whose schema this build cannot know. Request writes go through a
/// `WriteBatcher`, which commits concurrent ones together.
package struct SQLiteLinkStore: LinkStore {
    private let writer: any DatabaseWriter
    private let batcher: WriteBatcher
    /// The migrations this opening applied (empty when the schema was current).
    package let applied: [String]
    /// The database file.
    package let path: String

    /// Opens (creating when missing) the database at `path` and brings its schema up to date.
    package init(path: String, synchronous: StorageConfiguration.Synchronous = .normal) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createPrivateDirectory(at: url.deletingLastPathComponent())
        try createPrivateFileIfMissing(at: url)
        var configuration = Configuration()
        // Another process (`latchkey outbox`, a backup) may hold the write lock for a moment; wait rather than fail.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let pool = try DatabasePool(path: url.path, configuration: configuration)
        // Set on the one writing connection, after GRDB has put it in WAL mode with its own `NORMAL`.
        try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = \(synchronous.rawValue.uppercased())") }
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

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await batcher.write { db in try body(SQLiteStoreTransaction(db: db)) }
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) throws -> T) async throws -> T {
        try await writer.read { db in try body(SQLiteStoreTransaction(db: db)) }
    }

    package func claimOutboxMessages(now: Date, leaseUntil: Date, limit: Int) async throws -> [OutboxMessage] {
        try await writer.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    UPDATE outbox SET lease_until = ?, attempts = attempts + 1
                    WHERE id IN (
                        SELECT id FROM outbox
                        WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
                        ORDER BY next_attempt_at LIMIT ?)
                    RETURNING id, recipient, format, sealed_message, created_at, attempts
                    """,
                arguments: [leaseUntil.timeIntervalSince1970, now.timeIntervalSince1970, now.timeIntervalSince1970, limit]
            )
            return rows.compactMap { row -> OutboxMessage? in
                guard let recipient = EmailAddress(row["recipient"]), let format = OutboxMessage.Format(rawValue: row["format"]),
                    let sealed: Data = row["sealed_message"]
                else { return nil }
                return OutboxMessage(
                    id: row["id"], recipient: recipient, format: format, sealedContent: sealed, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                    attempts: row["attempts"])
            }
        }
    }

    package func releaseOutboxMessages(ids: [Int64]) async throws {
        try await writer.write { db in
            for id in ids {
                try db.execute(sql: "UPDATE outbox SET lease_until = NULL, attempts = attempts - 1 WHERE id = ? AND status = 'pending'", arguments: [id])
            }
        }
    }

    package func markDelivered(outboxID: Int64, at now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET status = 'sent', sent_at = ?, sealed_message = NULL, lease_until = NULL, last_error = NULL
                    WHERE id = ?
                    """,
                arguments: [now.timeIntervalSince1970, outboxID])
        }
    }

    package func recordDeliveryFailure(outboxID: Int64, error: String, retryAt: Date?) async throws {
        try await writer.write { db in
            if let retryAt {
                try db.execute(
                    sql: "UPDATE outbox SET next_attempt_at = ?, lease_until = NULL, last_error = ? WHERE id = ?",
                    arguments: [retryAt.timeIntervalSince1970, error, outboxID])
            } else {
                try db.execute(
                    sql: "UPDATE outbox SET status = 'failed', lease_until = NULL, last_error = ? WHERE id = ?",
                    arguments: [error, outboxID])
            }
        }
    }

    package func outboxBacklog(now: Date) async throws -> OutboxBacklog {
        try await writer.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT COUNT(*) AS depth, MIN(created_at) AS oldest FROM outbox WHERE status = 'pending'")
            let oldest: Double? = row?["oldest"]
            return OutboxBacklog(count: row?["depth"] ?? 0, oldestAge: oldest.map { max(0, now.timeIntervalSince1970 - $0) } ?? 0)
        }
    }

    package func auditEvents(email: EmailAddress, limit: Int) async throws -> [AuditEvent] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT * FROM audit_events
                    WHERE email = ?1
                        OR account_id IN (SELECT id FROM accounts WHERE email = ?1)
                        OR account_id IN (SELECT account_id FROM audit_events WHERE email = ?1 AND account_id IS NOT NULL)
                    ORDER BY at DESC, id DESC LIMIT ?2
                    """,
                arguments: [email.value, limit]
            ).compactMap { row -> AuditEvent? in
                guard let kind = AuditEvent.Kind(rawValue: row["kind"]) else { return nil }
                return AuditEvent(
                    kind, at: Date(timeIntervalSince1970: row["at"]), accountID: row["account_id"],
                    email: (row["email"] as String?).flatMap(EmailAddress.init),
                    requester: RequesterSummary(ipAddress: row["ip_address"], userAgent: row["user_agent"]), detail: row["detail"])
            }
        }
    }

    package func undeliveredMessages(limit: Int) async throws -> [OutboxStatus] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, recipient, status, attempts, created_at, next_attempt_at, last_error FROM outbox
                    WHERE status != 'sent' ORDER BY created_at LIMIT ?
                    """,
                arguments: [limit]
            ).compactMap { row -> OutboxStatus? in
                guard let recipient = EmailAddress(row["recipient"]) else { return nil }
                return OutboxStatus(
                    id: row["id"], recipient: recipient, isFailed: (row["status"] as String?) == "failed", attempts: row["attempts"],
                    createdAt: Date(timeIntervalSince1970: row["created_at"]), nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]),
                    lastError: row["last_error"])
            }
        }
    }

    package func retryFailedMessages(now: Date) async throws -> Int {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox SET status = 'pending', attempts = 0, next_attempt_at = ?, lease_until = NULL WHERE status = 'failed'",
                arguments: [now.timeIntervalSince1970])
            return db.changesCount
        }
    }
}
