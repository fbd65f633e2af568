import Foundation

/// Drives one operation from many concurrent tasks for a fixed time, as wrk's connections drive the server: each task
/// starts its next operation as soon as the last one returns.
struct LoadRun {
    /// What one run achieved.
    struct Outcome: Encodable {
        var operations: Int
        var seconds: Double
        var perSecond: Double
        var p50Milliseconds: Double
        var p99Milliseconds: Double
        var maxMilliseconds: Double
        /// CPU time of the whole process over the run, in cores: the writer's thread, the tasks and the store's services.
        var cpuCores: Double
        /// Tasks that ran out of prepared inputs before the time was up; a run with any is too short to count.
        var exhaustedTasks: Int
    }

    let tasks: Int
    let duration: Duration

    /// Gives each task its own list of `inputs` and runs `operation` on them in turn until the time is up or the list
    /// runs out. An error ends the whole run.
    func run<Input: Sendable>(
        inputs: [[Input]], _ operation: @escaping @Sendable (Input) async throws -> Void
    ) async throws -> Outcome {
        let clock = ContinuousClock()
        let cpuAtStart = Self.processCPUSeconds()
        let started = clock.now
        let deadline = started.advanced(by: duration)
        let perTask = try await withThrowingTaskGroup(of: (latencies: [Duration], exhausted: Bool).self) { group in
            for task in 0..<tasks {
                let mine = task < inputs.count ? inputs[task] : []
                group.addTask {
                    var latencies: [Duration] = []
                    latencies.reserveCapacity(mine.count)
                    for input in mine {
                        let start = clock.now
                        guard start < deadline else { return (latencies, false) }
                        try await operation(input)
                        latencies.append(clock.now - start)
                    }
                    return (latencies, clock.now < deadline)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let seconds = Self.seconds(clock.now - started)
        let cpu = Self.processCPUSeconds() - cpuAtStart
        let latencies = perTask.flatMap(\.latencies).sorted()
        func percentile(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            return Self.seconds(latencies[min(latencies.count - 1, Int(Double(latencies.count) * fraction))]) * 1e3
        }
        return Outcome(
            operations: latencies.count, seconds: seconds, perSecond: Double(latencies.count) / seconds, p50Milliseconds: percentile(0.5),
            p99Milliseconds: percentile(0.99), maxMilliseconds: latencies.last.map { Self.seconds($0) * 1e3 } ?? 0, cpuCores: cpu / seconds,
            exhaustedTasks: perTask.filter(\.exhausted).count)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// CPU time this process has used, user and system, on all its threads.
    private static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
