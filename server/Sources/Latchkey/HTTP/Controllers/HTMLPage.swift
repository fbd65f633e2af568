import HTTPTypes
import Hummingbird
import LatchkeyDomain

/// The headers and body of a page Latchkey renders itself: it loads nothing from anywhere, runs no inline script,
/// cannot be framed, and keeps its URL (which may hold a code) out of caches and `Referer` headers.
struct HTMLPage {
    /// A fresh nonce for the page's one inline `<style>`.
    static func makeNonce() -> String { ServerSecret.makeToken(bytes: 16) }

    /// `default-src 'none'` with the style nonce; `frameAncestors` is `'none'` except for the mailbox's message frame.
    /// Each page allows what it needs beyond that: its one script file (`scriptFromSelf`), posting its form back
    /// (`formsToSelf`), the API calls of its script (`connectsToSelf`).
    static func contentSecurityPolicy(
        nonce: String, frameSources: String = "'none'", frameAncestors: String = "'none'", scriptFromSelf: Bool = false, formsToSelf: Bool = false,
        connectsToSelf: Bool = false
    ) -> String {
        let scripts = scriptFromSelf ? "script-src 'self'; " : ""
        let connections = connectsToSelf ? "connect-src 'self'; " : ""
        return "default-src 'none'; style-src 'nonce-\(nonce)'; \(scripts)\(connections)frame-src \(frameSources); base-uri 'none'; "
            + "form-action \(formsToSelf ? "'self'" : "'none'"); frame-ancestors \(frameAncestors)"
    }

    static let contentSecurityPolicyName = HTTPField.Name("Content-Security-Policy")!
    static let referrerPolicyName = HTTPField.Name("Referrer-Policy")!
    static let contentTypeOptionsName = HTTPField.Name("X-Content-Type-Options")!

    /// The headers every page and every answer of `/__/auth/action` carries.
    static let privateHeaders: HTTPFields = [
        .cacheControl: "no-store", referrerPolicyName: "no-referrer", contentTypeOptionsName: "nosniff",
    ]

    static func response(status: HTTPResponse.Status = .ok, html: String, contentSecurityPolicy: String) -> Response {
        var headers = privateHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        headers[contentSecurityPolicyName] = contentSecurityPolicy
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
