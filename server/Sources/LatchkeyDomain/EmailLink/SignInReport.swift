import Foundation

/// The "this wasn't me" link of a sign-in email: its address and when the email was asked for, sealed under the server
/// secret into the link itself, so it works for `lifetime` whatever becomes of the request and stores nothing until used.
///
/// Sealing keeps the address out of the URL's readers (proxies, browser history) and makes the link unforgeable:
/// only the mailbox the email went to can report, or lift, a cool-off for its address.
package struct SignInReport: Sendable, Equatable {
    package static let path = "/__/auth/not-me"
    /// How long after the email its link still works.
    package static let lifetime: TimeInterval = 7 * 86_400

    package var email: EmailAddress
    package var issuedAt: Date

    package init(email: EmailAddress, issuedAt: Date) {
        self.email = email
        self.issuedAt = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
    }

    /// The report `token` seals, if it was sealed by this server and is not older than `lifetime` at `now`.
    package init?(token: String, secret: ServerSecret, at now: Date) {
        guard token.utf8.count <= 512, let sealed = Data(base64URLEncoded: token), let opened = try? secret.open(sealed, for: .signInReport),
            let text = String(data: opened, encoding: .utf8), let separator = text.firstIndex(of: " "),
            let seconds = TimeInterval(text[..<separator]), let email = EmailAddress(String(text[text.index(after: separator)...]))
        else { return nil }
        let issuedAt = Date(timeIntervalSince1970: seconds)
        guard issuedAt <= now, now.timeIntervalSince(issuedAt) <= Self.lifetime else { return nil }
        self.init(email: email, issuedAt: issuedAt)
    }

    /// The URL-safe token of the link.
    package func token(secret: ServerSecret) throws -> String {
        let text = "\(Int64(issuedAt.timeIntervalSince1970)) \(email.value)"
        return try secret.seal(Array(text.utf8), for: .signInReport).base64URLEncoded()
    }

    /// `PUBLIC_URL/__/auth/not-me?token=…&lang=…`: a path of its own, so an app that claims the sign-in links' path never takes it.
    package func link(publicURL: URL, secret: ServerSecret, language: LanguageTag) throws -> String {
        let base = publicURL.absoluteString.hasSuffix("/") ? String(publicURL.absoluteString.dropLast()) : publicURL.absoluteString
        return base + Self.path + "?" + QueryString.encode([("token", try token(secret: secret)), ("lang", language.value)])
    }
}
