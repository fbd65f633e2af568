import Foundation
import Latchkey
import Logging
import Testing

/// `storage.kind` and `storage.postgres`: read, checked by name, and a database that cannot be reached stops start-up.
@Suite(.outsideProcesses) struct PostgresSettingsTests {
    @Test func aURLAndAPasswordFromTheEnvironmentMakeTheSettings() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(
                [
                    "storage.kind": "postgres",
                    "storage.postgres": ["url": "postgres://lk@db.internal:6543/auth", "passwordEnv": "LK_DB_PASSWORD", "tls": "require", "poolSize": 20],
                ], environment: ["LK_DB_PASSWORD": "s3cret"])
            #expect(configuration.storage.kind == .postgres)
            #expect(
                configuration.storage.postgres
                    == PostgresSettings(
                        host: "db.internal", port: 6543, database: "auth", user: "lk", password: "s3cret", passwordEnv: "LK_DB_PASSWORD",
                        tls: .require, poolSize: 20))
            #expect(configuration.storage.postgres?.displayName == "postgres://lk@db.internal:6543/auth")
        }
    }

    @Test func problemsAreNamedByKey() async throws {
        try await withWorkspace { workspace in
            let problems = try await workspace.problems([
                "storage.kind": "postgres",
                "storage.postgres": ["url": "postgres://lk:inline@db/auth", "passwordEnv": "MISSING_VARIABLE", "poolSize": 0, "tls": "verify-full"],
            ])
            #expect(problems.contains { $0.hasPrefix("storage.postgres.url") && $0.contains("password") })
            #expect(problems.contains { $0.hasPrefix("storage.postgres.passwordEnv") && $0.contains("MISSING_VARIABLE") })
            #expect(problems.contains { $0.hasPrefix("storage.postgres.poolSize") })
            #expect(problems.contains { $0.hasPrefix("storage.postgres.caFile") })
            #expect(try await workspace.problems(["storage.kind": "mysql"]).contains { $0.hasPrefix("storage.kind") })
            // Kept for later beside the SQLite default, the section's keys are known, not refused.
            #expect(try await workspace.problems(["storage.postgres": ["host": "db", "tls": "disable"]]).isEmpty)
        }
    }

    @Test func aDatabaseThatCannotBeReachedStopsStartUpWithItsName() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration([
                "storage.kind": "postgres", "storage.postgres": ["host": "127.0.0.1", "port": 9, "tls": "disable", "connectTimeoutSeconds": 1],
            ])
            await #expect {
                _ = try await makeStore(configuration, logger: Logger(label: "test"))
            } throws: { error in
                (error as? StartupError)?.description.contains("postgres://latchkey@127.0.0.1:9/latchkey") == true
            }
        }
    }

    /// A refusal that retrying cannot change ends the opening at once, named as what to fix, not as "no answer within
    /// 35 s" after the pool has retried it for the whole connect timeout.
    @Test(.needsPostgres) func aDatabaseThatDoesNotExistIsNamedAtOnce() async throws {
        try await withWorkspace { workspace in
            var settings = try await PostgresTestServer.freshDatabase()
            var postgres = try #require(settings["storage.postgres"] as? [String: Any])
            postgres["database"] = "no_such_database"
            settings["storage.postgres"] = postgres
            let configuration = try await workspace.configuration(settings)
            let started = ContinuousClock.now
            await #expect {
                _ = try await makeStore(configuration, logger: Logger(label: "test"))
            } throws: { error in
                (error as? StartupError)?.description.hasPrefix("storage.postgres.database: PostgreSQL at ") == true
                    && "\(error)".contains("has no database \"no_such_database\"")
            }
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }
}
