import ArgumentParser
import Foundation
import Latchkey
import Logging

/// `latchkey export --format firebase`: every account as the JSON `firebase auth:import` (and `latchkey import`) reads,
/// in a new file only its owner can read.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write every account to a new file, as the JSON `firebase auth:import` reads (hash algorithm BCRYPT).")

    /// The formats there are.
    enum Format: String, ExpressibleByArgument {
        case firebase
    }

    @OptionGroup var options: ConfigOption

    @Option(help: "The file's format: firebase.")
    var format: Format

    @Argument(help: "The file to create; an existing one is never overwritten.")
    var file: String

    func run() async throws {
        let configuration = try await options.load()
        let summary: FirebaseExport.Summary
        do {
            let store = try await openExistingStore(configuration).store
            let (exported, counted) = try await FirebaseExport.file(of: store)
            try writeNewPrivateFile(try exported.json(), to: URL(fileURLWithPath: file))
            summary = counted
        } catch let error as StartupError {
            printError("latchkey export: \(error)")
            throw ExitCode.failure
        }
        print("exported \(summary.users) users to \(file) (hash algorithm BCRYPT: `firebase auth:import \(file) --hash-algo=BCRYPT`)")
        if summary.passwordsLeftOut > 0 {
            print(
                "passwords left out: \(summary.passwordsLeftOut) (longer than 72 bytes, or not used since they were imported or pre-hashed); "
                    + "those users reset their password after the move")
        }
        if !summary.identitiesLeftOut.isEmpty {
            let counts = summary.identitiesLeftOut.sorted { $0.key < $1.key }.map { "\($0.key.displaySafe) \($0.value)" }.joined(separator: ", ")
            print("identities left out, of providers firebase auth:import refuses: \(counts); those users link them again after the move")
        }
        if summary.authenticatorsLeftOut > 0 {
            print(
                "authenticator apps left out: \(summary.authenticatorsLeftOut) (a TOTP secret cannot be imported anywhere); "
                    + "those users enroll them again after the move")
        }
    }
}
