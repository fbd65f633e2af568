/// A phone number as Latchkey stores, compares and texts it: E.164, a `+`, a country calling code in service and a
/// national number of a length that code's regions use (libphonenumber's metadata, `CallingCode`).
///
/// Firebase accepts any string that starts with `+` (its emulator's `isValidPhoneNumber` says so, and its servers
/// then normalize); Latchkey normalizes too, dropping the spaces, dots, dashes and parentheses people type, but refuses
/// what no carrier could deliver: a text to an impossible number costs the operator money and proves nothing.
package struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The E.164 form, `+` and digits only.
    package let value: String
    package let callingCode: Int
    /// The region (ISO 3166 alpha-2, `001` for a non-geographic service) the number belongs to.
    package let region: String

    /// E.164's limit: fifteen digits after the `+`.
    static let maximumDigits = 15
    private static let separators: Set<Character> = [" ", "-", ".", "(", ")", "\u{A0}"]

    /// Normalizes and checks `raw`; `nil` when it is not a plausible E.164 number.
    package init?(_ raw: String) {
        let trimmed = raw.trimmingSpaces()
        guard trimmed.first == "+", trimmed.utf8.count <= 40 else { return nil }
        let rest = trimmed.dropFirst().filter { !Self.separators.contains($0) }
        guard (2...Self.maximumDigits).contains(rest.count), rest.allSatisfy(\.isASCIIDigit), let split = CallingCode.split(Substring(rest)),
            split.callingCode.lengths.contains(split.national.count)
        else { return nil }
        value = "+" + rest
        callingCode = split.code
        region = split.callingCode.region(of: String(split.national))
    }

    package var description: String { value }

    /// Firebase's masking, for a sign-in challenge's `phoneInfo`: every digit but the last four is `*`
    /// (firebase-tools' `obfuscatePhoneNumber`).
    package var masked: String {
        let digits = value.dropFirst()
        return "+" + String(repeating: "*", count: max(digits.count - 4, 0)) + digits.suffix(4)
    }

    /// A form safe for logs and the audit trail: the calling code and the last two digits (`+44*******56`).
    package var redacted: String {
        let digits = value.dropFirst()
        let code = String(callingCode)
        return "+" + code + String(repeating: "*", count: max(digits.count - code.count - 2, 0)) + digits.suffix(2)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
