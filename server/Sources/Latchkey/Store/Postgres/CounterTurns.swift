import Synchronization

/// Lets one task at a time per counter row through, in the order they came: this instance's counting transactions that
/// share a row (every request from one client address) wait here, where waiting costs nothing, rather than as
/// database backends queued on the row's lock, where a holder the scheduler set aside holds up all the others (a lock
/// convoy: measured as seconds of p99 with all load from one address, issue #39). Rows are taken in sorted order, so
/// two sets of rows never wait for each other.
///
/// Rows no other task of this instance is counting may be counted inside the attempt's own transaction instead
/// (`claimQuiet`), which saves the counting transaction's round trips when the load is spread over many addresses.
package final class CounterTurns: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    /// A row is in `rows` while its turn is taken, with the tasks waiting for it, and in `quiet` while transactions
    /// count it inline (how many).
    private struct State {
        var rows: [String: [Waiter]] = [:]
        var quiet: [String: Int] = [:]
        var lastID: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Runs `body` with `rows` claimed for counting inline, or returns nil without running it when another task of this
    /// instance is counting one of them (its turn taken, or inline itself): then they are counted apart, in turn.
    package func whileQuiet<T: Sendable>(_ rows: [String], _ body: () async throws -> T) async throws -> T? {
        let claimed = state.withLock { state in
            guard rows.allSatisfy({ state.rows[$0] == nil && state.quiet[$0] == nil }) else { return false }
            for row in rows { state.quiet[row, default: 0] += 1 }
            return true
        }
        guard claimed else { return nil }
        defer {
            state.withLock { state in
                for row in rows { state.quiet[row] = state.quiet[row].flatMap { $0 > 1 ? $0 - 1 : nil } }
            }
        }
        return try await body()
    }

    /// Runs `body` holding the turn of every row of `rows`; a task cancelled while it waits throws `CancellationError`.
    package func withTurns<T: Sendable>(_ rows: [String], _ body: () async throws -> T) async throws -> T {
        var taken: [String] = []
        defer { taken.reversed().forEach(leave) }
        for row in Set(rows).sorted() {
            try await take(row)
            taken.append(row)
        }
        return try await body()
    }

    private func take(_ row: String) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let isFree = state.withLock { state in
                    guard state.rows[row] != nil else {
                        state.rows[row] = []
                        return true
                    }
                    state.rows[row, default: []].append(Waiter(id: id, continuation: continuation))
                    return false
                }
                if isFree { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.rows[row]?.firstIndex(where: { $0.id == id }) else { return nil }
                return state.rows[row]?.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands the row's turn to the task that waited longest, or frees it.
    private func leave(_ row: String) {
        let next = state.withLock { state -> Waiter? in
            guard let waiters = state.rows[row], let next = waiters.first else {
                state.rows[row] = nil
                return nil
            }
            state.rows[row] = Array(waiters.dropFirst())
            return next
        }
        next?.continuation.resume()
    }
}
