/// Who asked for a link, as far as the server can tell, so the email can say "if this wasn't you, ignore it".
package struct RequesterSummary: Sendable, Equatable {
    package var ipAddress: String?
    package var userAgent: String?

    package init(ipAddress: String? = nil, userAgent: String? = nil) {
        self.ipAddress = ipAddress
        self.userAgent = userAgent
    }
}
