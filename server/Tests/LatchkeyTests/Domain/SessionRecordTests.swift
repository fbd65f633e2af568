import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct SessionRecordTests {
    /// New sessions land at the right edge of their B-tree only if their ids sort by time, across a digit change too.
    @Test func sessionIDsSortByTheirTime() {
        let times = [0, 1, 15, 16, 1_800_000_000_000, 1_800_000_000_001, 0xFFF_FFFF_FFFF].map { Date(timeIntervalSince1970: Double($0) / 1000) }
        let ids = times.map { SessionRecord.makeID(at: $0) }
        #expect(ids == ids.sorted())
        #expect(ids.allSatisfy { $0.count == 12 + 22 })
        #expect(ids[4].hasPrefix("01a3185c5000"))
    }

    /// The time is a prefix, not the id: two sessions opened in one millisecond still get ids no one can guess.
    @Test func sessionIDsOfOneMomentDiffer() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let ids = Set((0..<1_000).map { _ in SessionRecord.makeID(at: now) })
        #expect(ids.count == 1_000)
    }
}

