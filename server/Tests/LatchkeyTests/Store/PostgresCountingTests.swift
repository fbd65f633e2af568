import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// Rate counting on PostgreSQL, where a writer holds the rows it changed until it commits: a window every request
/// shares (all load from one client address) must not be locked across each attempt's work (issue #39).
@Suite(.outsideProcesses, .needsPostgres) struct PostgresCountingTests {
    /// While one attempt's work is still running, a second attempt from the same address is counted, does its work
    /// and commits: the first attempt's count committed before its work began.
    @Test func aSharedWindowIsNotLockedAcrossTheWork() async throws {
        let limits = RateLimits(windows: [.completePerIP: [.init(limit: 2, seconds: 300)]])
        try await StoreRaceConformance.withServices(.postgres, limits: limits) { services in
            let checks = [RateLimiter.Check(.completePerIP, "203.0.113.7")]
            let (working, worker) = AsyncStream.makeStream(of: Void.self)
            let (release, releaser) = AsyncStream.makeStream(of: Void.self)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await services.limiter.write(counting: checks, requester: RequesterSummary()) { _ in
                        worker.yield()
                        for await _ in release { break }
                    }
                }
                for await _ in working { break }
                let second = try await withDeadline(seconds: 3) {
                    try await services.limiter.write(counting: checks, requester: RequesterSummary()) { _ in "done" }
                }
                #expect(second == "done")
                releaser.yield()
                try await group.waitForAll()
            }
            // Both were counted: the window of two is full.
            await #expect(throws: RateLimited.self) { try await services.limiter.admit(checks) }
        }
    }
}
