import ArgumentParser
import Foundation
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey cool-off`: the addresses whose owner said "this wasn't me" from a sign-in email, and lifting one.
struct CoolOffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cool-off", abstract: "List the addresses that get no sign-in email for a while (\"this wasn't me\"), or lift one.",
        subcommands: [List.self, Lift.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every address on cool-off and when it ends.")

        @OptionGroup var options: ConfigOption

        func run() async throws {
            let configuration = try await options.load()
            let store = try await openExistingStore(configuration).store
            let now = Date()
            let coolOffs = try await store.read { try await $0.coolOffs(at: now) }
            guard !coolOffs.isEmpty else {
                print("no address is on cool-off")
                return
            }
            print("email\tuntil")
            for (email, until) in coolOffs { print("\(email.value.displaySafe)\t\(until.formatted(.iso8601))") }
        }
    }

    struct Lift: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the cool-off of an address now: sign-in emails reach it again.")

        @OptionGroup var options: ConfigOption

        @Option(help: "The email address whose cool-off to end.")
        var email: String

        func validate() throws {
            guard EmailAddress(email) != nil else { throw ValidationError("\(email) is not an email address") }
        }

        func run() async throws {
            guard let address = EmailAddress(email) else { throw ValidationError("\(email) is not an email address") }
            let configuration = try await options.load()
            let store = try await openExistingStore(configuration).store
            let lifted = try await CoolOffs.lift(address, in: store, at: Date())
            print(lifted ? "lifted the cool-off of \(address.value.displaySafe)" : "\(address.value.displaySafe) was not on cool-off")
        }
    }
}
