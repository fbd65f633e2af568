import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import Logging
import Testing

@Suite struct ProbesTests {
    @Test func healthAndReadinessAnswerOK() async throws {
        try await withApp { client, _, _ in
            let health = try await client.execute(uri: "/healthz", method: .get)
            let readiness = try await client.execute(uri: "/readyz", method: .get)
            #expect(health.status == .ok && readiness.status == .ok)
        }
    }

    @Test func readinessFailsWhenTheDatabaseCannotBeWritten() async throws {
        try await withApp { client, workspace, _ in
            // Another process holds the write lock longer than the store's 5 s busy timeout.
            let holder = try ChildProcess(["sqlite3", workspace.databasePath], withInput: true)
            defer { holder.terminate() }
            holder.write("BEGIN EXCLUSIVE;\nINSERT INTO outbox (recipient, created_at, next_attempt_at) VALUES ('a@b.co', 0, 0);\n")
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .serviceUnavailable)
            holder.write("ROLLBACK;\n.quit\n")
        }
    }

    @Test func aProxysRequestIDReachesTheLogsAndAMalformedOneIsIgnored() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .debug
        try await withApp(["logLevel": "debug"], logger: logger) { client, _, _ in
            _ = try await client.execute(uri: "/healthz", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "req-123"])
            _ = try await client.execute(uri: "/healthz", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "bad id\twith tab"])
            let ids = handler.entries.filter { $0.message.description == "Request" }.map { $0.metadata["request.id"]?.description }
            #expect(ids == ["req-123", nil])
        }
    }
}
