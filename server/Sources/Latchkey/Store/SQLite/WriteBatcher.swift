import GRDB
import Synchronization

/// Groups concurrent write transactions into one SQLite transaction, so one commit (one WAL sync) serves many
/// requests.
///
/// Each caller's work runs in its own savepoint, in arrival order, so a caller that throws rolls back only its
/// own changes; every caller is answered only after the shared commit, so nothing is acknowledged before it is
/// durable. When nothing else is waiting a batch is a single job and costs what a plain transaction costs. Bodies
/// are `async` and run on the writer's own thread (`ConnectionExecutor`), never blocking the cooperative pool.
package final class WriteBatcher: Sendable {
    /// One caller's work, type-erased: run it inside the transaction, then answer after the commit (or failure).
    private struct Job: Sendable {
        /// Runs the caller's body in a savepoint and returns how to answer the caller once the batch is committed.
        let run: @Sendable (Database) -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    private struct Queue {
        var jobs: [Job] = []
        var isDraining = false
    }

    private let writer: any DatabaseWriter
    private let queue = Mutex(Queue())
    /// Bounds a batch so one commit never holds the writer for long.
    private let maximumBatch = 512

    package init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (Database) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let job = Job(
                run: { db in
                    var result: Result<T, any Error> = .failure(CancellationError())
                    do {
                        try db.inSavepoint {
                            let connection = UncheckedConnection(db)
                            result = ConnectionExecutor.run { try await body(connection.db) }
                            return try result.map { _ in .commit }.get()
                        }
                    } catch {
                        result = .failure(error)
                    }
                    return { [result] in continuation.resume(with: result) }
                },
                fail: { continuation.resume(throwing: $0) })
            let startsDrain = queue.withLock { queue in
                queue.jobs.append(job)
                guard !queue.isDraining else { return false }
                queue.isDraining = true
                return true
            }
            if startsDrain { Task { await self.drain() } }
        }
    }

    /// Commits batches until no caller is waiting.
    private func drain() async {
        while true {
            let batch = queue.withLock { queue -> [Job] in
                let batch = Array(queue.jobs.prefix(maximumBatch))
                queue.jobs.removeFirst(batch.count)
                if batch.isEmpty { queue.isDraining = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                let answers = try await writer.write { db in batch.map { $0.run(db) } }
                answers.forEach { $0() }
            } catch {
                batch.forEach { $0.fail(error) }
            }
        }
    }
}

/// A connection handed to a body that runs on the connection's own thread (`ConnectionExecutor`), where GRDB checks
/// every use; the compiler cannot see that thread, hence unchecked.
struct UncheckedConnection: @unchecked Sendable {
    let db: Database

    init(_ db: Database) {
        self.db = db
    }
}
