/// Who asked for a link, as far as the server can tell, so the email can say "if this wasn't you, ignore it".
///
/// The user agent is attacker-controlled text that ends up in an email from the project's domain, so it is
/// stripped of control characters, shortened, and dropped when empty.
package struct RequesterSummary: Sendable, Equatable {
    package var ipAddress: String?
    package var userAgent: String?

    static let maximumUserAgentLength = 120

    package init(ipAddress: String? = nil, userAgent: String? = nil) {
        self.ipAddress = ipAddress
        let printable = String(String.UnicodeScalarView((userAgent ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            .trimmingSpaces()
        self.userAgent =
            printable.isEmpty
            ? nil : printable.count > Self.maximumUserAgentLength ? String(printable.prefix(Self.maximumUserAgentLength)) + "…" : printable
    }
}
