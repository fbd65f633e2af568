import Latchkey
import Logging
import Synchronization
import Testing

/// How the PostgreSQL store finds the primary among several hosts, with the hosts' answers made up: the real
/// failovers are `Tests/e2e/test_failover.py`'s.
@Suite struct PrimaryRouteTests {
    /// The roles the made-up hosts claim, and how often they were asked.
    final class Hosts: Sendable {
        private let state: Mutex<(roles: [PrimaryRoute.Role], asked: Int)>
        init(_ roles: [PrimaryRoute.Role]) { state = Mutex((roles, 0)) }

        var asked: Int { state.withLock { $0.asked } }
        func set(_ roles: [PrimaryRoute.Role]) { state.withLock { $0.roles = roles } }

        func route() -> PrimaryRoute {
            let names = state.withLock { $0.roles.indices.map { PostgresHost("db\($0)") } }
            return PrimaryRoute(hosts: names, logger: Logger(label: "test")) { host in
                self.state.withLock { state in
                    state.asked += 1
                    return state.roles[names.firstIndex(of: host) ?? 0]
                }
            }
        }
    }

    @Test func oneHostIsThePrimaryWithoutBeingAsked() async throws {
        let hosts = Hosts([.standby])
        let route = hosts.route()
        #expect(try await route.primary() == 0)
        await route.lost(0)
        #expect(try await route.primary() == 0)
        #expect(hosts.asked == 0)
    }

    @Test func theHostTakingWritesIsFoundAndFoundAgainAfterAFailover() async throws {
        let hosts = Hosts([.standby, .primary, .unreachable])
        let route = hosts.route()
        #expect(try await route.primary() == 1)
        hosts.set([.primary, .unreachable, .standby])
        #expect(try await route.primary() == 1, "no transaction said the primary was lost yet")
        await route.lost(1)
        #expect(try await route.primary() == 0)
    }

    @Test func aLossReportedForAFormerPrimaryLeavesTheRouteAlone() async throws {
        let hosts = Hosts([.primary, .standby])
        let route = hosts.route()
        #expect(try await route.primary() == 0)
        let asked = hosts.asked
        await route.lost(1)
        #expect(try await route.primary() == 0)
        #expect(hosts.asked == asked)
    }

    @Test func whileNoHostTakesWritesTransactionsWaitAndGoOnWhenOneDoes() async throws {
        let hosts = Hosts([.standby, .unreachable])
        let route = hosts.route()
        let waiting = Task { try await route.primary() }
        let deadline = ContinuousClock.now + .seconds(20)
        while hosts.asked < 6, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(hosts.asked >= 6, "asked again and again while a transaction waits")
        hosts.set([.standby, .primary])
        #expect(try await waiting.value == 1)
    }

    @Test func aWaitGivenUpEndsAndTheHostsAreNoLongerAsked() async throws {
        let hosts = Hosts([.standby, .standby])
        let route = hosts.route()
        let waiting = Task { try await route.primary() }
        while hosts.asked < 2 { try await Task.sleep(for: .milliseconds(50)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        try await Task.sleep(for: .milliseconds(500))
        let asked = hosts.asked
        try await Task.sleep(for: .milliseconds(1500))
        // A round under way when the wait ended may still finish (two hosts asked); a search going on would ask again
        // every quarter of a second.
        #expect(hosts.asked - asked <= 2)
    }
}
