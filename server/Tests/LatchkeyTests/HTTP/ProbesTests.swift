import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import Logging
import Testing

@Suite(.outsideProcesses) struct ProbesTests {
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

    /// A trusted proxy's request id is the request's one id in the logs (never beside Hummingbird's own, so that a line
    /// behind nginx carries one id); a malformed one is ignored, and Hummingbird's id stands alone.
    @Test func aTrustedProxysRequestIDIsTheOneIDInTheLogs() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .debug
        try await withApp(["logLevel": "debug", "server.trustedProxies": ["127.0.0.1"]], logger: logger, testing: .live) { client, _, _ in
            _ = try await client.execute(uri: "/healthz", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "req-123"])
            _ = try await client.execute(uri: "/healthz", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "bad id\twith tab"])
            let lines = handler.entries.filter { $0.message.description == "Request" }
            #expect(lines.map { $0.metadata["request.id"]?.description }.first == "req-123")
            #expect(lines.count == 2 && lines.allSatisfy { $0.metadata["hb.request.id"] == nil && $0.metadata["request.id"] != nil })
            #expect(lines.last?.metadata["request.id"]?.description != "bad id\twith tab")
        }
    }

    /// A client that is not a trusted proxy cannot name the request in the logs: its X-Request-Id is ignored.
    @Test func anUntrustedClientsRequestIDIsIgnored() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .debug
        try await withApp(["logLevel": "debug"], logger: logger, testing: .live) { client, _, _ in
            _ = try await client.execute(uri: "/healthz", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "req-123"])
            let line = try #require(handler.entries.first { $0.message.description == "Request" })
            #expect(line.metadata["request.id"] != nil && line.metadata["request.id"]?.description != "req-123")
            #expect(line.metadata["hb.request.id"] == nil)
        }
    }
}
