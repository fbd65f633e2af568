import Foundation
import Latchkey
import Logging
import Testing

/// PostgreSQL's outbox, migrated: `format` is the domain's to restrict (v11 dropped its CHECK), its status still checked.
@Suite(.outsideProcesses) struct PostgresOutboxMigrationTests {
    @Test func theOutboxTakesAFormatNoMigrationNamed() async throws {
        try await withWorkspace { workspace in
            let overrides = try await PostgresTestServer.freshDatabase()
            let opened = try await makeStore(try await workspace.configuration(overrides), logger: Logger(label: "test"))
            defer { withExtendedLifetime(opened) {} }
            let database = try #require((overrides["storage.postgres"] as? [String: Any])?["database"] as? String)
            func run(_ sql: String) async throws -> Int32 { try await PostgresTestServer.psql(sql, in: database).exitStatus() }
            #expect(try await run("INSERT INTO outbox (recipient, created_at, next_attempt_at, format) VALUES ('carol@example.com', 1, 1, 'a-new-kind')") == 0)
            #expect(try await run("INSERT INTO outbox (recipient, created_at, next_attempt_at, status) VALUES ('dan@example.com', 1, 1, 'lost')") != 0)
        }
    }
}
