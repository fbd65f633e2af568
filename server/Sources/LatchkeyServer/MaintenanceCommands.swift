import ArgumentParser
import Foundation
import Latchkey
import LatchkeyDomain
import Logging

/// `latchkey migrate`: brings the database schema up to date and says what changed (`serve` does the same at
/// start, and refuses a database from a newer version).
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply pending database migrations and list them.")

    @OptionGroup var options: ConfigOption

    func run() async throws {
        let configuration = try await options.load()
        let opened = try await openExistingStore(configuration)
        if opened.appliedMigrations.isEmpty {
            print("\(opened.summary): schema is current")
        } else {
            opened.appliedMigrations.forEach { print("applied \($0)") }
        }
    }
}

/// `latchkey audit --email`: the security events of one address, newest first.
struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Print the audit events (codes issued, sign-ins, strips, revocations, blocks) of an email address.")

    @OptionGroup var options: ConfigOption

    @Option(help: "The email address whose events to print.")
    var email: String

    @Option(help: "How many events to print at most.")
    var limit = 100

    /// Checked here rather than in `run()`, so that ArgumentParser answers with this subcommand's usage, not the top level's.
    func validate() throws {
        guard EmailAddress(email) != nil else { throw ValidationError("\(email) is not an email address") }
    }

    func run() async throws {
        guard let address = EmailAddress(email) else { throw ValidationError("\(email) is not an email address") }
        let configuration = try await options.load()
        let store = try await openExistingStore(configuration).store
        let now = Date()
        let (events, coolOff) = try await store.read { [limit] in
            (try await $0.auditEvents(email: address, limit: limit), try await $0.coolOff(for: address, at: now))
        }
        if let coolOff {
            print("on cool-off until \(coolOff.formatted(.iso8601)) (\"this wasn't me\"); end it with `latchkey cool-off lift --email \(address.value.displaySafe)`")
        }
        guard !events.isEmpty else {
            print("no audit events for \(address.value)")
            return
        }
        print("time\tevent\taccount\tip\tuser agent\tdetail")
        for event in events {
            let fields = [
                event.at.formatted(.iso8601), event.kind.rawValue, event.accountID ?? "-", event.requester.ipAddress ?? "-",
                event.requester.userAgent ?? "-", event.detail ?? "-",
            ]
            // Rows hold outside text (a User-Agent, an admin-chosen uid): nothing in it may drive or reorder the terminal.
            print(fields.map(\.displaySafe).joined(separator: "\t"))
        }
    }
}
