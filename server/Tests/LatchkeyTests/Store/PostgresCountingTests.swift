import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// Rate counting on PostgreSQL, where a writer holds the rows it changed until it commits: a window every request
/// shares (all load from one client address) must not be locked across each attempt's work (issue #39).
@Suite(.outsideProcesses, .needsPostgres) struct PostgresCountingTests {
    /// While one attempt's work runs with its count inside (nobody else was counting its address), two more attempts
    /// from the address wait for it once, count apart, and then do their work side by side: each waits inside its
    /// work for the other, which only works when neither holds the address's row across its work.
    @Test func attemptsThatShareAWindowDoTheirWorkSideBySide() async throws {
        let limits = RateLimits(windows: [.completePerIP: [.init(limit: 3, seconds: 300)]])
        try await StoreRaceConformance.withServices(.postgres, limits: limits) { services in
            let checks = [RateLimiter.Check(.completePerIP, "203.0.113.7")]
            let limiter = services.limiter
            let (working, worker) = AsyncStream.makeStream(of: Void.self)
            let (release, releaser) = AsyncStream.makeStream(of: Void.self)
            let (second, secondArrived) = AsyncStream.makeStream(of: Void.self)
            let (third, thirdArrived) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await limiter.write(counting: checks, requester: RequesterSummary()) { _ in
                        worker.yield()
                        for await _ in release { break }
                    }
                }
                for await _ in working { break }
                group.addTask {
                    try await withDeadline(seconds: 5) {
                        try await limiter.write(counting: checks, requester: RequesterSummary()) { _ in
                            secondArrived.yield()
                            for await _ in third { break }
                        }
                    }
                }
                group.addTask {
                    try await withDeadline(seconds: 5) {
                        try await limiter.write(counting: checks, requester: RequesterSummary()) { _ in
                            thirdArrived.yield()
                            for await _ in second { break }
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(200))
                releaser.yield()
                try await group.waitForAll()
            }
            // All three were counted: the window of three is full.
            await #expect(throws: RateLimited.self) { try await limiter.admit(checks) }
        }
    }
}
