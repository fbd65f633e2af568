import Foundation

/// Queues the emails that tell an account's owner how its sign-in changed, in the transaction that changes it, so the
/// change and its notice commit together; `nudge` wakes the outbox after the commit.
package struct SecurityNotices: Sendable {
    let secret: ServerSecret
    let outbox: OutboxSignal

    package init(secret: ServerSecret, outbox: OutboxSignal) {
        self.secret = secret
        self.outbox = outbox
    }

    /// Queues `notice` to `account`'s address; an account without one is told nothing.
    func queue(_ notice: SecurityNotice, to account: Account, at now: Date, in transaction: any StoreTransaction) async throws {
        guard let email = account.email else { return }
        try await transaction.enqueue(try notice.queued(to: email, secret: secret, at: now))
    }

    func nudge() {
        outbox.nudge()
    }
}
