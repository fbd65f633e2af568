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
                        hosts: [PostgresHost("db.internal", port: 6543)], database: "auth", user: "lk", password: "s3cret", passwordEnv: "LK_DB_PASSWORD",
                        tls: .require, poolSize: 20))
            #expect(configuration.storage.postgres?.displayName == "postgres://lk@db.internal:6543/auth")
        }
    }

    /// libpq's multi-host URL, as `pg_autoctl show uri` prints it, and the `hosts` list name a primary and its standbys.
    @Test func severalHostsMakeOneStore() async throws {
        try await withWorkspace { workspace in
            let fromURL = try await workspace.configuration([
                "storage.kind": "postgres",
                "storage.postgres": [
                    "url": "postgresql://lk@10.0.0.1:6001,db-b,[fd00::2]:6003/auth?target_session_attrs=read-write", "tls": "disable",
                ],
            ])
            let expected = [PostgresHost("10.0.0.1", port: 6001), PostgresHost("db-b"), PostgresHost("fd00::2", port: 6003)]
            #expect(fromURL.storage.postgres?.hosts == expected)
            #expect(fromURL.storage.postgres?.displayName == "postgres://lk@10.0.0.1:6001,db-b:5432,[fd00::2]:6003/auth")
            let fromList = try await workspace.configuration([
                "storage.kind": "postgres", "storage.postgres": ["hosts": ["10.0.0.1:6001", "db-b", "[fd00::2]:6003"], "tls": "disable"],
            ])
            #expect(fromList.storage.postgres?.hosts == expected)
        }
    }

    static var unusableHosts: [(section: [String: Any], key: String, words: String)] { [
        (["url": "postgres://lk@a:1,b:1/db?target_session_attrs=any"], "storage.postgres.url", "target_session_attrs=any"),
        (["url": "postgres://lk@a:1/db?password=x"], "storage.postgres.url", "password"),
        (["url": "postgres://lk@a:1/db?sslmode=require"], "storage.postgres.url", "sslmode is not read"),
        (["url": "postgres://lk@a:1,,b/db"], "storage.postgres.url", "expected postgres://"),
        (["url": "postgres://lk@a:70000/db"], "storage.postgres.url", "expected postgres://"),
        (["url": "postgres://lk@a/db/more"], "storage.postgres.url", "expected postgres://"),
        (["url": "postgres://lk@a/db#part"], "storage.postgres.url", "expected postgres://"),
        (["url": "postgres://l%zz@a/db"], "storage.postgres.url", "expected postgres://"),
        (["url": "postgres://lk@a,b/db", "port": 6000], "storage.postgres.url", "not host or port"),
        (["hosts": ["a:1", "b:x"]], "storage.postgres.hosts", "host:port"),
        (["hosts": [String]()], "storage.postgres.hosts", "host:port"),
        (["hosts": ["a", "b"], "host": "c"], "storage.postgres.hosts", "one place"),
        (["hosts": ["a", "b"], "port": 6000], "storage.postgres.hosts", "one place"),
        (["hosts": ["a", "b"], "url": "postgres://lk@c/db"], "storage.postgres.hosts", "one place"),
    ] }

    @Test(arguments: unusableHosts.indices) func aHostListThatCannotBeUsedIsNamed(_ index: Int) async throws {
        let (section, key, words) = Self.unusableHosts[index]
        try await withWorkspace { workspace in
            var postgres = section
            postgres["tls"] = "disable"
            let found = try await workspace.problems(["storage.kind": "postgres", "storage.postgres": postgres])
            #expect(found.contains { $0.hasPrefix(key) && $0.contains(words) }, "\(section): \(found)")
        }
    }

    @Test func bareIPv6AddressesAndEncodedNamesAreRead() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration([
                "storage.kind": "postgres",
                "storage.postgres": ["hosts": ["fd00::2", "[::1]:6001", "db-c:6002"], "user": "lk", "tls": "disable"],
            ])
            let expected = [PostgresHost("fd00::2"), PostgresHost("::1", port: 6001), PostgresHost("db-c", port: 6002)]
            #expect(configuration.storage.postgres?.hosts == expected)
            let encoded = try await workspace.configuration([
                "storage.kind": "postgres", "storage.postgres": ["url": "postgres://l%40k@a:1/d%20b?target_session_attrs=primary", "tls": "disable"],
            ])
            #expect(encoded.storage.postgres?.user == "l@k" && encoded.storage.postgres?.database == "d b")
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
