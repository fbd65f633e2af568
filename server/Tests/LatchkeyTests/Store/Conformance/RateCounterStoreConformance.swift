import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct RateCounterStoreConformance {
    /// A window opens at the first attempt, counts up to its limit, then counts nothing until it ends and restarts.
    @Test(arguments: StoreKind.all) func aWindowCountsUpToItsLimitAndRestartsWhenItEnds(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            func count(at seconds: Int) async throws -> RateWindow? {
                try await store.write { try await $0.countRateAttempt(key: "k", at: seconds, windowSeconds: 60, limit: 3) }
            }
            var counted: [RateWindow?] = []
            for seconds in [100, 110, 120, 130] { counted.append(try await count(at: seconds)) }
            #expect(counted == [RateWindow(count: 1, endsAt: 160), RateWindow(count: 2, endsAt: 160), RateWindow(count: 3, endsAt: 160), nil])
            #expect(try await store.read { try await $0.rateWindow(key: "k", at: 130) } == RateWindow(count: 3, endsAt: 160))
            #expect(try await store.read { try await $0.rateWindow(key: "k", at: 160) } == nil)
            #expect(try await count(at: 160) == RateWindow(count: 1, endsAt: 220))
        }
    }

    /// Only the first refusal of a full window is marked (and audited by the limiter); later ones find it past the limit.
    @Test(arguments: StoreKind.all) func onlyTheFirstRefusalOfAWindowIsMarked(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                for _ in 0..<2 { _ = try await tx.countRateAttempt(key: "k", at: 100, windowSeconds: 60, limit: 2) }
            }
            var marks: [Bool] = []
            for _ in 0..<3 { marks.append(try await store.write { try await $0.markRateWindowRefused(key: "k", at: 101, limit: 2) }) }
            #expect(marks == [true, false, false])
            #expect(try await store.read { try await $0.rateWindow(key: "k", at: 101) } == RateWindow(count: 3, endsAt: 160))
            #expect(try await store.write { try await $0.markRateWindowRefused(key: "other", at: 101, limit: 2) } == false)
        }
    }
}
