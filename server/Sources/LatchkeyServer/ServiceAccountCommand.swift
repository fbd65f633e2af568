import ArgumentParser
import Foundation
import Latchkey

/// `latchkey service-account create`: a key pair for a backend that mints custom tokens with Firebase's Admin SDKs.
struct ServiceAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service-account", abstract: "Make service-account credentials whose custom tokens sign users in.",
        subcommands: [Create.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new service-account JSON file (private key, mode 0600) for the Admin SDKs and print the serviceAccounts entry "
                + "that lets Latchkey verify its tokens.")

        @OptionGroup var options: ConfigOption

        @Option(name: .long, help: "The account's name, the part of its address before @ (letters, digits, hyphens).")
        var name = "backend"

        @Option(name: .long, help: "Where to write the credential file; an existing file is never overwritten.")
        var output: String

        func validate() throws {
            guard ServiceAccountCredential.isValidName(name) else { throw ValidationError("--name must be letters, digits and hyphens") }
        }

        func run() async throws {
            let configuration = try await options.load()
            let credential = try ServiceAccountCredential(name: name, projectID: configuration.projectID)
            do {
                try writeNewPrivateFile(credential.file, to: URL(fileURLWithPath: output))
            } catch let error as StartupError {
                printError("latchkey: \(error)")
                throw ExitCode.failure
            }
            printError("wrote \(output) (the private key: keep it with the backend only); add this entry to serviceAccounts in \(options.config):")
            print(credential.configurationEntry)
        }
    }
}
