import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    /// An arbitrary key for the advisory lock under which instances starting together migrate one at a time.
    static let migrationLock: Int64 = 0x4C_61_74_63_68_6B_01
    /// The advisory lock a retention sweep's transaction holds.
    static let sweepLock: Int64 = 0x4C_61_74_63_68_6B_02
    /// The advisory lock a transaction setting up signing keys holds (`lockSigningKeys`).
    static let signingKeyLock: Int64 = 0x4C_61_74_63_68_6B_03

    /// Applies the migrations this database lacks, under an advisory lock, and returns their names. A database that
    /// holds a migration this build does not know was migrated by a newer Latchkey and is refused.
    func migrate() async throws -> [String] {
        try await withPrimaryConnection { connection in
            try await connection.checkedQuery("SELECT pg_advisory_lock(\(Self.migrationLock))", logger: logger)
            let applied: Result<[String], any Error>
            do { applied = .success(try await applyMigrations(on: connection)) } catch { applied = .failure(error) }
            // The lock is the session's, not a transaction's: a pooled connection that cannot say it let go is closed,
            // which lets go, rather than handed back still holding it.
            if (try? await connection.checkedQuery("SELECT pg_advisory_unlock(\(Self.migrationLock))", logger: logger)) == nil {
                try? await connection.close()
            }
            return try applied.get()
        }
    }

    private func applyMigrations(on connection: PostgresConnection) async throws -> [String] {
        try await connection.checkedQuery(
            "CREATE TABLE IF NOT EXISTS latchkey_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
            logger: logger)
        var known = Set<String>()
        for try await name in try await connection.checkedQuery("SELECT name FROM latchkey_migrations", logger: logger).decode(String.self) {
            known.insert(name)
        }
        let names = Set(PostgresMigrations.all.map(\.name))
        guard known.isSubset(of: names) else {
            throw StartupError("the PostgreSQL database was migrated by a newer Latchkey; this build cannot use it (run the newer build)")
        }
        var applied: [String] = []
        for migration in PostgresMigrations.all where !known.contains(migration.name) {
            // One statement per query (the extended protocol takes no more), all in one transaction.
            let statements = migration.sql.split(separator: ";\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
            do {
                try await connection.checkedQuery("BEGIN", logger: logger)
                for statement in statements { try await connection.checkedQuery(PostgresQuery(unsafeSQL: statement), logger: logger) }
                try await connection.checkedQuery("INSERT INTO latchkey_migrations (name) VALUES (\(migration.name))", logger: logger)
                try await connection.checkedQuery("COMMIT", logger: logger)
            } catch {
                _ = try? await connection.checkedQuery("ROLLBACK", logger: logger)
                throw error
            }
            applied.append(migration.name)
        }
        return applied
    }
}
