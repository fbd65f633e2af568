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
    static let defaultLanguage = "en"

    private let library: MustacheLibrary
    /// Lower-cased language folder name → the folder name as found on disk.
    private let languages: [String: String]
    private let sender: MailAddress
    private let appName: String

    package init(directory: String, sender: MailAddress, appName: String) async throws {
        // swift-mustache does not descend into a symlinked top folder, common with mounted config.
        let root = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path + "/"
        let library: MustacheLibrary
        do {
            library = try await MustacheLibrary(directory: root)
        } catch {
            throw StartupError("templates in \(root) do not compile: \(error)")
        }
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: root + "email")) ?? []
        var languages: [String: String] = [:]
        for folder in folders where Self.templateNames.allSatisfy({ library.getTemplate(named: "email/\(folder)/\($0)") != nil }) {
            languages[folder.lowercased()] = folder
        }
        guard languages[Self.defaultLanguage] != nil else {
            let expected = Self.templateNames.map { "\(root)email/\(Self.defaultLanguage)/\($0).mustache" }.joined(separator: ", ")
            throw StartupError("missing email templates: expected \(expected)")
        }
        self.library = library
        self.languages = languages
        self.sender = sender
        self.appName = appName
    }

    /// The folder for `language`: the tag, then ever shorter prefixes (`zh-Hant-TW` → `zh-Hant` → `zh`), then English.
    /// Chinese regions that write Traditional characters reach `zh-Hant` when the tag names only the region.
    func folder(for language: LanguageTag) -> String {
        var subtags = language.value.lowercased().split(separator: "-").map(String.init)
        if subtags.first == "zh", subtags.count == 2, ["tw", "hk", "mo"].contains(subtags[1]) { subtags = ["zh", "hant"] }
        while !subtags.isEmpty {
            if let folder = languages[subtags.joined(separator: "-")] { return folder }
            subtags.removeLast()
        }
        return languages[Self.defaultLanguage] ?? Self.defaultLanguage
    }

    package func signInMessage(
        to recipient: EmailAddress, link: SignInLink, language: LanguageTag, expiresInMinutes: Int, requestedAt: Date, requester: RequesterSummary
    ) throws -> MailMessage {
        let view = SignInView(
            appName: appName, link: link.url, email: recipient.value, expiresInMinutes: expiresInMinutes,
            requestedAt: requestedAt.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)) + " UTC",
            ipAddress: requester.ipAddress, userAgent: requester.userAgent)
        let folder = "email/\(folder(for: language))/"
        func render(_ name: String) -> String { library.render(view, withTemplate: folder + name) ?? "" }
        let subject = render("sign-in.subject").split(whereSeparator: \.isNewline).joined(separator: " ").trimmingSpaces()
        return try MailMessage(
            from: sender, to: MailAddress(address: recipient.value), subject: subject, textBody: render("sign-in.txt"),
            htmlBody: render("sign-in.html"), date: requestedAt)
    }
}
