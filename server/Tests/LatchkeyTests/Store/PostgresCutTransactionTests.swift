import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Synchronization
import Testing

/// A transaction whose connection PostgreSQL ends, as a failover ends them: before its COMMIT was sent nothing of it
/// stays, so it runs again (and its caller gets its answer); during its COMMIT its outcome is unknown, so it is
/// reported as unavailable and not run again (running it again could do twice what was done once).
@Suite(.outsideProcesses, .needsPostgres) struct PostgresCutTransactionTests {
    /// The advisory locks of this test's database (other tests migrate theirs under one at the same time).
    static let ownAdvisoryLocks =
        "pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"

    /// SQL that fails until an advisory lock of this test's database in the state `condition` exists.
    static func failUnlessAnAdvisoryLock(_ condition: String) -> String {
        "DO $$ BEGIN PERFORM 1 FROM \(ownAdvisoryLocks) AND \(condition); IF NOT FOUND THEN RAISE 'not yet'; END IF; END $$"
    }

    /// SQL that ends the sessions holding or awaiting an advisory lock of this test's database.
    static let endAdvisoryLockSessions = "SELECT pg_terminate_backend(pid) FROM \(ownAdvisoryLocks)"

    /// A store on a fresh database of the test server, and a way to run SQL there as another session:
    /// `psql(sql, wait, retrying)` waits for it or leaves it running, and runs it again until it succeeds (for ten
    /// seconds at most) when `retrying`.
    private func withStore(
        _ body: (any Store, _ psql: @escaping @Sendable (String, Bool, _ retrying: Bool) async throws -> Void) async throws -> Void
    ) async throws {
        try await withWorkspace { workspace in
            let overrides = try await PostgresTestServer.freshDatabase()
            let opened = try await makeStore(try await workspace.configuration(overrides), logger: Logger(label: "test"))
            defer { withExtendedLifetime(opened) {} }
            let database = try #require((overrides["storage.postgres"] as? [String: Any])?["database"] as? String)
            try await body(opened.store) { sql, wait, retrying in
                for _ in 1...(retrying ? 500 : 1) {
                    let psql = try PostgresTestServer.psql(sql, in: database)
                    guard wait else { return }
                    if try await psql.exitStatus() == 0 { return }
                    try await Task.sleep(for: .milliseconds(20))
                }
                throw ChildProcessError(description: "psql failed: \(sql)")
            }
        }
    }

    /// The first run waits for the signing-key lock another session holds, and is ended while it waits, as a failover
    /// ends the statements under way; the holder is ended with it, so the second run goes through.
    @Test func aTransactionCutBeforeItsCommitRunsAgainAndItsCallerIsAnswered() async throws {
        try await withStore { store, psql in
            let signingKeyLock = 0x4C_61_74_63_68_6B_03  // PostgresStore.signingKeyLock
            try await psql("SELECT pg_advisory_lock(\(signingKeyLock)); SELECT pg_sleep(60)", false, false)
            try await psql(Self.failUnlessAnAdvisoryLock("granted"), true, true)
            let ender = Task {
                try await psql(Self.failUnlessAnAdvisoryLock("NOT granted"), true, true)
                try await psql(Self.endAdvisoryLockSessions, true, false)
            }
            defer { ender.cancel() }
            let runs = Mutex(0)
            let added = try await store.write { transaction in
                runs.withLock { $0 += 1 }
                try await transaction.lockSigningKeys()
                return try await transaction.addSigningKey(PostgresHostsTests.key)
            }
            #expect(added)
            #expect(runs.withLock { $0 } >= 2)
            #expect(try await store.read { try await $0.signingKeys() }.map(\.id) == [PostgresHostsTests.key.id])
        }
    }

    /// Ended between two statements (a fast shutdown ends idle sessions so): the next statement is not sent on the
    /// closed connection, where postgres-nio would never answer it, and the transaction runs again at once.
    @Test func aTransactionEndedBetweenStatementsRunsAgainAtOnce() async throws {
        try await withStore { store, psql in
            let runs = Mutex(0)
            let started = ContinuousClock.now
            let added = try await store.write { transaction in
                try await transaction.lockSigningKeys()
                if runs.withLock({ $0 += 1; return $0 }) == 1 {
                    try await psql(Self.endAdvisoryLockSessions, true, false)
                    try await Task.sleep(for: .milliseconds(300))
                }
                return try await transaction.addSigningKey(PostgresHostsTests.key)
            }
            #expect(added && runs.withLock { $0 } == 2)
            #expect(ContinuousClock.now - started < .seconds(15), "well inside the 30 s deadline")
        }
    }

    @Test func aTransactionCutDuringItsCommitIsUnavailableAndNotRunAgain() async throws {
        try await withStore { store, psql in
            // A check deferred to the commit that ends its own session: the COMMIT's answer never comes.
            try await psql(
                """
                CREATE FUNCTION end_session() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$;
                CREATE CONSTRAINT TRIGGER ends_at_commit AFTER INSERT ON signing_keys DEFERRABLE INITIALLY DEFERRED
                    FOR EACH ROW EXECUTE FUNCTION end_session()
                """, true, false)
            let runs = Mutex(0)
            await #expect {
                _ = try await store.write { transaction in
                    runs.withLock { $0 += 1 }
                    return try await transaction.addSigningKey(PostgresHostsTests.key)
                }
            } throws: { error in
                "\(error)".contains("whether it committed is unknown")
            }
            #expect(runs.withLock { $0 } == 1)
        }
    }
}
