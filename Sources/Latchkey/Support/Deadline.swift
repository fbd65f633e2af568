/// The time `withDeadline` allowed ran out.
struct DeadlineExceeded: Error, CustomStringConvertible {
    let seconds: Int
    var description: String { "no answer within \(seconds) s" }
}

/// Runs `body`, throwing `DeadlineExceeded` (and cancelling it) when it takes longer than `seconds`.
func withDeadline<T: Sendable>(seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw DeadlineExceeded(seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded(seconds: seconds) }
        return first
    }
}
