import Testing

/// The store kinds a run covers, said where the run's report shows it.
@Suite(.outsideProcesses) struct StoreKindTests {
    /// Reported as skipped, with `PostgresTestServer.skipReason`, by a run without `LATCHKEY_TEST_POSTGRES`: a plain
    /// `swift test` then shows that the conformance suites ran on SQLite alone, and why.
    @Test(.needsPostgres) func theConformanceSuitesRunOnPostgreSQLToo() async throws {
        #expect(StoreKind.all == [.sqlite, .postgres])
        // The server answers: a fresh database for a store is made on it.
        let settings = try await PostgresTestServer.freshDatabase()
        #expect(settings["storage.kind"] as? String == "postgres")
    }
}
