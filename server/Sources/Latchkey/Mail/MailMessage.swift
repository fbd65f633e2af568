import Foundation
import LatchkeyDomain

/// One sign-in email, ready to be written as MIME (to an `.eml` file or over SMTP).
///
/// Every header value is checked in the initializer, so a `MailMessage` that exists can always be serialized
/// without header injection. The bodies may contain anything: quoted-printable encoding makes them safe.
package struct MailMessage: Sendable, Equatable {
    package let from: MailAddress
    package let to: MailAddress
    /// Any Unicode text without control characters; non-ASCII subjects are RFC 2047 encoded on output.
    package let subject: String
    /// The plain-text alternative; any line ending style is accepted and sent as CRLF.
    package let textBody: String
    /// The HTML alternative, shown by most clients; line endings as for `textBody`.
    package let htmlBody: String
    /// Written as the `Date` header in UTC; it comes from the caller so that tests control it.
    package let date: Date
    /// The `Message-ID` header, angle brackets included, for example `<Qx3…@example.com>`.
    package let messageID: String

    /// Checks the subject and message ID; a `nil` message ID is generated in the sender's domain.
    ///
    /// Tabs count as control characters in the subject: templates never need them and refusing them keeps the rule simple.
    package init(
        from: MailAddress,
        to: MailAddress,
        subject: String,
        textBody: String,
        htmlBody: String,
        date: Date,
        messageID: String? = nil
    ) throws(MailError) {
        if subject.containsControlCharacters {
            throw .invalidHeader("subject contains a control character")
        }
        let messageID = messageID ?? Self.makeMessageID(domain: from.domain)
        try Self.validate(messageID: messageID)
        self.from = from
        self.to = to
        self.subject = subject
        self.textBody = textBody
        self.htmlBody = htmlBody
        self.date = date
        self.messageID = messageID
    }

    /// Makes a globally unique `<id@domain>` from 24 URL-safe random characters (144 bits from the system CSPRNG),
    /// so message IDs reveal nothing about time, sequence or host.
    package static func makeMessageID(domain: String) -> String {
        "<\(ServerSecret.makeToken(bytes: 18))@\(domain)>"
    }

    /// The complete message with CRLF line endings; see `MIMEWriter.data(for:boundary:)`.
    package func mimeData(boundary: String? = nil) throws(MailError) -> [UInt8] {
        try MIMEWriter.data(for: self, boundary: boundary)
    }

    /// A message ID is `<left@right>` in printable ASCII with no spaces or extra angle brackets (RFC 5322 §3.6.4).
    private static func validate(messageID: String) throws(MailError) {
        let inner = messageID.unicodeScalars.dropFirst().dropLast()
        let isPrintable = inner.allSatisfy { (0x21...0x7E).contains($0.value) && $0 != "<" && $0 != ">" }
        let atCount = inner.filter { $0 == "@" }.count
        guard messageID.hasPrefix("<"), messageID.hasSuffix(">"), isPrintable, atCount == 1,
            inner.first != "@", inner.last != "@"
        else {
            throw .invalidHeader("message ID must look like <id@domain> in printable ASCII")
        }
    }
}
