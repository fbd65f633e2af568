import Foundation

/// An email waiting in the durable outbox, sealed under the server secret since it holds a live sign-in link.
package struct OutboxMessage: Sendable {
    /// What the sealed bytes are.
    package enum Format: String, Sendable {
        /// A `SignInLetter`, rendered into MIME at delivery.
        case signInLetter = "sign-in"
        /// A `SecurityNotice`, rendered into MIME at delivery.
        case securityNotice = "security-notice"
        /// An `ActionLetter` (password reset, verification, address change and its undo), rendered into MIME at delivery.
        case actionLetter = "email-action"
        /// Finished MIME bytes: what Latchkey 0.6 and earlier queued, still delivered after an upgrade.
        case mime
    }

    package var id: Int64?
    /// The envelope recipient, needed by SMTP; logs show it only redacted.
    package var recipient: EmailAddress
    package var format: Format
    package var sealedContent: Data
    package var createdAt: Date
    package var attempts: Int

    package init(
        id: Int64? = nil, recipient: EmailAddress, format: Format, sealedContent: Data, createdAt: Date, attempts: Int = 0
    ) {
        self.id = id
        self.recipient = recipient
        self.format = format
        self.sealedContent = sealedContent
        self.createdAt = createdAt
        self.attempts = attempts
    }
}
