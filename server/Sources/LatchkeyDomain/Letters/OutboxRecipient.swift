/// Whom one outbox message goes to: an address for mail, a number for a text. Both rows live in one table, whose
/// `recipient` column keeps the plain string (`value`); the row's format says which of the two it is, so a stored
/// recipient is read back with the format it was queued under.
package enum OutboxRecipient: Sendable, Hashable, CustomStringConvertible {
    case email(EmailAddress)
    case phone(PhoneNumber)

    /// The stored `recipient` of a row of `format`; `nil` when it is not a recipient of that channel.
    package init?(stored: String, format: OutboxMessage.Format) {
        switch format.channel {
        case .email:
            guard let address = EmailAddress(stored) else { return nil }
            self = .email(address)
        case .text:
            guard let number = PhoneNumber(stored) else { return nil }
            self = .phone(number)
        }
    }

    /// The plain string the outbox stores: the address, or the E.164 number.
    package var value: String {
        switch self {
        case .email(let address): address.value
        case .phone(let number): number.value
        }
    }

    /// The form logs and `latchkey outbox` show (`a***@example.com`, `+44*******56`).
    package var redacted: String {
        switch self {
        case .email(let address): address.redacted
        case .phone(let number): number.redacted
        }
    }

    package var description: String { redacted }
}
