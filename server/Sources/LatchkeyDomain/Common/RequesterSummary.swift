/// Who asked for a link, as far as the server can tell, so the email can say "if this wasn't you, ignore it".
///
/// The user agent is attacker-controlled text. It is kept for the audit trail without control or bidirectional
/// formatting characters and shortened; an email shows only the `device` recognised in it, never the text itself.
package struct RequesterSummary: Sendable, Equatable {
    package var ipAddress: String?
    package var userAgent: String?

    static let maximumUserAgentLength = 200

    package init(ipAddress: String? = nil, userAgent: String? = nil) {
        self.ipAddress = ipAddress
        let printable = (userAgent ?? "").displaySafe.trimmingSpaces()
        self.userAgent =
            printable.isEmpty
            ? nil : printable.count > Self.maximumUserAgentLength ? String(printable.prefix(Self.maximumUserAgentLength)) + "…" : printable
    }

    /// The browser and platform named by the user agent, from a fixed list of names.
    package var device: DeviceName { DeviceName(userAgent: userAgent) }
}
