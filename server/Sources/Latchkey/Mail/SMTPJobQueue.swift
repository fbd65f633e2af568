import Dispatch
import LatchkeyDomain
import Synchronization

/// Messages waiting for a `CurlSMTPTransport` worker thread, and the bookkeeping that stops those threads.
///
/// Workers block in `next()` on a semaphore, which is fine on their own threads and why this is not an actor:
/// nothing here may ever block a task.
final class SMTPJobQueue: Sendable {
    /// One message to send, with the continuation of the `deliver` call that waits for it.
    struct Job: Sendable {
        let id: UInt64
        let message: [UInt8]
        let recipient: EmailAddress
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var jobs: [Job] = []
        var nextID: UInt64 = 0
        var isClosed = false
        var runningWorkers: Int
        var exitWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>
    /// Signalled once per enqueued job and once per worker on close, so a waiting worker always has a reason to wake.
    private let wakeUps = DispatchSemaphore(value: 0)
    private let workers: Int

    init(workers: Int) {
        self.workers = workers
        state = Mutex(State(runningWorkers: workers))
    }

    /// What a job waiting in a closed queue, or sent to one, fails with; retrying later on a new transport can work.
    static let closedError = MailDeliveryError(kind: .other, detail: "the SMTP transport is shut down")

    /// A fresh id, taken before enqueueing so that a cancellation handler can name the job.
    func makeJobID() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
    }

    /// Hands `job` to the next free worker, or fails it at once when the queue is closed or its task is cancelled.
    ///
    /// Checking cancellation under the lock pairs with `cancel(_:)`: either the handler ran first and this sees the
    /// task cancelled, or the job is already queued when the handler looks for it.
    func enqueue(_ job: Job) {
        let refusal: (any Error)? = state.withLock { state in
            if state.isClosed { return Self.closedError }
            if Task.isCancelled { return CancellationError() }
            state.jobs.append(job)
            return nil
        }
        if let refusal {
            job.continuation.resume(throwing: refusal)
        } else {
            wakeUps.signal()
        }
    }

    /// Withdraws a job that no worker has taken yet; one already being sent runs to its end (bounded by the timeout).
    func cancel(_ id: UInt64) {
        let job: Job? = state.withLock { state in
            guard let index = state.jobs.firstIndex(where: { $0.id == id }) else { return nil }
            return state.jobs.remove(at: index)
        }
        job?.continuation.resume(throwing: CancellationError())
    }

    /// Blocks the calling worker thread until there is a job, or returns `nil` once the queue is closed.
    func next() -> Job? {
        while true {
            wakeUps.wait()
            let (job, isClosed): (Job?, Bool) = state.withLock { state in
                state.jobs.isEmpty ? (nil, state.isClosed) : (state.jobs.removeFirst(), false)
            }
            if let job { return job }
            if isClosed { return nil }
        }
    }

    /// Stops taking jobs, fails those still waiting, and tells every worker to exit after its current message.
    func close() {
        let abandoned: [Job]? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            defer { state.jobs.removeAll() }
            return state.jobs
        }
        guard let abandoned else { return }
        for job in abandoned {
            job.continuation.resume(throwing: Self.closedError)
        }
        for _ in 0..<workers {
            wakeUps.signal()
        }
    }

    /// Called by each worker as its last act, after freeing its handle.
    func workerDidExit() {
        let waiters: [CheckedContinuation<Void, Never>] = state.withLock { state in
            state.runningWorkers -= 1
            guard state.runningWorkers == 0 else { return [] }
            defer { state.exitWaiters.removeAll() }
            return state.exitWaiters
        }
        for waiter in waiters {
            waiter.resume()
        }
    }

    /// Suspends until every worker has exited.
    func waitForWorkers() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isDone = state.withLock { state in
                if state.runningWorkers == 0 { return true }
                state.exitWaiters.append(continuation)
                return false
            }
            if isDone { continuation.resume() }
        }
    }
}
