import Foundation

/// A letter the outbox keeps sealed and renders into MIME at delivery (`SignInLetter`, `ActionLetter`,
/// `SecurityNotice`): a few hundred stored bytes and no template work when queued, and the mail still says exactly
/// what it would have said then. The domain queues it; `Mail/` opens it (`OutboxLetter+Decoding`).
package protocol OutboxLetter: Codable, Sendable {
    /// What the outbox row says its sealed bytes are.
    static var format: OutboxMessage.Format { get }
}

extension OutboxLetter {
    package func encoded() throws -> [UInt8] {
        Array(try JSONEncoder().encode(self))
    }

    /// The letter as queued for `recipient`, sealed under `secret`.
    package func queued(to recipient: EmailAddress, secret: ServerSecret, at now: Date) throws -> OutboxMessage {
        OutboxMessage(recipient: recipient, format: Self.format, sealedContent: try secret.seal(encoded()), createdAt: now)
    }
}
