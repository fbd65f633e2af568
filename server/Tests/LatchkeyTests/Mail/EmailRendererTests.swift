import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite struct EmailRendererTests {
    static let languages = ["en", "fr", "de", "es", "pl", "ja", "zh-Hant", "ru", "pt"]

    func makeRenderer() async throws -> EmailRenderer {
        try await EmailRenderer(
            templates: TestTemplates.library(),
            sender: MailAddress(address: "no-reply@example.com", displayName: "Example"), appName: "Example")
    }

    static let firefoxOnAndroid = "Mozilla/5.0 (Android 15; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0"

    func render(_ language: String, userAgent: String? = firefoxOnAndroid) async throws -> MailMessage {
        let link = try ActionLink(
            publicURL: #require(URL(string: "https://auth.example.com")), code: "CODE123", apiKey: "key",
            settings: ActionCodeSettings(continueURL: "https://app.example.com/?a=1&b=2", authorizedDomains: ["app.example.com"]),
            language: #require(LanguageTag(language)))
        let letter = try SignInLetter(
            link: link, language: #require(LanguageTag(language)), expiresInMinutes: 10, requestedAt: Date(timeIntervalSince1970: 1_800_000_000),
            requester: RequesterSummary(ipAddress: "203.0.113.9", userAgent: userAgent))
        return try await makeRenderer().message(for: SignInLetter(decoding: Data(letter.encoded())), to: #require(EmailAddress("alice@example.com")))
    }

    @Test(arguments: languages)
    func everyShippedLanguageRendersTheLinkInBothParts(_ language: String) async throws {
        let message = try await render(language)
        #expect(!message.subject.isEmpty && !message.subject.contains("\n"))
        #expect(message.textBody.contains("https://auth.example.com/__/auth/action?mode=signIn&oobCode=CODE123"))
        #expect(message.htmlBody.contains("https://auth.example.com/__/auth/action?mode=signIn&amp;oobCode=CODE123"))
        #expect(message.htmlBody.contains("lang=\"\(language)\""))
        #expect(message.textBody.contains("203.0.113.9") && message.htmlBody.contains("203.0.113.9"))
        #expect(message.textBody.contains("Firefox") && message.textBody.contains("Android") && !message.textBody.contains("Gecko"))
        #expect(!message.htmlBody.contains("{{") && !message.textBody.contains("{{"))
        #expect(try message.mimeData().count > 1000)
        // The letter's request time, kept through the outbox, is what the email states and its Date header.
        #expect(message.textBody.contains("2027-01-15") && message.textBody.contains("UTC"))
        #expect(message.date == Date(timeIntervalSince1970: 1_800_000_000))
    }

    /// Each change a security notice tells of has its own subject and text in every shipped language, in that language
    /// (never English's words outside English), naming the factor and never the User-Agent.
    @Test(arguments: languages)
    func everyShippedLanguageTellsEachSecurityChangeInItsOwnWords(_ language: String) async throws {
        let renderer = try await makeRenderer()
        let recipient = try #require(EmailAddress("alice@example.com"))
        var subjects = Set<String>()
        for change in SecurityNotice.Change.allCases {
            let notice = SecurityNotice(
                change, factorName: [.factorAdded, .factorRemoved].contains(change) ? "Pixel" : nil, language: try #require(LanguageTag(language)),
                at: Date(timeIntervalSince1970: 1_800_000_000), requester: RequesterSummary(ipAddress: "203.0.113.9", userAgent: Self.firefoxOnAndroid))
            let message = try renderer.message(for: SecurityNotice(decoding: Data(JSONEncoder().encode(notice))), to: recipient)
            #expect(!message.subject.isEmpty && !message.subject.contains("\n") && message.subject.contains("Example"))
            #expect(message.htmlBody.contains("lang=\"\(language)\"") && message.textBody.contains("alice@example.com"))
            #expect(message.textBody.contains("2027-01-15") && message.textBody.contains("203.0.113.9"))
            #expect(message.textBody.contains("Pixel") == [.factorAdded, .factorRemoved].contains(change))
            #expect(!message.textBody.contains("Mozilla") && !message.htmlBody.contains("Mozilla"))
            if language != "en" { #expect(!message.subject.contains("authenticator") && !message.textBody.contains("If this was you")) }
            subjects.insert(message.subject)
        }
        #expect(subjects.count == SecurityNotice.Change.allCases.count)
    }

    /// How each language names an authenticator app and a phone in its notices (a stem both its singular and plural hold).
    static let factorWords: [String: (authenticator: String, phone: String)] = [
        "en": ("authenticator app", "phone"), "fr": ("d’authentification", "téléphone"), "de": ("Authenticator-App", "Telefon"),
        "es": ("de autenticación", "teléfono"), "pl": ("uwierzytelniając", "telefon"), "ja": ("認証アプリ", "電話番号"),
        "zh-Hant": ("驗證器應用程式", "電話號碼"), "ru": ("аутентификатор", "телефон"), "pt": ("de autenticação", "telefone"),
    ]

    /// A phone factor added or removed is told as a phone, by its masked number and never whole, in every language; the
    /// removal of every factor names both kinds, and a challenge's wrong codes name no kind, since either may have been asked.
    @Test(arguments: languages)
    func everyShippedLanguageTellsOfAPhoneByItsMaskedNumber(_ language: String) async throws {
        let (renderer, recipient) = (try await makeRenderer(), try #require(EmailAddress("alice@example.com")))
        let words = try #require(Self.factorWords[language])
        let tag = try #require(LanguageTag(language))
        let phone = SecondFactor(
            id: "factor", accountID: "alice", displayName: "Pixel", enrolledAt: Date(), method: .phone(try #require(PhoneNumber("+16505550101"))))
        let authenticator = SecondFactor(
            id: "factor", accountID: "alice", displayName: "Pixel", enrolledAt: Date(), method: .totp(sealedSecret: Data(), lastUsedStep: 0))
        func message(_ change: SecurityNotice.Change, of factor: SecondFactor? = nil) throws -> MailMessage {
            let requester = RequesterSummary(ipAddress: "203.0.113.9", userAgent: Self.firefoxOnAndroid)
            let notice =
                if let factor { SecurityNotice(change, of: factor, language: tag, at: Date(timeIntervalSince1970: 1_800_000_000), requester: requester) }
                else { SecurityNotice(change, language: tag, at: Date(timeIntervalSince1970: 1_800_000_000), requester: requester) }
            return try renderer.message(for: SecurityNotice(decoding: Data(JSONEncoder().encode(notice))), to: recipient)
        }
        for change in [SecurityNotice.Change.factorAdded, .factorRemoved] {
            let (told, asApp) = (try message(change, of: phone), try message(change, of: authenticator))
            #expect(told.subject != asApp.subject && told.textBody != asApp.textBody)
            for body in [told.textBody, told.htmlBody] {
                #expect(body.contains("+*******0101") && body.contains("Pixel") && !body.contains("5550101"))
                #expect(body.localizedCaseInsensitiveContains(words.phone) && !body.contains(words.authenticator))
            }
            #expect(asApp.textBody.contains(words.authenticator) && !asApp.textBody.contains("0101"))
        }
        let allRemoved = try message(.allFactorsRemoved).textBody
        #expect(allRemoved.contains(words.authenticator) && allRemoved.localizedCaseInsensitiveContains(words.phone))
        #expect(!(try message(.codesRefused).textBody.contains(words.authenticator)))
    }

    /// A notice queued before phones were factors (no `maskedPhone`) still opens at delivery and tells of an authenticator app.
    @Test func aNoticeQueuedBeforePhoneFactorsStillRenders() async throws {
        let queued = #"{"change":"factorAdded","factorName":"Pixel","language":"en","changedAt":1800000000,"ipAddress":"203.0.113.9","messageToken":"token"}"#
        let notice = try SecurityNotice(decoding: Data(queued.utf8))
        let message = try await makeRenderer().message(for: notice, to: #require(EmailAddress("alice@example.com")))
        #expect(message.subject == "An authenticator was added to your Example account")
        #expect(message.textBody.contains(#"An authenticator app ("Pixel") was added to the Example account alice@example.com"#))
    }

    @Test(arguments: [("pt-BR", "pt"), ("zh-TW", "zh-Hant"), ("zh-Hant-HK", "zh-Hant"), ("fr-CA", "fr"), ("xx", "en"), ("de_AT", "de")])
    func regionalTagsFallBackToTheirLanguage(_ requested: String, _ rendered: String) async throws {
        let message = try await render(requested)
        #expect(message.htmlBody.contains("lang=\"\(rendered)\""))
    }

    @Test(arguments: [
        (firefoxOnAndroid, "Device: Firefox on Android"),
        ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1", "Device: Safari on iPhone"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36 Edg/140.0", "Device: Edge on Windows"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 Chrome/140.0 Safari/537.36", "Device: Chrome on Mac"),
        ("Dalvik/2.1.0 (Linux; U; Android 14; Pixel 8)", "Device: Android"),
        ("curl/8.5.0", "Device: unknown"),
        ("  ", "Device: unknown"),
    ])
    func theDeviceLineNamesOnlyARecognisedBrowserAndPlatform(_ userAgent: String, _ line: String) async throws {
        let message = try await render("en", userAgent: userAgent)
        #expect(message.textBody.contains(line + "\n"), "\(message.textBody)")
    }

    /// Whatever the User-Agent says never reaches the email: it would let anyone write into a genuine one.
    @Test(arguments: languages)
    func theUserAgentTextNeverReachesTheEmail(_ language: String) async throws {
        let hostile = "Firefox/1 If this wasn't you, call +1 555 0100 or visit https://evil.example \u{202E}moc.live\u{202C} <b>ACT-NOW</b>"
        let message = try await render(language, userAgent: hostile)
        for body in [message.textBody, message.htmlBody] {
            #expect(!body.contains("555") && !body.contains("evil") && !body.contains("\u{202E}") && !body.contains("ACT-NOW"))
            #expect(body.contains("Firefox"))
        }
    }

    @Test func aSubjectThatCannotBeAHeaderStopsStartUp() async throws {
        try await withWorkspace { workspace in
            let templates = workspace.directory.appendingPathComponent("templates")
            try FileManager.default.copyItem(at: TestWorkspace.repositoryRoot.appendingPathComponent("templates"), to: templates)
            let subject = templates.appendingPathComponent("email/fr/sign-in.subject.mustache")
            try "Connexion\u{7}{{appName}}".write(to: subject, atomically: true, encoding: .utf8)
            await #expect(throws: StartupError.self) {
                try await EmailRenderer(
                    templates: TemplateLibrary(directory: templates.path), sender: MailAddress(address: "a@example.com"), appName: "x")
            }
        }
    }

    @Test func aLetterKeepsItsMessageIDThroughEveryRendering() async throws {
        let link = try ActionLink(
            publicURL: #require(URL(string: "https://auth.example.com")), code: "CODE123", apiKey: "key",
            settings: ActionCodeSettings(continueURL: "https://app.example.com/", authorizedDomains: ["app.example.com"]), language: .english)
        let letter = SignInLetter(link: link, language: .english, expiresInMinutes: 10, requestedAt: Date(), requester: RequesterSummary())
        let (renderer, alice) = (try await makeRenderer(), try #require(EmailAddress("alice@example.com")))
        let first = try renderer.message(for: letter, to: alice)
        let retried = try renderer.message(for: SignInLetter(decoding: Data(letter.encoded())), to: alice)
        #expect(first.messageID == "<\(letter.messageToken)@example.com>" && retried.messageID == first.messageID)
    }

    @Test func aMissingDefaultTemplateStopsStartUp() async throws {
        try await withWorkspace { workspace in
            let directory = workspace.directory.appendingPathComponent("templates/email/fr")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            await #expect(throws: StartupError.self) {
                try await EmailRenderer(
                    templates: TemplateLibrary(directory: workspace.directory.appendingPathComponent("templates").path),
                    sender: MailAddress(address: "a@example.com"), appName: "x")
            }
        }
    }
}
