import Logging
import Synchronization

/// Which of `storage.postgres`'s hosts takes the transactions: the primary.
///
/// With one host that is always it, taken without a lock. With several, it is the first host to say it takes writes
/// (not in recovery, not read-only), looked for whenever a transaction waits and none is known: at the start, and
/// after a transaction found its host gone or read-only (a failover or a switchover). While there is none,
/// transactions wait within their own deadline, and the hosts are asked again every quarter of a second for as long
/// as any transaction waits: nothing probes a database nobody is using. The looking is done by `run()`, which runs
/// beside the pools, so no request pays for a host that does not answer.
package final class PrimaryRoute: Sendable {
    /// What a host's server said it is, or that it could not be asked.
    package enum Role: Sendable, Equatable {
        case primary
        /// In recovery, or read-only: it takes no writes.
        case standby
        case unreachable
    }

    /// The host a transaction was sent to, and which finding of the primary sent it there: a failure reported against
    /// an earlier finding is stale (the primary was found again since) and moves nothing.
    package struct Choice: Sendable, Equatable {
        package let host: Int
        let finding: Int
    }

    private struct State {
        var current: Choice?
        var findings = 0
        var waiters: [Int: CheckedContinuation<Choice, any Error>] = [:]
        var nextWaiter = 0
        /// A finding a transaction that ran out of time put in doubt, for `run()` to ask its host about.
        var doubted: Choice?
    }

    package let hosts: [PostgresHost]
    private let probe: @Sendable (PostgresHost) async -> Role
    private let logger: Logger
    private let state = Mutex(State())
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    /// The one host, when only one is named: the route never moves.
    private let only: Choice?

    /// `probe` asks one host's server whether it takes writes.
    package init(hosts: [PostgresHost], logger: Logger, probe: @escaping @Sendable (PostgresHost) async -> Role) {
        self.hosts = hosts
        self.logger = logger
        self.probe = probe
        (wakes, wake) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        only = hosts.count == 1 ? Choice(host: 0, finding: 0) : nil
    }

    /// Several hosts, so the primary can move: each transaction confirms its server takes writes.
    package var canMove: Bool { only == nil }

    /// The primary, waiting for one to be found (cancel the wait to give up).
    package func primary() async throws -> Choice {
        if let only { return only }
        if let current = state.withLock({ $0.current }) { return current }
        let waiter = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer: Result<Choice, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let current = state.current { return .success(current) }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let answer { continuation.resume(with: answer) } else { wake.yield() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(throwing: CancellationError())
        }
    }

    /// A transaction sent by `choice` found its server gone or taking no writes: look for the primary again, unless
    /// it was found again since.
    package func lost(_ choice: Choice) {
        guard canMove, state.withLock({ state in
            guard state.current == choice else { return false }
            state.current = nil
            return true
        })
        else { return }
        logger.warning("PostgreSQL primary lost; looking for the new one", metadata: ["host": "\(hosts[choice.host])"])
    }

    /// A transaction ran out of time: the primary may be gone without a connection having said so (a pool waits for a
    /// dead host silently), or merely busy. `run()` asks it, and only a host that no longer says it takes writes is
    /// given up.
    package func doubt() {
        guard canMove, state.withLock({ state in
            guard let current = state.current else { return false }
            state.doubted = current
            return true
        })
        else { return }
        wake.yield()
    }

    /// Asks about doubted findings and looks for the primary while transactions wait for one, until cancelled (when
    /// the store closes).
    package func run() async {
        guard canMove else { return }
        for await _ in wakes {
            if let doubted = state.withLock({ state in defer { state.doubted = nil }; return state.doubted }),
                await probe(hosts[doubted.host]) != .primary
            {
                lost(doubted)
            }
            while !Task.isCancelled, state.withLock({ !$0.waiters.isEmpty && $0.current == nil }) {
                guard let found = await firstPrimary() else {
                    try? await Task.sleep(for: .milliseconds(250))
                    continue
                }
                let (choice, waiters) = state.withLock { state in
                    state.findings += 1
                    let choice = Choice(host: found, finding: state.findings)
                    state.current = choice
                    defer { state.waiters = [:] }
                    return (choice, Array(state.waiters.values))
                }
                logger.notice("PostgreSQL primary found", metadata: ["host": "\(hosts[found])"])
                for waiter in waiters { waiter.resume(returning: choice) }
            }
        }
        let waiters = state.withLock { state in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(throwing: CancellationError()) }
    }

    /// The first host to say it takes writes, all asked at once: one that does not answer delays nothing.
    private func firstPrimary() async -> Int? {
        await withTaskGroup(of: (Int, Role).self) { group in
            for (index, host) in hosts.enumerated() { group.addTask { [probe] in (index, await probe(host)) } }
            for await (index, role) in group where role == .primary {
                group.cancelAll()
                return index
            }
            return nil
        }
    }
}
