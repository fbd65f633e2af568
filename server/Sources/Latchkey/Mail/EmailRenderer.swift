import Foundation
import LatchkeyDomain
import Mustache

/// Renders the emails (sign-in, the other email actions, security notices) from the Mustache templates under
/// `templates/email/LANG/`.
///
/// Templates are loaded once at start-up; a missing or broken one stops start-up, never a delivery.
package struct EmailRenderer: Sendable {
    /// What the templates can show.
    struct SignInView: MustacheParent {
        let appName: String
        let link: String
        let typedCode: String?
        let reportLink: String?
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
            case "typedCode": typedCode.map { $0 as Any }
            case "reportLink": reportLink.map { $0 as Any }
            case "email": email
            case "expiresInMinutes": expiresInMinutes
            case "requestedAt": requestedAt
            default: EmailRenderer.requesterDetail(name, ipAddress: ipAddress, device: device)
            }
        }
    }

    /// What a security notice can show.
    struct NoticeView: MustacheParent {
        let appName: String
        let email: String
        let change: SecurityNotice.Change
        let factorName: String?
        /// A phone factor's masked number; none for an authenticator app.
        let phone: String?
        let sessionsKept: Bool
        let providerName: String?
        let changedAt: String
        let ipAddress: String?
        let device: DeviceName

        func child(named name: String) -> Any? {
            switch name {
            case "appName": appName
            case "email": email
            case "passwordAdded": change == .passwordAdded
            case "providerLinked": change == .providerLinked
            case "providerName": providerName.map { $0 as Any }
            case "factorAdded": change == .factorAdded
            case "factorRemoved": change == .factorRemoved
            case "allFactorsRemoved": change == .allFactorsRemoved
            case "codesRefused": change == .codesRefused
            case "factorName": factorName.map { $0 as Any }
            case "phone": phone.map { $0 as Any }
            case "sessionsKept": sessionsKept
            case "changedAt": changedAt
            default: EmailRenderer.requesterDetail(name, ipAddress: ipAddress, device: device)
            }
        }
    }

    /// What the email of an action other than sign-in can show.
    struct ActionView: MustacheParent {
        let appName: String
        let action: EmailAction
        let link: String
        let email: String
        let newEmail: String?
        let lifetime: Lifetime
        let requestedAt: String
        let ipAddress: String?
        let device: DeviceName

        func child(named name: String) -> Any? {
            switch name {
            case "appName": appName
            case "resetPassword": action == .resetPassword
            case "verifyEmail": action == .verifyEmail
            case "verifyAndChangeEmail": action == .verifyAndChangeEmail
            case "recoverEmail": action == .recoverEmail
            case "link": link
            case "email": email
            case "newEmail": newEmail.map { $0 as Any }
            case "expiresInMinutes": lifetime.minutes.map { $0 as Any }
            case "expiresInHours": lifetime.hours.map { $0 as Any }
            case "expiresInDays": lifetime.days.map { $0 as Any }
            case "requestedAt": requestedAt
            default: EmailRenderer.requesterDetail(name, ipAddress: ipAddress, device: device)
            }
        }
    }

    /// What every letter says of who asked: the IP address and the recognised browser and platform.
    static func requesterDetail(_ name: String, ipAddress: String?, device: DeviceName) -> Any? {
        switch name {
        case "ipAddress": ipAddress.map { $0 as Any }
        case "browser": device.browser.map { $0 as Any }
        case "platform": device.platform.map { $0 as Any }
        default: nil
        }
    }

    /// A link's lifetime in the one unit that reads naturally: minutes under two hours, hours under two days, else days.
    struct Lifetime {
        let minutes: Int?
        let hours: Int?
        let days: Int?

        init(seconds: Int) {
            let minutes = (seconds + 59) / 60
            (self.minutes, hours, days) =
                switch minutes {
                case ..<120: (minutes, nil, nil)
                case ..<2_880: (nil, (minutes + 59) / 60, nil)
                default: (nil, nil, (minutes + 1_439) / 1_440)
                }
        }
    }

    static let signInTemplates = ["sign-in.subject", "sign-in.txt", "sign-in.html"]
    static let actionTemplates = ["email-action.subject", "email-action.txt", "email-action.html"]
    static let noticeTemplates = ["security-notice.subject", "security-notice.txt", "security-notice.html"]

    private let library: MustacheLibrary
    /// Each letter falls back to English on its own: a language with sign-in emails but no notices still sends its sign-in emails.
    private let signInLanguages: TemplateLanguages
    private let actionLanguages: TemplateLanguages
    private let noticeLanguages: TemplateLanguages
    private let sender: MailAddress
    private let appName: String

    /// Checks that `templates` hold the emails in English, and that every language they are written in makes a valid message.
    package init(templates: TemplateLibrary, sender: MailAddress, appName: String) throws {
        self.library = templates.library
        self.signInLanguages = try TemplateLanguages(templates: templates, family: "email", names: Self.signInTemplates)
        self.actionLanguages = try TemplateLanguages(templates: templates, family: "email", names: Self.actionTemplates)
        self.noticeLanguages = try TemplateLanguages(templates: templates, family: "email", names: Self.noticeTemplates)
        self.sender = sender
        self.appName = appName
        try checkEveryLanguage()
    }

    /// The email `letter` describes, addressed to `recipient`, in the letter's language or the nearest one written.
    package func message(for letter: SignInLetter, to recipient: EmailAddress) throws(MailError) -> MailMessage {
        let requestedAt = Date(timeIntervalSince1970: letter.requestedAt)
        let view = SignInView(
            appName: appName, link: letter.link, typedCode: letter.typedCode, reportLink: letter.reportLink, email: recipient.value, expiresInMinutes: letter.expiresInMinutes,
            requestedAt: Self.time(requestedAt), ipAddress: letter.ipAddress, device: DeviceName(userAgent: letter.userAgent))
        let folder = "email/\(signInLanguages.folder(for: LanguageTag(letter.language) ?? .english))/"
        return try message(view, templates: folder + "sign-in", to: recipient, date: requestedAt, messageToken: letter.messageToken)
    }

    /// The email `letter` describes, addressed to `recipient`.
    package func message(for letter: ActionLetter, to recipient: EmailAddress) throws(MailError) -> MailMessage {
        let requestedAt = Date(timeIntervalSince1970: letter.requestedAt)
        let view = ActionView(
            appName: appName, action: letter.action, link: letter.link, email: letter.email, newEmail: letter.newEmail,
            lifetime: Lifetime(seconds: letter.lifetimeSeconds), requestedAt: Self.time(requestedAt), ipAddress: letter.ipAddress,
            device: DeviceName(userAgent: letter.userAgent))
        let folder = "email/\(actionLanguages.folder(for: LanguageTag(letter.language) ?? .english))/"
        return try message(view, templates: folder + "email-action", to: recipient, date: requestedAt, messageToken: letter.messageToken)
    }

    /// The email `notice` describes, addressed to `recipient`.
    package func message(for notice: SecurityNotice, to recipient: EmailAddress) throws(MailError) -> MailMessage {
        let changedAt = Date(timeIntervalSince1970: notice.changedAt)
        let view = NoticeView(
            appName: appName, email: recipient.value, change: notice.change, factorName: notice.factorName, phone: notice.maskedPhone,
            sessionsKept: notice.sessionsKept ?? false, providerName: notice.providerName, changedAt: Self.time(changedAt),
            ipAddress: notice.ipAddress, device: DeviceName(userAgent: notice.userAgent))
        let folder = "email/\(noticeLanguages.folder(for: LanguageTag(notice.language) ?? .english))/"
        return try message(view, templates: folder + "security-notice", to: recipient, date: changedAt, messageToken: notice.messageToken)
    }

    /// Renders `name.subject`, `name.txt` and `name.html` into one message.
    private func message(
        _ view: some MustacheParent, templates name: String, to recipient: EmailAddress, date: Date, messageToken: String
    ) throws(MailError) -> MailMessage {
        func render(_ part: String) -> String { library.render(view, withTemplate: "\(name).\(part)") ?? "" }
        let subject = render("subject").split(whereSeparator: \.isNewline).joined(separator: " ").trimmingSpaces()
        return try MailMessage(
            from: sender, to: MailAddress(address: recipient.value), subject: subject, textBody: render("txt"), htmlBody: render("html"), date: date,
            messageID: "<\(messageToken)@\(sender.domain)>")
    }

    private static func time(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)) + " UTC"
    }

    /// Mail is rendered at delivery, long after the API answered: a template whose subject cannot be a header
    /// must stop start-up instead of failing every delivery.
    private func checkEveryLanguage() throws {
        guard let publicURL = URL(string: "https://auth.example.com"), let recipient = EmailAddress("user@example.com") else { return }
        let settings = try ActionCodeSettings(continueURL: "https://app.example.com/", authorizedDomains: ["app.example.com"])
        let requester = RequesterSummary(ipAddress: "192.0.2.1", userAgent: "Check")
        for folder in signInLanguages.all {
            let language = LanguageTag(folder) ?? .english
            var letter = SignInLetter(
                link: ActionLink(publicURL: publicURL, code: "code", apiKey: "key", settings: settings, language: language),
                typedCode: TypedCode.make(), language: language, expiresInMinutes: 15, requestedAt: Date(timeIntervalSince1970: 0), requester: requester)
            letter.reportLink = "https://auth.example.com/__/auth/not-me?token=token"
            try check(folder) { _ = try message(for: letter, to: recipient) }
        }
        for folder in actionLanguages.all {
            let language = LanguageTag(folder) ?? .english
            for action in EmailAction.allCases where action.isForAccount {
                let letter = ActionLetter(
                    action, link: ActionLink(action, publicURL: publicURL, code: "code", apiKey: "key", settings: settings, language: language),
                    email: recipient, newEmail: recipient, language: language, lifetime: 3_600, requestedAt: Date(timeIntervalSince1970: 0),
                    requester: requester)
                try check(folder) { _ = try message(for: letter, to: recipient) }
            }
        }
        for folder in noticeLanguages.all {
            for change in SecurityNotice.Change.allCases {
                var notice = SecurityNotice(
                    change, factorName: "Phone", providerName: "Google", language: LanguageTag(folder) ?? .english, at: Date(timeIntervalSince1970: 0), requester: requester)
                try check(folder) { _ = try message(for: notice, to: recipient) }
                notice.maskedPhone = "+*******0101"
                try check(folder) { _ = try message(for: notice, to: recipient) }
            }
        }
    }

    private func check(_ folder: String, _ render: () throws -> Void) throws {
        do {
            try render()
        } catch {
            throw StartupError("email templates for \(folder) do not make a valid message: \(error)")
        }
    }
}
