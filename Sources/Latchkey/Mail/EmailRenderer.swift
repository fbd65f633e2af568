import Foundation
import Mustache

/// Renders sign-in emails from the Mustache templates under `templates/email/LANG/`.
///
/// Templates are loaded once at start-up; a missing or broken one stops start-up, never a request.
package struct EmailRenderer: Sendable {
    /// What the templates can show.
    struct SignInView {
        let appName: String
        let link: String
        let email: String
        let expiresInMinutes: Int
        let requestedAt: String
        let ipAddress: String?
        let userAgent: String?
    }

    static let templateNames = ["sign-in.subject", "sign-in.txt", "sign-in.html"]

    private let library: MustacheLibrary
    private let languages: TemplateLanguages
    private let sender: MailAddress
    private let appName: String

    package init(directory: String, sender: MailAddress, appName: String) async throws {
        let (library, root) = try await MustacheLibrary.load(directory: directory)
        self.library = library
        self.languages = try TemplateLanguages(library: library, root: root, family: "email", names: Self.templateNames)
        self.sender = sender
        self.appName = appName
    }

    package func signInMessage(
        to recipient: EmailAddress, link: SignInLink, language: LanguageTag, expiresInMinutes: Int, requestedAt: Date, requester: RequesterSummary
    ) throws -> MailMessage {
        let view = SignInView(
            appName: appName, link: link.url, email: recipient.value, expiresInMinutes: expiresInMinutes,
            requestedAt: requestedAt.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)) + " UTC",
            ipAddress: requester.ipAddress, userAgent: requester.userAgent)
        let folder = "email/\(languages.folder(for: language))/"
        func render(_ name: String) -> String { library.render(view, withTemplate: folder + name) ?? "" }
        let subject = render("sign-in.subject").split(whereSeparator: \.isNewline).joined(separator: " ").trimmingSpaces()
        return try MailMessage(
            from: sender, to: MailAddress(address: recipient.value), subject: subject, textBody: render("sign-in.txt"),
            htmlBody: render("sign-in.html"), date: requestedAt)
    }
}
