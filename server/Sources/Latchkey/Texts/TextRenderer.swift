import Foundation
import LatchkeyDomain
import Mustache

/// Renders texts from `templates/sms/LANG/verification.txt.mustache`, compiled once at start-up with the other
/// templates (`TemplateLibrary`), in the text's language or the nearest one written, falling back to English.
///
/// The last line of every text is the WebOTP line (`@host #code`, W3C WebOTP's format, which iOS and Android's
/// autofill read too). It is the template's to write and the renderer's to hold: a language whose text would not end
/// with it stops start-up, never a delivery.
package struct TextRenderer: Sendable {
    /// What the template can show.
    struct VerificationView: MustacheParent {
        let appName: String
        let code: String
        let host: String
        let purpose: VerificationText.Purpose

        func child(named name: String) -> Any? {
            switch name {
            case "appName": appName
            case "code": code
            case "host": host
            case "signIn": purpose == .signIn
            case "enrollment": purpose == .enrollment
            case "challenge": purpose == .challenge
            default: nil
            }
        }
    }

    static let verificationTemplates = ["verification.txt"]

    private let library: MustacheLibrary
    private let languages: TemplateLanguages
    private let appName: String
    /// `sms.webOTPHost`: the origin host a text's code is bound to when the text names none.
    private let webOTPHost: String

    /// Checks that `templates` hold the text in English, and that every language written ends with the WebOTP line.
    package init(templates: TemplateLibrary, appName: String, webOTPHost: String) throws {
        self.library = templates.library
        self.languages = try TemplateLanguages(templates: templates, family: "sms", names: Self.verificationTemplates)
        self.appName = appName
        self.webOTPHost = webOTPHost
        try checkEveryLanguage()
    }

    /// The body of `text`: the template's lines without trailing blanks, the WebOTP line last.
    package func body(for text: VerificationText) -> String {
        let view = VerificationView(appName: appName, code: text.code, host: text.host ?? webOTPHost, purpose: text.purpose)
        let folder = languages.folder(for: LanguageTag(text.language) ?? .english)
        let rendered = library.render(view, withTemplate: "sms/\(folder)/verification.txt") ?? ""
        return rendered.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }.joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The line W3C WebOTP asks for, last in the text: `@` and the host, a space, `#` and the code.
    static func webOTPLine(host: String, code: String) -> String { "@\(host) #\(code)" }

    private func checkEveryLanguage() throws {
        for folder in languages.all {
            for purpose in VerificationText.Purpose.allCases {
                let text = VerificationText(code: "123456", purpose: purpose, language: LanguageTag(folder) ?? .english)
                let expected = Self.webOTPLine(host: webOTPHost, code: text.code)
                guard body(for: text).split(separator: "\n").last.map(String.init) == expected else {
                    throw StartupError("sms templates for \(folder) (\(purpose.rawValue)) must end with the WebOTP line \"@{{host}} #{{code}}\"")
                }
            }
        }
    }
}
