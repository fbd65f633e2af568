import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

@Suite struct WALCheckpointerTests {
    func fileSize(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    }

    /// Commits stay in the log (below the writer's own 1,000-page checkpoint) until the service copies them into the
    /// database file.
    @Test func committedPagesReachTheDatabaseFileWithoutTheWriter() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteStore(path: workspace.databasePath)
            let alice = try #require(EmailAddress("alice@example.com"))
            for _ in 0..<50 {
                try await store.write { transaction in
                    try await transaction.enqueue(OutboxMessage(recipient: .email(alice), format: .mime, sealedContent: Data(repeating: 7, count: 8000), createdAt: Date()))
                }
            }
            let before = try fileSize(store.path)
            #expect(try fileSize(store.path + "-wal") > 400_000)
            let checkpointer = try WALCheckpointer(path: store.path, interval: .milliseconds(20), logger: Logger(label: "test"))
            let running = Task { await checkpointer.run() }
            // Polled rather than slept for a fixed time, so a loaded machine only makes the test slower.
            var copied = false
            for _ in 0..<250 where !copied {
                try await Task.sleep(for: .milliseconds(20))
                copied = try fileSize(store.path) > before + 400_000
            }
            running.cancel()
            await running.value
            #expect(copied)
        }
    }
}
