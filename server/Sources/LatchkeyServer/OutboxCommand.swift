import ArgumentParser
import Foundation
import Latchkey
import Logging

/// `latchkey outbox`: what is waiting to be delivered or was given up, and a way to try the given-up ones again.
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox", abstract: "List undelivered emails and texts (recipients redacted) and retry failed ones.")

    @OptionGroup var options: ConfigOption

    @Flag(help: "Put every failed message back in the queue; a running server delivers it within a second.")
    var retryFailed = false

    @Option(help: "How many messages to list at most.")
    var limit = 100

    func run() async throws {
        let configuration = try await options.load()
        let store = try await openExistingStore(configuration).store
        if retryFailed {
            // Due now by the clock the running servers judge claims by (PostgreSQL's, when the store is shared).
            let count = try await store.write { tx in try await tx.retryFailedMessages(now: try await tx.outboxNow(hostNow: Date())) }
            print("\(count) failed message(s) queued again")
        }
        let messages = try await store.read { [limit] in try await $0.undeliveredMessages(limit: limit) }
        guard !messages.isEmpty else {
            print("outbox is empty: every message was delivered")
            return
        }
        print("id\tstatus\tattempts\tqueued\tnext attempt\trecipient\tlast error")
        for message in messages {
            let status = message.isFailed ? "failed" : "pending"
            let fields = [
                "\(message.id)", status, "\(message.attempts)", message.createdAt.formatted(.iso8601), message.nextAttemptAt.formatted(.iso8601),
                message.recipient.redacted, message.lastError ?? "-",
            ]
            print(fields.joined(separator: "\t"))
        }
    }
}
