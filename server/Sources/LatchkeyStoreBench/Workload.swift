import Foundation
import Latchkey
import LatchkeyDomain

/// A warm-up and a measured run of one scenario, each with its inputs made beforehand (new addresses and code hashes,
/// and for a completion its codes planted), so that only the store calls are timed.
struct Workload {
    let replay: StoreReplay
    let secret: ServerSecret
    let tasks: Int
    /// Operations per second the warm-up's inputs are made for; the warm-up's own rate sizes the measured run's.
    static let warmupRate = 20_000.0
    /// Inputs made per input the measured run is expected to use, as `scripts/bench` makes codes.
    static let margin = 1.4

    func measure(_ scenario: StoreBenchArguments.Scenario, warmup: Int, duration: Int) async throws -> LoadRun.Outcome {
        let warmedUp = try await run(scenario, inputs: Int(Self.warmupRate) * warmup, seconds: warmup)
        // A warm-up whose tasks ran dry was faster than its inputs allowed.
        let rate = warmedUp.perSecond * (warmedUp.exhaustedTasks > 0 ? 2 : 1)
        return try await run(scenario, inputs: Int(rate * Double(duration) * Self.margin) + 8 * tasks, seconds: duration)
    }

    private func run(_ scenario: StoreBenchArguments.Scenario, inputs count: Int, seconds: Int) async throws -> LoadRun.Outcome {
        let inputs = makeInputs(count)
        let replay = replay
        let load = LoadRun(tasks: tasks, duration: .seconds(seconds))
        switch scenario {
        case .send:
            return try await load.run(inputs: inputs) { try await replay.send($0) }
        case .complete:
            try await replay.plant(inputs.flatMap { $0 })
            return try await load.run(inputs: inputs) { try await replay.complete($0) }
        }
    }

    /// `count` new addresses with the hashes of fresh codes, dealt out to the tasks.
    private func makeInputs(_ count: Int) -> [[StoreReplay.Send]] {
        let tag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let perTask = (count + tasks - 1) / tasks
        return (0..<tasks).map { task in
            (0..<perTask).compactMap { index in
                EmailAddress("\(tag)t\(task)n\(index)@example.com").map {
                    StoreReplay.Send(email: $0, codeHash: LinkCode.key(LinkCode.make(at: Date()), secret: secret))
                }
            }
        }
    }
}
