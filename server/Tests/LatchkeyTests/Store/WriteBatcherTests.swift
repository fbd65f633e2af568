import Foundation
import GRDB
import Latchkey
import Synchronization
import Testing

/// Concurrent writes share commits, yet each caller gets its own result and its own rollback.
@Suite struct WriteBatcherTests {
    /// Counts commits on the database it observes.
    final class CommitCounter: TransactionObserver, Sendable {
        let commits = Mutex(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
        func databaseDidRollback(_ db: Database) {}
    }

    func withPool(_ body: (DatabasePool, CommitCounter) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            let pool = try DatabasePool(path: workspace.databasePath)
            try await pool.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE)") }
            let counter = CommitCounter()
            pool.add(transactionObserver: counter, extent: .databaseLifetime)
            try await body(pool, counter)
        }
    }

    @Test func concurrentWritersShareCommitsAndEachGetsItsOwnResult() async throws {
        try await withPool { pool, counter in
            let batcher = WriteBatcher(writer: pool)
            let ids = try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
                for index in 0..<300 {
                    group.addTask {
                        let id = try await batcher.write { db in
                            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["v\(index)"])
                            return db.lastInsertedRowID
                        }
                        return (index, id)
                    }
                }
                return try await group.reduce(into: [Int: Int64]()) { $0[$1.0] = $1.1 }
            }
            let stored = try pool.read { try Row.fetchAll($0, sql: "SELECT id, value FROM t") }
            #expect(stored.count == 300)
            for row in stored {
                let value: String = row["value"]
                #expect(ids[Int(value.dropFirst()) ?? -1] == row["id"])
            }
            let commits = counter.commits.withLock { $0 }
            #expect(commits < 300)
            #expect(commits >= 1)
        }
    }

    @Test func aFailingWriterRollsBackOnlyItsOwnChanges() async throws {
        try await withPool { pool, _ in
            let batcher = WriteBatcher(writer: pool)
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        do {
                            try await batcher.write { db in
                                try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["kept\(index)"])
                                // Every fifth writer inserts a duplicate after its first row: both of its rows must go.
                                if index % 5 == 0 { try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["kept\(index)"]) }
                            }
                            return true
                        } catch {
                            return false
                        }
                    }
                }
                let outcomes = try await group.reduce(into: [Bool]()) { $0.append($1) }
                #expect(outcomes.filter { !$0 }.count == 10)
            }
            let values = try await pool.read { try String.fetchAll($0, sql: "SELECT value FROM t") }
            #expect(values.count == 40)
            #expect(!values.contains("kept0") && values.contains("kept1"))
        }
    }

    /// An async body that really suspends (as PostgreSQL's do) still runs on the writer's thread, inside its batch's
    /// transaction, and the cooperative pool goes on serving other tasks meanwhile.
    @Test func aBodyThatSuspendsRunsOnTheWritersThreadWithinItsBatch() async throws {
        actor Elsewhere {
            func value() -> String { "from an actor" }
        }
        try await withPool { pool, _ in
            let batcher = WriteBatcher(writer: pool)
            let elsewhere = Elsewhere()
            let values = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try await batcher.write { db in
                            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["before\(index)"])
                            let text = await elsewhere.value()
                            try await Task.sleep(for: .milliseconds(1))
                            // GRDB checks that the connection is used on its own thread: this would trap anywhere else.
                            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: ["\(text) \(index)"])
                            return text
                        }
                    }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(values == Array(repeating: "from an actor", count: 20))
            #expect(try await pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 40)
        }
    }
}
