import Foundation

/// What the outbox keeps sealed and renders at delivery: a letter for mail (`OutboxLetter`) or a text for a phone
/// (`VerificationText`). A few hundred stored bytes and no template work when queued, and the message still says
/// exactly what it would have said then. The domain queues it; `Mail/` and `Texts/` open it (`OutboxContent+Decoding`).
package protocol OutboxContent: Codable, Sendable {
    /// What the outbox row says its sealed bytes are.
    static var format: OutboxMessage.Format { get }
}

/// A letter the outbox keeps sealed and renders into MIME at delivery (`SignInLetter`, `ActionLetter`,
/// `SecurityNotice`).
package protocol OutboxLetter: OutboxContent {}

extension OutboxContent {
    package func encoded() throws -> [UInt8] {
        Array(try JSONEncoder().encode(self))
    }

    /// The content as queued for `recipient`, sealed under `secret`.
    func sealed(for recipient: OutboxRecipient, secret: ServerSecret, at now: Date) throws -> OutboxMessage {
        OutboxMessage(recipient: recipient, format: Self.format, sealedContent: try secret.seal(encoded()), createdAt: now)
    }
}

extension OutboxLetter {
    /// The letter as queued for `recipient`, sealed under `secret`.
    package func queued(to recipient: EmailAddress, secret: ServerSecret, at now: Date) throws -> OutboxMessage {
        try sealed(for: .email(recipient), secret: secret, at: now)
    }
}
