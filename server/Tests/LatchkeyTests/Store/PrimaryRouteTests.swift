import Latchkey
import Logging
import Synchronization
import Testing

/// How the PostgreSQL store finds the primary among several hosts, with the hosts' answers made up: the real
/// failovers are `Tests/e2e/test_failover.py`'s.
@Suite(.timeLimit(.minutes(1))) struct PrimaryRouteTests {
    /// The roles the made-up hosts claim, how often they were asked, and hosts that take a minute to answer.
    final class Hosts: Sendable {
        private let state: Mutex<(roles: [PrimaryRoute.Role], asked: Int, silent: Set<Int>)>
        init(_ roles: [PrimaryRoute.Role], silent: Set<Int> = []) { state = Mutex((roles, 0, silent)) }

        var asked: Int { state.withLock { $0.asked } }
        func set(_ roles: [PrimaryRoute.Role]) { state.withLock { $0.roles = roles } }

        /// Runs `body` with a route over these hosts, its search running beside it as it runs beside the pools.
        func withRoute<T: Sendable>(_ body: @Sendable (PrimaryRoute) async throws -> T) async throws -> T {
            let names = state.withLock { $0.roles.indices.map { PostgresHost("db\($0)") } }
            let route = PrimaryRoute(hosts: names, logger: Logger(label: "test")) { host in
                let index = names.firstIndex(of: host) ?? 0
                if self.state.withLock({ $0.silent.contains(index) }) { try? await Task.sleep(for: .seconds(60)) }
                return self.state.withLock { state in
                    state.asked += 1
                    return state.roles[index]
                }
            }
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await route.run() }
                defer { group.cancelAll() }
                return try await body(route)
            }
        }

        /// Waits (a while at most) until the hosts were asked `count` times in all.
        func waitUntilAsked(_ count: Int) async throws {
            let deadline = ContinuousClock.now + .seconds(20)
            while asked < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test func oneHostIsThePrimaryWithoutBeingAsked() async throws {
        let hosts = Hosts([.standby])
        try await hosts.withRoute { route in
            let primary = try await route.primary()
            #expect(primary.host == 0)
            route.lost(primary)
            #expect(try await route.primary() == primary)
        }
        #expect(hosts.asked == 0)
    }

    @Test func theHostTakingWritesIsFoundAndFoundAgainAfterAFailover() async throws {
        let hosts = Hosts([.standby, .primary, .unreachable])
        try await hosts.withRoute { route in
            let first = try await route.primary()
            #expect(first.host == 1)
            hosts.set([.primary, .unreachable, .standby])
            #expect(try await route.primary() == first, "no transaction said the primary was lost yet")
            route.lost(first)
            #expect(try await route.primary().host == 0)
        }
    }

    /// A failure reported by a transaction sent before the primary was found again moves nothing: without this, every
    /// transaction cut by one failover would drop the route once more.
    @Test func aLossReportedAgainstAnEarlierFindingLeavesTheRouteAlone() async throws {
        let hosts = Hosts([.primary, .standby])
        try await hosts.withRoute { route in
            let first = try await route.primary()
            route.lost(first)
            let second = try await route.primary()
            #expect(second.host == 0 && second != first)
            let asked = hosts.asked
            route.lost(first)
            #expect(try await route.primary() == second)
            #expect(hosts.asked == asked)
        }
    }

    @Test func aHostThatDoesNotAnswerDelaysNothing() async throws {
        let hosts = Hosts([.unreachable, .primary], silent: [0])
        try await hosts.withRoute { route in
            let started = ContinuousClock.now
            let primary = try await route.primary()
            #expect(primary.host == 1)
            #expect(ContinuousClock.now - started < .seconds(30), "the silent host would take a minute")
        }
    }

    @Test func whileNoHostTakesWritesTransactionsWaitAndGoOnWhenOneDoes() async throws {
        let hosts = Hosts([.standby, .unreachable])
        try await hosts.withRoute { route in
            async let waiting = route.primary()
            try await hosts.waitUntilAsked(6)
            #expect(hosts.asked >= 6, "asked again and again while a transaction waits")
            hosts.set([.standby, .primary])
            #expect(try await waiting.host == 1)
        }
    }

    @Test func aWaitGivenUpEndsAndTheHostsAreNoLongerAsked() async throws {
        let hosts = Hosts([.standby, .standby])
        try await hosts.withRoute { route in
            let waiting = Task { try await route.primary() }
            try await hosts.waitUntilAsked(2)
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            try await Task.sleep(for: .milliseconds(500))
            let asked = hosts.asked
            try await Task.sleep(for: .milliseconds(1500))
            // A round under way when the wait ended may still finish (two hosts asked); a search going on would ask
            // again every quarter of a second.
            #expect(hosts.asked - asked <= 2)
        }
    }

    /// A transaction that ran out of time puts the primary in doubt: asked, a busy primary stays, a lost one is left.
    @Test func aDoubtedPrimaryIsAskedAndKeptOnlyIfItStillTakesWrites() async throws {
        let hosts = Hosts([.primary, .standby])
        try await hosts.withRoute { route in
            let first = try await route.primary()
            let asked = hosts.asked
            route.doubt()
            try await hosts.waitUntilAsked(asked + 1)
            #expect(try await route.primary() == first)
            hosts.set([.standby, .primary])
            route.doubt()
            try await hosts.waitUntilAsked(asked + 2)
            #expect(try await route.primary().host == 1)
        }
    }
}
