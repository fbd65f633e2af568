import Foundation

/// Runs an `async` transaction body on the thread that holds a SQLite connection.
///
/// GRDB lets a connection be used only inside its own queue's closure, which is synchronous, while the store's
/// transaction bodies are `async` (PostgreSQL's really suspend). Inside such a closure this executor becomes the body's
/// task executor and runs its jobs right there until the body returns. A body that only calls the store never
/// suspends and runs straight through; one that awaits something else waits on the connection's thread, never on a
/// thread of the cooperative pool.
final class ConnectionExecutor: TaskExecutor, @unchecked Sendable {
    /// Guards `jobs` and `isFinished`; the one thread inside `run` waits on it.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isFinished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` to its end on the calling thread, which must be the connection's.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let executor = ConnectionExecutor()
        let outcome = Outcome<T>()
        Task(executorPreference: executor) {
            do {
                outcome.result = .success(try await body())
            } catch {
                outcome.result = .failure(error)
            }
            executor.finish()
        }
        executor.runJobs()
        // `finish()` ran on this thread or happened before `runJobs` saw it, under the lock.
        return outcome.result ?? .failure(CancellationError())
    }

    private func finish() {
        condition.lock()
        isFinished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs the body's jobs as they arrive, until it has finished.
    private func runJobs() {
        condition.lock()
        while !isFinished {
            guard !jobs.isEmpty else {
                condition.wait()
                continue
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
            condition.lock()
        }
        condition.unlock()
    }

    /// The body's result, written by its task before `finish()` and read after `runJobs()`, which the lock orders.
    private final class Outcome<T: Sendable>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}
