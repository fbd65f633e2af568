/// An email address as Latchkey stores and compares it: trimmed and lower-cased.
///
/// Validation is deliberately stricter than RFC 5321 (ASCII only, no quoted local parts, no comments): the
/// address ends up in mail headers, so anything that could bend a header is refused here, before it is stored.
/// Internationalized domains are accepted in their punycode (`xn--`) form.
package struct EmailAddress: Sendable, Hashable, CustomStringConvertible {
    package let value: String

    /// The longest address SMTP can carry (RFC 5321 §4.5.3.1.3 path limit less the brackets).
    static let maximumLength = 254
    private static let localPartSpecials = Set("!#$%&'*+-/=?^_`{|}~.")

    /// Normalizes and checks `raw`; `nil` when it is not a plausible mailbox.
    package init?(_ raw: String) {
        let value = raw.trimmingSpaces().lowercased()
        guard value.utf8.count <= Self.maximumLength else { return nil }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, Self.isValidLocalPart(parts[0]), Self.isValidDomain(parts[1]) else { return nil }
        self.value = value
    }

    package var description: String { value }

    /// The part after `@`.
    package var domain: Substring { value[value.index(after: value.lastIndex(of: "@") ?? value.startIndex)...] }

    /// A form safe for logs: the first character of the local part and the domain (`a***@example.com`).
    package var redacted: String {
        "\(value.prefix(1))***@\(domain)"
    }

    private static func isValidLocalPart(_ local: Substring) -> Bool {
        guard (1...64).contains(local.utf8.count), local.first != ".", local.last != ".", !local.contains("..") else { return false }
        return local.unicodeScalars.allSatisfy { scalar in
            scalar.isASCIIAlphanumeric || localPartSpecials.contains(Character(scalar))
        }
    }

    private static func isValidDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, domain.utf8.count <= 253 else { return false }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.utf8.count), label.first != "-", label.last != "-" else { return false }
            return label.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "-" }
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs. Line breaks are kept on purpose, so that
    /// validation refuses them instead of quietly accepting `"a@b.com\r\n"`.
    package func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
