import Latchkey
import Synchronization
import Testing

/// `CounterTurns`: one task at a time per row, first come first served, rows of other tasks untouched, a task
/// cancelled while it waits leaves the line, and rows nobody else counts may be counted inline.
@Suite struct CounterTurnsTests {
    /// Who is inside a row's turn, and the most that ever were at once.
    final class Occupancy: Sendable {
        private let state = Mutex((inside: 0, most: 0, order: [Int]()))

        func enter(_ index: Int) {
            state.withLock { state in
                state.inside += 1
                state.most = max(state.most, state.inside)
                state.order.append(index)
            }
        }

        func leave() { state.withLock { $0.inside -= 1 } }
        var most: Int { state.withLock { $0.most } }
        var order: [Int] { state.withLock { $0.order } }
    }

    @Test func tasksSharingARowGoOneAtATimeInTheOrderTheyCame() async throws {
        let turns = CounterTurns()
        let occupancy = Occupancy()
        let (held, holder) = AsyncStream.makeStream(of: Void.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await turns.withTurns(["ip", "email"]) {
                    holder.yield()
                    for await _ in release { break }
                }
            }
            for await _ in held { break }
            for index in 0..<20 {
                group.addTask {
                    try await turns.withTurns(["email"]) {
                        occupancy.enter(index)
                        await Task.yield()
                        occupancy.leave()
                    }
                }
                // Each waiter is in line before the next one starts.
                try await Task.sleep(for: .milliseconds(5))
            }
            // Another row is not held up by the line.
            try await turns.withTurns(["another"]) {}
            #expect(occupancy.order.isEmpty)
            releaser.yield()
            try await group.waitForAll()
        }
        #expect(occupancy.most == 1)
        #expect(occupancy.order == Array(0..<20))
    }

    /// Rows nobody else counts are claimed for counting inline; a row another task counts inline or holds the turn of
    /// is not, and the claim ends with its body.
    @Test func onlyRowsNobodyElseCountsAreClaimedQuiet() async throws {
        let turns = CounterTurns()
        let (inside, entered) = AsyncStream.makeStream(of: Void.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let quiet = Task {
            try await turns.whileQuiet(["ip", "a"]) {
                entered.yield()
                for await _ in release { break }
                return "inline"
            }
        }
        for await _ in inside { break }
        #expect(try await turns.whileQuiet(["ip", "b"]) { "inline" } == nil)
        #expect(try await turns.whileQuiet(["b"]) { "inline" } == "inline")
        let duringTurn = try await turns.withTurns(["c"]) { try await turns.whileQuiet(["c"]) { "inline" } }
        #expect(duringTurn == nil)
        releaser.yield()
        #expect(try await quiet.value == "inline")
        #expect(try await turns.whileQuiet(["ip", "c"]) { "inline" } == "inline")
    }

    @Test func aTaskCancelledWhileItWaitsLeavesTheLine() async throws {
        let turns = CounterTurns()
        let (held, holder) = AsyncStream.makeStream(of: Void.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let holding = Task {
            try await turns.withTurns(["ip"]) {
                holder.yield()
                for await _ in release { break }
            }
        }
        for await _ in held { break }
        let waiting = Task { try await turns.withTurns(["ip"]) { "entered" } }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        releaser.yield()
        try await holding.value
        #expect(try await turns.withTurns(["ip"]) { "free" } == "free")
    }
}
