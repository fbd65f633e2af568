import Logging

/// Which of `storage.postgres`'s hosts takes the transactions: the primary.
///
/// With one host that is always it. With several, it is the one whose server says it is not in recovery, looked for
/// when the store opens and again whenever a transaction finds its host gone or read-only (a failover or a
/// switchover). While there is none, transactions wait for one within their own deadline, and the hosts are asked again
/// every quarter of a second for as long as any transaction waits: nothing probes a database nobody is using.
package actor PrimaryRoute {
    /// What a host's server said it is, or that it could not be asked.
    package enum Role: Sendable, Equatable {
        case primary
        case standby
        case unreachable
    }

    package let hosts: [PostgresHost]
    private let probe: @Sendable (PostgresHost) async -> Role
    private let logger: Logger
    private var current: Int?
    private var searching = false
    private var waiters: [Int: CheckedContinuation<Int, any Error>] = [:]
    private var nextWaiter = 0

    /// `probe` asks one host's server whether it is the primary.
    package init(hosts: [PostgresHost], logger: Logger, probe: @escaping @Sendable (PostgresHost) async -> Role) {
        self.hosts = hosts
        self.logger = logger
        self.probe = probe
        current = hosts.count == 1 ? 0 : nil
    }

    /// Several hosts, so the primary can move: each transaction confirms its server takes writes.
    package nonisolated var canMove: Bool { hosts.count > 1 }

    /// The index in `hosts` of the primary, waiting for one to be found (cancel the wait to give up).
    package func primary() async throws -> Int {
        if let current { return current }
        let waiter = nextWaiter
        nextWaiter += 1
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume(throwing: CancellationError()) }
                waiters[waiter] = continuation
                search()
            }
        } onCancel: {
            Task { await self.giveUp(waiter) }
        }
    }

    /// A transaction on `index` found its server gone or taking no writes: look for the primary again (unless
    /// another transaction already moved the route on).
    package func lost(_ index: Int) {
        guard canMove, current == index else { return }
        logger.warning("PostgreSQL primary lost; looking for the new one", metadata: ["host": "\(hosts[index])"])
        current = nil
    }

    /// A transaction ran out of time: the primary may be gone without a connection having said so (a pool waits for
    /// a dead host silently), so the hosts are asked again. A busy primary is simply found again.
    package func recheck() {
        if let current { lost(current) }
    }

    private func giveUp(_ waiter: Int) {
        waiters.removeValue(forKey: waiter)?.resume(throwing: CancellationError())
    }

    private func search() {
        guard !searching else { return }
        searching = true
        Task {
            while !waiters.isEmpty, current == nil {
                let primaries = await primaries()
                if let found = primaries.first {
                    current = found
                    logger.notice("PostgreSQL primary found", metadata: ["host": "\(hosts[found])"])
                    if primaries.count > 1 {
                        logger.error("Several PostgreSQL hosts take writes; using the first", metadata: ["hosts": "\(primaries.map { hosts[$0] })"])
                    }
                } else {
                    try? await Task.sleep(for: .milliseconds(250))
                }
            }
            searching = false
            if let current {
                for waiter in waiters.values { waiter.resume(returning: current) }
                waiters = [:]
            }
        }
    }

    /// The indexes of the hosts that say they are the primary, all asked at once.
    private nonisolated func primaries() async -> [Int] {
        await withTaskGroup(of: (Int, Role).self) { group in
            for (index, host) in hosts.enumerated() { group.addTask { [probe] in (index, await probe(host)) } }
            var primaries: [Int] = []
            for await (index, role) in group where role == .primary { primaries.append(index) }
            return primaries.sorted()
        }
    }
}
