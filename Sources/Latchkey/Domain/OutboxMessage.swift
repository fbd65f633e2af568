import Foundation

/// An email waiting in the durable outbox; its MIME bytes are sealed under the server secret.
package struct OutboxMessage: Sendable {
    package var id: Int64?
    /// The envelope recipient, needed by SMTP; logs show it only redacted.
    package var recipient: EmailAddress
    package var sealedMessage: Data
    package var createdAt: Date
    package var attempts: Int

    package init(id: Int64? = nil, recipient: EmailAddress, sealedMessage: Data, createdAt: Date, attempts: Int = 0) {
        self.id = id
        self.recipient = recipient
        self.sealedMessage = sealedMessage
        self.createdAt = createdAt
        self.attempts = attempts
    }
}
