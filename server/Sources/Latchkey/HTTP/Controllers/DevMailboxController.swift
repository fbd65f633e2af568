import Foundation
import Hummingbird

/// `GET /__/dev/mailbox`: the emails the file transport wrote, rendered, and the texts the file gateway wrote, so a
/// newcomer needs no SMTP server and no SMS provider.
///
/// Registered in development mode only (production answers 404). Each message page shows the text part and the
/// links in it; the HTML part is served apart, into a sandboxed frame that runs no script and loads nothing.
struct DevMailboxController {
    static let path = "/__/dev/mailbox"

    let mailbox: DevelopmentMailbox
    let texts: DevelopmentTexts
    let pages: PageRenderer
    let isFileTransport: Bool
    let isFileGateway: Bool

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(RouterPath(Self.path), use: list)
            .get(RouterPath(Self.path + "/{id}"), use: show)
            .get(RouterPath(Self.path + "/{id}/html"), use: html)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let rows = try await mailbox.entries().map {
            MailboxPage.Row(id: $0.id, to: $0.message.to, subject: $0.message.subject, date: $0.message.date)
        }
        let nonce = HTMLPage.makeNonce()
        let texts = try await texts.entries().map { MailboxPage.TextRow(to: $0.to, body: $0.body) }
        let page = MailboxPage(
            nonce: nonce, messages: rows, directory: mailbox.directory.path, isFileTransport: isFileTransport, texts: texts,
            textsDirectory: self.texts.directory.path, isFileGateway: isFileGateway)
        return HTMLPage.response(
            html: pages.developmentPage(page, named: "dev/mailbox.html"), contentSecurityPolicy: HTMLPage.contentSecurityPolicy(nonce: nonce))
    }

    @Sendable func show(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, message) = try await message(context)
        let nonce = HTMLPage.makeNonce()
        let page = MessagePage(nonce: nonce, id: id, message: message)
        return HTMLPage.response(
            html: pages.developmentPage(page, named: "dev/message.html"),
            contentSecurityPolicy: HTMLPage.contentSecurityPolicy(nonce: nonce, frameSources: "'self'"))
    }

    /// The HTML part as the email client would show it: inline styles and data images only, no script (the CSP
    /// `sandbox` makes it an opaque origin), framed by the message page alone; links open in the whole window.
    @Sendable func html(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (_, message) = try await message(context)
        guard let html = message.htmlBody else { throw APIError.notFound }
        return HTMLPage.response(
            html: Self.openingLinksInTheWindow(html),
            contentSecurityPolicy:
                "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; "
                + "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation")
    }

    private func message(_ context: AppRequestContext) async throws -> (String, ReceivedMessage) {
        guard let id = context.parameters.get("id"), let message = try await mailbox.message(id: id) else { throw APIError.notFound }
        return (id, message)
    }

    /// Puts `<base target="_top">` at the start of the head, so a click on the email's button leaves the frame.
    static func openingLinksInTheWindow(_ html: String) -> String {
        let base = #"<base target="_top">"#
        guard let head = html.range(of: "<head>", options: .caseInsensitive) else { return base + html }
        return html.replacingCharacters(in: head, with: html[head] + base)
    }
}
