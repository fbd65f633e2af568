import NIOPosix
import Synchronization

/// The line password hashes and checks wait in for NIO's blocking pool: at most `concurrency` run at once, at most
/// `queueLength` wait, none longer than `maximumWait`, and one address's checks take at most `checksPerAddress` places,
/// running or waiting. Whatever does not fit is refused at once with `PasswordHashingBusy`.
///
/// The pool alone queues without bound and in one line: sixteen concurrent attempts at one costly imported hash held
/// every other sign-in for thirteen seconds. Here a flood from one address is refused beyond its share, so that the
/// next thread goes to whoever came next from elsewhere, and a saturated server answers a retryable 503 rather than
/// hold requests.
final class PasswordHashingQueue: Sendable {
    /// A job waiting for a thread. Its decision (admitted, or withdrawn after `maximumWait` or a cancellation) may come
    /// before its task suspends, and is then kept here until it does.
    private struct Waiter {
        let key: String?
        var continuation: CheckedContinuation<Bool, Never>?
        var isAdmitted: Bool?
    }

    private struct State {
        var running = 0
        /// Ids of the waiters still in line, first come first.
        var line: [UInt64] = []
        var waiters: [UInt64: Waiter] = [:]
        /// Jobs admitted per key, running or in line.
        var admittedPerKey: [String: Int] = [:]
        var nextID: UInt64 = 0

        /// Settles a waiter taken out of the line: the continuation to resume if its task waits already, else the
        /// decision kept for when it does.
        mutating func decide(_ id: UInt64, isAdmitted: Bool) -> CheckedContinuation<Bool, Never>? {
            guard let continuation = waiters[id]?.continuation else {
                waiters[id]?.isAdmitted = isAdmitted
                return nil
            }
            waiters[id] = nil
            return continuation
        }

        mutating func release(_ key: String?) {
            guard let key else { return }
            admittedPerKey[key, default: 1] -= 1
            if admittedPerKey[key] == 0 { admittedPerKey[key] = nil }
        }
    }

    private enum Entry {
        case running
        case waiting(UInt64)
    }

    let limits: PasswordHashingLimits
    private let state = Mutex(State())

    init(limits: PasswordHashingLimits) {
        self.limits = limits
    }

    /// Runs `work` on the blocking pool when its turn comes. `key` (an address) limits how many places one address's
    /// jobs take; nil counts against no such limit.
    func run<T: Sendable>(for key: String?, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        if case .waiting(let id) = try enter(key) { try await awaitTurn(id) }
        defer { leave(key) }
        return try await NIOThreadPool.singleton.runIfActive(work)
    }

    private func enter(_ key: String?) throws(PasswordHashingBusy) -> Entry {
        let limits = limits
        return try state.withLock { state throws(PasswordHashingBusy) -> Entry in
            if let key {
                guard state.admittedPerKey[key, default: 0] < limits.checksPerAddress else { throw PasswordHashingBusy(reason: .addressBusy) }
            }
            let entry: Entry
            if state.running < limits.concurrency && state.line.isEmpty {
                state.running += 1
                entry = .running
            } else {
                guard state.line.count < limits.queueLength else { throw PasswordHashingBusy(reason: .queueFull) }
                state.nextID += 1
                state.line.append(state.nextID)
                state.waiters[state.nextID] = Waiter(key: key)
                entry = .waiting(state.nextID)
            }
            if let key { state.admittedPerKey[key, default: 0] += 1 }
            return entry
        }
    }

    /// Waits until the job is admitted; throws when `maximumWait` passes first or the task is cancelled, the job then
    /// out of the line. An admission that comes with either stands: the job runs, and its place is given back after.
    private func awaitTurn(_ id: UInt64) async throws {
        let maximumWait = limits.maximumWait
        let isAdmitted = await withTaskGroup(of: Bool?.self) { group in
            group.addTask { await self.decision(for: id) }
            group.addTask {
                try? await Task.sleep(for: maximumWait)
                self.withdraw(id)
                return nil
            }
            var isAdmitted = false
            for await decided in group {
                guard let decided else { continue }
                isAdmitted = decided
                group.cancelAll()
            }
            return isAdmitted
        }
        guard isAdmitted else {
            try Task.checkCancellation()
            throw PasswordHashingBusy(reason: .waitedTooLong)
        }
    }

    private func decision(for id: UInt64) async -> Bool {
        await withCheckedContinuation { continuation in
            let decided = state.withLock { state -> Bool? in
                // A waiter leaves the table only when its decision reaches its task, which this call is the first to await.
                guard let waiter = state.waiters[id] else { return false }
                guard let decided = waiter.isAdmitted else {
                    state.waiters[id]?.continuation = continuation
                    return nil
                }
                state.waiters[id] = nil
                return decided
            }
            if let decided { continuation.resume(returning: decided) }
        }
    }

    /// Takes a waiter out of the line unadmitted; nothing when it was admitted already.
    private func withdraw(_ id: UInt64) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let index = state.line.firstIndex(of: id), let waiter = state.waiters[id] else { return nil }
            state.line.remove(at: index)
            state.release(waiter.key)
            return state.decide(id, isAdmitted: false)
        }
        continuation?.resume(returning: false)
    }

    /// Gives a finished job's place back: its thread goes to the first in line, if any.
    private func leave(_ key: String?) {
        let continuation = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            state.release(key)
            guard !state.line.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.decide(state.line.removeFirst(), isAdmitted: true)
        }
        continuation?.resume(returning: true)
    }
}
