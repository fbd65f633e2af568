import Foundation
import Mustache

/// Renders sign-in emails from the Mustache templates under `templates/email/LANG/`.
///
/// Templates are loaded once at start-up; a missing or broken one stops start-up, never a delivery.
package struct EmailRenderer: Sendable {
    /// What the templates can show.
    struct SignInView: MustacheParent {
        let appName: String
        let link: String
        let email: String
        let expiresInMinutes: Int
        let requestedAt: String
        let ipAddress: String?
        /// Recognised names only: the User-Agent itself never reaches an email (see `DeviceName`).
        let device: DeviceName

        /// Named lookups instead of swift-mustache's `Mirror` reflection, which cost more than the rest of rendering.
        func child(named name: String) -> Any? {
            switch name {
            case "appName": appName
            case "link": link
            case "email": email
            case "expiresInMinutes": expiresInMinutes
            case "requestedAt": requestedAt
            case "ipAddress": ipAddress.map { $0 as Any }
            case "browser": device.browser.map { $0 as Any }
            case "platform": device.platform.map { $0 as Any }
            default: nil
            }
        }
    }

    static let templateNames = ["sign-in.subject", "sign-in.txt", "sign-in.html"]

    private let library: MustacheLibrary
    private let languages: TemplateLanguages
    private let sender: MailAddress
    private let appName: String

    /// Checks that `templates` hold the emails in English, and that every language they are written in makes a valid message.
    package init(templates: TemplateLibrary, sender: MailAddress, appName: String) throws {
        self.library = templates.library
        self.languages = try TemplateLanguages(templates: templates, family: "email", names: Self.templateNames)
        self.sender = sender
        self.appName = appName
        try checkEveryLanguage()
    }

    /// The email `letter` describes, addressed to `recipient`, in the letter's language or the nearest one written.
    package func message(for letter: SignInLetter, to recipient: EmailAddress) throws(MailError) -> MailMessage {
        let requestedAt = Date(timeIntervalSince1970: letter.requestedAt)
        let time = requestedAt.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false))
        let view = SignInView(
            appName: appName, link: letter.link, email: recipient.value, expiresInMinutes: letter.expiresInMinutes,
            requestedAt: time + " UTC", ipAddress: letter.ipAddress, device: DeviceName(userAgent: letter.userAgent))
        let folder = "email/\(languages.folder(for: LanguageTag(letter.language) ?? .english))/"
        func render(_ name: String) -> String { library.render(view, withTemplate: folder + name) ?? "" }
        let subject = render("sign-in.subject").split(whereSeparator: \.isNewline).joined(separator: " ").trimmingSpaces()
        return try MailMessage(
            from: sender, to: MailAddress(address: recipient.value), subject: subject, textBody: render("sign-in.txt"),
            htmlBody: render("sign-in.html"), date: requestedAt, messageID: "<\(letter.messageToken)@\(sender.domain)>")
    }

    /// Mail is rendered at delivery, long after the API answered: a template whose subject cannot be a header
    /// must stop start-up instead of failing every delivery.
    private func checkEveryLanguage() throws {
        guard let publicURL = URL(string: "https://auth.example.com"), let recipient = EmailAddress("user@example.com") else { return }
        let settings = try ActionCodeSettings(continueURL: "https://app.example.com/", authorizedDomains: ["app.example.com"])
        for folder in languages.all {
            let language = LanguageTag(folder) ?? .english
            let letter = SignInLetter(
                link: SignInLink(publicURL: publicURL, code: "code", apiKey: "key", settings: settings, language: language),
                language: language, expiresInMinutes: 15, requestedAt: Date(timeIntervalSince1970: 0),
                requester: RequesterSummary(ipAddress: "192.0.2.1", userAgent: "Check"))
            do {
                _ = try message(for: letter, to: recipient)
            } catch {
                throw StartupError("email templates for \(folder) do not make a valid message: \(error)")
            }
        }
    }
}
