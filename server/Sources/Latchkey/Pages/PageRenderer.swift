import Foundation
import LatchkeyDomain
import Mustache

/// Renders the HTML pages Latchkey serves itself: the link landing page and the provider sign-in page from
/// `templates/pages/LANG/`, localized like the emails, and in development mode the mailbox pages from `templates/dev/`
/// (English only).
///
/// Templates are loaded once at start-up; a missing or broken one stops start-up, never a request.
package struct PageRenderer: Sendable {
    static let pageNames = ["action.html", "handler.html"]
    static let developmentNames = ["dev/mailbox.html", "dev/message.html"]

    static let emailActionName = "email-action.html"
    static let reportName = "not-me.html"

    private let library: MustacheLibrary
    private let languages: TemplateLanguages
    /// The email actions' page and the report page fall back to English on their own, as each email does.
    private let emailActionLanguages: TemplateLanguages
    private let reportLanguages: TemplateLanguages

    /// Checks that `templates` hold the pages; with `development` the mailbox templates must be there too.
    package init(templates: TemplateLibrary, development: Bool) throws {
        let library = templates.library
        languages = try TemplateLanguages(templates: templates, family: "pages", names: Self.pageNames)
        emailActionLanguages = try TemplateLanguages(templates: templates, family: "pages", names: [Self.emailActionName])
        reportLanguages = try TemplateLanguages(templates: templates, family: "pages", names: [Self.reportName])
        if development, let missing = Self.developmentNames.first(where: { library.getTemplate(named: $0) == nil }) {
            throw StartupError("missing development page template: expected \(templates.root)\(missing).mustache")
        }
        self.library = library
    }

    /// The landing page in `language`, or the nearest language the pages are written in.
    func actionPage(_ view: ActionPage, language: LanguageTag) -> String {
        let folder = languages.folder(for: language)
        var view = view
        view.language = folder
        return library.render(view, withTemplate: "pages/\(folder)/action.html") ?? ""
    }

    /// The landing page of an email action other than sign-in, in `language` or the nearest language it is written in.
    func emailActionPage(_ view: EmailActionPage, language: LanguageTag) -> String {
        let folder = emailActionLanguages.folder(for: language)
        var view = view
        view.language = folder
        return library.render(view, withTemplate: "pages/\(folder)/\(Self.emailActionName)") ?? ""
    }

    /// The page of a sign-in email's "this wasn't me" link, in `language` or the nearest language it is written in.
    func reportPage(_ view: SignInReportPage, language: LanguageTag) -> String {
        let folder = reportLanguages.folder(for: language)
        var view = view
        view.language = folder
        return library.render(view, withTemplate: "pages/\(folder)/\(Self.reportName)") ?? ""
    }

    /// The provider sign-in page in `language`, or the nearest language the pages are written in.
    func handlerPage(_ view: HandlerPage, language: LanguageTag) -> String {
        let folder = languages.folder(for: language)
        var view = view
        view.language = folder
        return library.render(view, withTemplate: "pages/\(folder)/handler.html") ?? ""
    }

    /// One of the development pages (`developmentNames`), which exist only when loaded with `development`.
    func developmentPage(_ view: Any, named name: String) -> String {
        library.render(view, withTemplate: name) ?? ""
    }
}
