import ArgumentParser
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey sweep`: one retention sweep now, the one a running server makes every minute, with how many rows of each
/// kind went. For a database whose server was stopped a while, or to see what retention removes.
struct SweepCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Delete the rows whose time is over (used or expired links, delivered mail, rotated refresh tokens, revoked sessions, "
            + "ended rate-limit windows, old audit events) and say how many went.")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let configuration = try await options.load()
        let outcome = try await openExistingStore(configuration).sweeper.sweep()
        print("rows\tremoved")
        for rows in ExpiringRows.allCases {
            print("\(rows.rawValue)\t\(outcome.failures[rows] == nil ? "\(outcome.removed[rows] ?? 0)" : "failed")")
        }
        guard outcome.failures.isEmpty else {
            let failures = outcome.failures.map { "\($0.key.rawValue): \($0.value)" }.sorted().joined(separator: "; ")
            printError("latchkey sweep: some rows could not be removed (\(failures))")
            throw ExitCode.failure
        }
    }
}
