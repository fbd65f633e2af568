import Foundation
import LatchkeyDomain

/// Serializes a `MailMessage` as an RFC 5322 / MIME `multipart/alternative` message in 7-bit ASCII with CRLF line endings.
///
/// Everything is written by hand (date, RFC 2047 encoded words, quoted-printable, folding) rather than through
/// `DateFormatter` or a mail library, so the bytes are identical on every platform and locale and can be golden-tested.
/// Lines are kept within 76 characters: the RFC 2045 limit for quoted-printable and the RFC 2047 limit for encoded words.
package enum MIMEWriter {
    /// The longest line written, soft breaks and folds included (RFC 2045 §6.7, RFC 2047 §2).
    static let maxLineLength = 76

    /// 39 UTF-8 bytes become 52 base64 characters, a 64-character encoded word: it fits after `Subject: ` within 76 columns,
    /// well under the 75-character limit of RFC 2047 §2.
    static let maxEncodedWordBytes = 39

    /// Writes the whole message. A `nil` boundary is random; a given one must start with `=_` and have at most 70 characters.
    ///
    /// Quoted-printable output can never contain `=_` (an `=` is always followed by a hex digit or a line break), so a
    /// boundary with that prefix cannot collide with either body. Callers pass a fixed one only for golden tests.
    package static func data(for message: MailMessage, boundary: String? = nil) throws(MailError) -> [UInt8] {
        let boundary = boundary ?? makeBoundary()
        try validate(boundary: boundary)
        var lines: [String] = []
        lines += foldedLines(name: "Date", value: formatDate(message.date))
        lines += foldedLines(name: "From", value: message.from.headerValue)
        lines += foldedLines(name: "To", value: message.to.headerValue)
        lines += subjectLines(message.subject)
        lines += foldedLines(name: "Message-ID", value: message.messageID)
        lines += ["MIME-Version: 1.0", "Auto-Submitted: auto-generated"]
        lines += foldedLines(name: "Content-Type", value: "multipart/alternative; boundary=\"\(boundary)\"")
        lines.append("")
        for (subtype, body) in [("plain", message.textBody), ("html", message.htmlBody)] {
            lines.append("--\(boundary)")
            lines.append("Content-Type: text/\(subtype); charset=utf-8")
            lines.append("Content-Transfer-Encoding: quoted-printable")
            lines.append("")
            lines.append(quotedPrintable(body))
        }
        lines.append("--\(boundary)--")
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    /// A fresh `=_`-prefixed boundary; see `data(for:boundary:)` for why the prefix matters.
    package static func makeBoundary() -> String {
        // 18 random bytes are 24 base64url characters (`A-Z a-z 0-9 - _`), all boundary characters.
        "=_" + ServerSecret.makeToken(bytes: 18)
    }

    /// Formats `date` in UTC as RFC 5322 §3.3 wants it, for example `Sun, 22 Nov 2026 04:16:11 +0000`.
    ///
    /// The civil date comes from Howard Hinnant's `civil_from_days`, which avoids `Calendar` and locale entirely.
    /// Dates outside 1900...9999 are clamped, since RFC 5322 years have four digits and NaN or huge values would trap.
    package static func formatDate(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? 0 : min(max(interval, -2_208_988_800), 253_402_300_799)
        let seconds = Int64(clamped.rounded(.down))
        let days = (seconds >= 0 ? seconds : seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        let time = [secondOfDay / 3_600, secondOfDay / 60 % 60, secondOfDay % 60].map { padded($0, to: 2) }.joined(separator: ":")
        return "\(weekday), \(padded(day, to: 2)) \(months[Int(month - 1)]) \(padded(year, to: 4)) \(time) +0000"
    }

    /// Splits `text` into RFC 2047 `=?UTF-8?B?…?=` words of at most `maxEncodedWordBytes` bytes each.
    ///
    /// Words break between characters (grapheme clusters) so clients never show half a character; a single cluster
    /// too long for one word is split between Unicode scalars, which still never cuts a UTF-8 sequence.
    package static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        func flush() {
            if !chunk.isEmpty { words.append("=?UTF-8?B?\(Data(chunk).base64EncodedString())?=") }
            chunk = []
        }
        func append(_ bytes: [UInt8]) {
            if chunk.count + bytes.count > maxEncodedWordBytes { flush() }
            chunk += bytes
        }
        for character in text {
            let bytes = Array(String(character).utf8)
            if bytes.count <= maxEncodedWordBytes {
                append(bytes)
            } else {
                character.unicodeScalars.forEach { append(Array(String($0).utf8)) }
            }
        }
        flush()
        return words
    }

    /// Encodes `text` as RFC 2045 §6.7 quoted-printable with CRLF hard line breaks (CRLF, CR and LF all count as one).
    ///
    /// Besides `=`, non-printable and non-ASCII bytes, this escapes whitespace at the end of a line (which transports
    /// may strip) and a `.` starting a line (which a careless SMTP client might read as the end of data).
    package static func quotedPrintable(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8 + 16)
        var lineStart = 0
        var index = 0
        while index <= bytes.count {
            guard index == bytes.count || bytes[index] == 0x0D || bytes[index] == 0x0A else {
                index += 1
                continue
            }
            if lineStart > 0 { output += [0x0D, 0x0A] }
            appendQuotedPrintableLine(bytes[lineStart..<index], to: &output)
            // CRLF is one break; a lone CR or LF is one too.
            index += index + 1 < bytes.count && bytes[index] == 0x0D && bytes[index + 1] == 0x0A ? 2 : 1
            lineStart = index
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `Name: value` folded before spaces so lines stay within `maxLineLength` where possible (RFC 5322 §2.2.3).
    ///
    /// A single word longer than a line is left whole, since folding may only happen at whitespace.
    package static func foldedLines(name: String, value: String) -> [String] {
        // A token is a run of spaces followed by a run of other characters, so every fold happens before whitespace.
        var tokens: [String] = []
        var previous: Character = " "
        for character in value.isEmpty ? "\(name):" : "\(name): \(value)" {
            if tokens.isEmpty || (character == " " && previous != " ") { tokens.append("") }
            tokens[tokens.count - 1].append(character)
            previous = character
        }
        var lines: [String] = []
        var current = ""
        for token in tokens {
            let hasText = token.contains { $0 != " " }
            if !current.isEmpty, hasText, current.utf8.count + token.utf8.count > maxLineLength {
                lines.append(current)
                current = token
            } else {
                current += token
            }
        }
        lines.append(current)
        return lines
    }

    /// The `Subject` header: plain ASCII when that folds cleanly and cannot be misread, otherwise RFC 2047 encoded words.
    ///
    /// Plain text containing `=?` is encoded too, because a client would otherwise decode it as an encoded word;
    /// leading and trailing spaces are encoded because parsers strip them from plain header values.
    private static func subjectLines(_ subject: String) -> [String] {
        let plain = foldedLines(name: "Subject", value: subject)
        let isPlainSafe =
            subject.unicodeScalars.allSatisfy(\.isASCII) && !subject.contains("=?") && !subject.hasPrefix(" ")
            && !subject.hasSuffix(" ") && plain.allSatisfy { $0.utf8.count <= maxLineLength }
        return isPlainSafe ? plain : foldedLines(name: "Subject", value: encodedWords(subject).joined(separator: " "))
    }

    /// Encodes one logical line, inserting soft breaks (`=` CRLF) so no physical line exceeds `maxLineLength`.
    private static func appendQuotedPrintableLine(_ bytes: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var lineLength = 0
        for index in bytes.indices {
            let byte = bytes[index]
            let isLast = index == bytes.endIndex - 1
            var width = isQuotedPrintableLiteral(byte, isLast: isLast, isLineStart: lineLength == 0) ? 1 : 3
            // The last byte may use the final column; others must leave room for the soft break's `=`.
            if lineLength + width > (isLast ? maxLineLength : maxLineLength - 1) {
                output += [UInt8(ascii: "="), 0x0D, 0x0A]
                lineLength = 0
                width = isQuotedPrintableLiteral(byte, isLast: isLast, isLineStart: true) ? 1 : 3
            }
            if width == 1 {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "="), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]]
            }
            lineLength += width
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Whether `byte` stands for itself rather than as `=XX` (RFC 2045 §6.7 rules 1 to 3).
    private static func isQuotedPrintableLiteral(_ byte: UInt8, isLast: Bool, isLineStart: Bool) -> Bool {
        switch byte {
        case 0x09, 0x20: !isLast
        case UInt8(ascii: "."): !isLineStart
        case UInt8(ascii: "="): false
        case 0x21...0x7E: true
        default: false
        }
    }

    /// RFC 2046 §5.1.1 boundary characters, restricted to our `=_` prefix; see `data(for:boundary:)`.
    private static func validate(boundary: String) throws(MailError) {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'()+_,-./:=?")
        guard boundary.hasPrefix("=_"), boundary.count <= 70, boundary.allSatisfy(allowed.contains) else {
            throw .invalidHeader("MIME boundary must start with =_ and use at most 70 boundary characters")
        }
    }

    /// Left-pads with zeros; `String(format:)` is avoided to keep formatting independent of Foundation locale handling.
    private static func padded(_ value: Int64, to width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(width - digits.count, 0)) + digits
    }
}
