import Foundation

/// An email or a text waiting in the durable outbox, sealed under the server secret since it holds a live sign-in link
/// or code. Mail and texts share the table, its claims, leases and retries.
package struct OutboxMessage: Sendable {
    /// Which way a message leaves: through the mail transport or the SMS gateway.
    package enum Channel: String, Sendable {
        case email
        case text
    }

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
        /// A `VerificationText`, rendered into an SMS body at delivery.
        case verificationText = "verification-text"

        package var channel: Channel {
            switch self {
            case .signInLetter, .securityNotice, .actionLetter, .mime: .email
            case .verificationText: .text
            }
        }
    }

    package var id: Int64?
    /// The envelope recipient (SMTP's) or the number texted; logs show it only redacted.
    package var recipient: OutboxRecipient
    package var format: Format
    package var sealedContent: Data
    package var createdAt: Date
    package var attempts: Int

    package init(
        id: Int64? = nil, recipient: OutboxRecipient, format: Format, sealedContent: Data, createdAt: Date, attempts: Int = 0
    ) {
        self.id = id
        self.recipient = recipient
        self.format = format
        self.sealedContent = sealedContent
        self.createdAt = createdAt
        self.attempts = attempts
    }
}
