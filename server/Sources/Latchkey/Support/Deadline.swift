import Foundation

/// The time `withDeadline` allowed ran out.
package struct DeadlineExceeded: Error, CustomStringConvertible {
    package let seconds: Int
    package var description: String { "no answer within \(seconds) s" }
}

/// Runs `body`, throwing `DeadlineExceeded` (and cancelling it) when it takes longer than `seconds`.
///
/// The caller gets its answer at the deadline even when `body` does not end on cancellation: a task group would wait
/// for it, and postgres-nio's `withConnection` can stay suspended past its cancellation when PostgreSQL goes away under
/// it (a request in flight then hung for good). Such a body is left to end when it does; its result is dropped.
package func withDeadline<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let outcome = FirstOutcome<T>()
    let work = Task {
        do { outcome.resume(with: .success(try await body())) } catch { outcome.resume(with: .failure(error)) }
    }
    let timer = Task {
        guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
        outcome.resume(with: .failure(DeadlineExceeded(seconds: seconds)))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in outcome.wait(continuation) }
    } onCancel: {
        work.cancel()
        outcome.resume(with: .failure(CancellationError()))
    }
}

/// The first of several outcomes, handed to one waiting continuation whichever comes first (the wait or the outcome).
private final class FirstOutcome<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, any Error>?
    private var continuation: CheckedContinuation<T, any Error>?

    func wait(_ continuation: CheckedContinuation<T, any Error>) {
        lock.lock()
        if let result {
            lock.unlock()
            continuation.resume(with: result)
        } else {
            self.continuation = continuation
            lock.unlock()
        }
    }

    func resume(with result: Result<T, any Error>) {
        lock.lock()
        guard self.result == nil else {
            lock.unlock()
            return
        }
        self.result = result
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(with: result)
    }
}
