import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// The PostgreSQL store on several hosts, against the test server: it works through whichever host takes writes, and a
/// server that takes none (read-only here, as a fenced primary is) makes the store unavailable (a 503), not an
/// internal error. Failovers between real primaries
/// and standbys are `Tests/e2e/test_failover.py`'s.
@Suite(.outsideProcesses, .needsPostgres) struct PostgresHostsTests {
    /// A database on the test server named second, after a host nothing listens on.
    private func settingsBehindADeadHost() async throws -> (overrides: [String: Any], database: String) {
        var overrides = try await PostgresTestServer.freshDatabase()
        var postgres = try #require(overrides["storage.postgres"] as? [String: Any])
        let (host, port) = try #require(PostgresTestServer.address)
        postgres.removeValue(forKey: "host")
        postgres.removeValue(forKey: "port")
        postgres["hosts"] = ["127.0.0.1:9", "\(host):\(port)"]
        // A write finding no primary waits this long for one; still long enough to open the store on a busy machine.
        postgres["connectTimeoutSeconds"] = 15
        overrides["storage.postgres"] = postgres
        return (overrides, try #require(postgres["database"] as? String))
    }

    @Test func theHostTakingWritesServesWhereverItIsListed() async throws {
        try await withWorkspace { workspace in
            let (overrides, _) = try await settingsBehindADeadHost()
            let opened = try await makeStore(try await workspace.configuration(overrides), logger: Logger(label: "test"))
            defer { withExtendedLifetime(opened) {} }
            #expect(opened.summary.contains("127.0.0.1:9,"))
            #expect(opened.summary.contains("asynchronous replication"), "the test server replicates to nobody: \(opened.summary)")
            try await opened.store.write { _ = try await $0.addSigningKey(Self.key) }
            #expect(try await opened.store.read { try await $0.signingKeys() }.map(\.id) == [Self.key.id])
        }
    }

    @Test func aServerTakingNoWritesMakesTheStoreUnavailable() async throws {
        try await withWorkspace { workspace in
            let (overrides, database) = try await settingsBehindADeadHost()
            let opened = try await makeStore(try await workspace.configuration(overrides), logger: Logger(label: "test"))
            defer { withExtendedLifetime(opened) {} }
            try await opened.store.write { _ = try await $0.addSigningKey(Self.key) }
            // Only new sessions take the setting: the pool's connections are ended, as a demotion ends them.
            let demote = """
                ALTER DATABASE \(database) SET default_transaction_read_only = on;
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()
                """
            #expect(try await PostgresTestServer.psql(demote, in: database).exitStatus() == 0)
            await #expect(throws: StoreUnavailable.self) { try await opened.store.write { _ = try await $0.addSigningKey(Self.another) } }
        }
    }

    static let key = SigningKeyRecord(
        id: "k1", algorithm: .rs256, sealedPrivateKey: Data([1, 2, 3]), createdAt: Date(timeIntervalSince1970: 1_700_000_000),
        activatesAt: Date(timeIntervalSince1970: 1_700_000_000))
    static let another = SigningKeyRecord(
        id: "k2", algorithm: .rs256, sealedPrivateKey: Data([1, 2, 3]), createdAt: Date(timeIntervalSince1970: 1_700_000_000),
        activatesAt: Date(timeIntervalSince1970: 1_700_000_000))
}
