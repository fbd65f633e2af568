/// A mailbox (`addr@example.com` or `Name <addr@example.com>`), validated once so that no header built from it can be injected into.
///
/// The address rules are deliberately stricter than RFC 5322: an ASCII dot-atom local part and a host-name domain.
/// Quoted local parts, domain literals and internationalized (SMTPUTF8) addresses are refused, because sign-in mail
/// never needs them and each one widens what a crafted address could smuggle into a header.
/// Any display name is accepted except one containing control characters; it is quoted or RFC 2047 encoded when rendered.
package struct MailAddress: Sendable, Equatable {
    /// The bare `local@domain` address, as given.
    package let address: String
    /// The human-readable name shown by mail clients, or `nil`; an empty name is stored as `nil`.
    package let displayName: String?

    /// Validates `address` and `displayName`, throwing `MailError.invalidAddress` with a reason that never contains the address.
    package init(address: String, displayName: String? = nil) throws(MailError) {
        try Self.validate(address: address)
        if let displayName, displayName.containsControlCharacters {
            throw .invalidAddress("display name contains a control character")
        }
        self.address = address
        self.displayName = displayName?.isEmpty == true ? nil : displayName
    }

    /// The part after `@`, used for instance to make message IDs in the sender's domain.
    package var domain: String {
        String(address.split(separator: "@", omittingEmptySubsequences: false).last ?? "")
    }

    /// The unfolded header value for `From` / `To`; always 7-bit ASCII.
    package var headerValue: String {
        guard let displayName else { return address }
        return "\(Self.encodedPhrase(displayName)) <\(address)>"
    }

    /// RFC 5322 `specials`: an atom phrase containing any of them must be quoted.
    private static let specials = Set("()<>[]:;@\\,.\"")

    /// RFC 5322 `atext` other than letters and digits; together with `.` these may appear in a dot-atom local part.
    private static let atextSymbols = Set("!#$%&'*+-/=?^_`{|}~")

    /// Renders a display name so that clients show exactly `name`: encoded words when non-ASCII, a quoted string when it
    /// holds specials, runs of spaces, or something that looks like an encoded word (which must not be decoded), else as is.
    private static func encodedPhrase(_ name: String) -> String {
        if !name.unicodeScalars.allSatisfy(\.isASCII) {
            return MIMEWriter.encodedWords(name).joined(separator: " ")
        }
        let needsQuoting =
            name.contains(where: specials.contains) || name.contains("=?") || name.hasPrefix(" ")
            || name.hasSuffix(" ") || name.contains("  ")
        guard needsQuoting else { return name }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }

    /// Checks the address shape; each failure has its own constant reason so an operator can tell what was wrong.
    private static func validate(address: String) throws(MailError) {
        if address.isEmpty { throw .invalidAddress("address is empty") }
        if address.utf8.count > 254 { throw .invalidAddress("address is longer than 254 characters") }
        if address.containsControlCharacters { throw .invalidAddress("address contains a control character") }
        if !address.unicodeScalars.allSatisfy(\.isASCII) { throw .invalidAddress("address contains a non-ASCII character") }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .invalidAddress("address must contain exactly one @") }
        let local = parts[0]
        let domain = parts[1]
        if local.isEmpty { throw .invalidAddress("address has an empty local part") }
        if local.utf8.count > 64 { throw .invalidAddress("address local part is longer than 64 characters") }
        let isLocalCharacter = { (c: Character) in c.isLetter || c.isNumber || c == "." || atextSymbols.contains(c) }
        if !local.allSatisfy(isLocalCharacter) { throw .invalidAddress("address contains a character not allowed in a local part") }
        if local.hasPrefix(".") || local.hasSuffix(".") || local.contains("..") {
            throw .invalidAddress("address local part has a misplaced dot")
        }
        if domain.isEmpty { throw .invalidAddress("address has an empty domain") }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        let isHostLabel = { (label: Substring) in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        }
        if !labels.allSatisfy(isHostLabel) { throw .invalidAddress("address domain is not a valid host name") }
    }
}
