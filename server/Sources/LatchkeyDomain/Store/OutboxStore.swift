import Foundation

/// The durable outbox. Workers claim due messages under a lease and a claim token; every later change to a claimed
/// message names the token, so a worker whose lease ran out and was taken over can no longer touch it.
package protocol OutboxStore {
    func enqueue(_ message: OutboxMessage) async throws
    /// The time due-ness and leases are judged by, read inside the transaction that uses it. Instances sharing a
    /// PostgreSQL store take the database's clock, so hosts whose clocks disagree still agree on when a lease ends or a
    /// retry falls due; SQLite, held by one machine, returns `hostNow`, so a caller's clock (a test's) stays in charge.
    func outboxNow(hostNow: Date) async throws -> Date
    /// Leases up to `limit` messages that are due at `now` until `leaseUntil`, under one new claim token.
    func claimOutboxMessages(now: Date, leaseUntil: Date, limit: Int) async throws -> [ClaimedMessage]
    /// Ends the lease of claimed messages that were not attempted.
    func releaseOutboxMessages(_ claims: [OutboxClaim]) async throws
    /// Marks a claimed message delivered and drops its sealed content; false when the claim was lost.
    func markDelivered(_ claim: OutboxClaim, at now: Date) async throws -> Bool
    /// Records a failed attempt; the message is tried again at `retryAt`, or never when it is `nil`. False when the
    /// claim was lost.
    func recordDeliveryFailure(_ claim: OutboxClaim, error: String, retryAt: Date?) async throws -> Bool

    /// Messages not yet delivered, oldest first, for operators.
    func undeliveredMessages(limit: Int) async throws -> [OutboxStatus]
    /// Puts every given-up message back in the queue, due at `now`; returns how many.
    func retryFailedMessages(now: Date) async throws -> Int
    /// How many messages wait for delivery and how long the oldest has waited at `now`.
    func outboxBacklog(now: Date) async throws -> OutboxBacklog
}

/// A message and the claim under which one worker may deliver it.
package struct ClaimedMessage: Sendable {
    package var message: OutboxMessage
    package var claim: OutboxClaim

    package init(message: OutboxMessage, claim: OutboxClaim) {
        self.message = message
        self.claim = claim
    }
}

/// One worker's hold on one message: the message and the token of the claim that leased it.
package struct OutboxClaim: Sendable, Hashable {
    package var messageID: Int64
    package var token: String

    package init(messageID: Int64, token: String) {
        self.messageID = messageID
        self.token = token
    }
}

/// What an operator sees of one undelivered message: never its content.
package struct OutboxStatus: Sendable, Equatable {
    package var id: Int64
    package var recipient: OutboxRecipient
    package var isFailed: Bool
    package var attempts: Int
    package var createdAt: Date
    package var nextAttemptAt: Date
    package var lastError: String?

    package init(id: Int64, recipient: OutboxRecipient, isFailed: Bool, attempts: Int, createdAt: Date, nextAttemptAt: Date, lastError: String?) {
        self.id = id
        self.recipient = recipient
        self.isFailed = isFailed
        self.attempts = attempts
        self.createdAt = createdAt
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
    }
}
