import Foundation
import Latchkey
import Testing

@Suite struct EmailRendererTests {
    static let languages = ["en", "fr", "de", "es", "pl", "ja", "zh-Hant", "ru", "pt"]

    func makeRenderer() async throws -> EmailRenderer {
        try await EmailRenderer(
            directory: TestWorkspace.repositoryRoot.appendingPathComponent("templates").path,
            sender: MailAddress(address: "no-reply@example.com", displayName: "Example"), appName: "Example")
    }

    func render(_ language: String, userAgent: String? = "Firefox <script>") async throws -> MailMessage {
        let link = try SignInLink(
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
        #expect(message.htmlBody.contains("Firefox &lt;script&gt;") && !message.htmlBody.contains("<script>"))
        #expect(!message.htmlBody.contains("{{") && !message.textBody.contains("{{"))
        #expect(try message.mimeData().count > 1000)
        // The letter's request time, kept through the outbox, is what the email states and its Date header.
        #expect(message.textBody.contains("2027-01-15") && message.textBody.contains("UTC"))
        #expect(message.date == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(arguments: [("pt-BR", "pt"), ("zh-TW", "zh-Hant"), ("zh-Hant-HK", "zh-Hant"), ("fr-CA", "fr"), ("xx", "en"), ("de_AT", "de")])
    func regionalTagsFallBackToTheirLanguage(_ requested: String, _ rendered: String) async throws {
        let message = try await render(requested)
        #expect(message.htmlBody.contains("lang=\"\(rendered)\""))
    }

    @Test func anEmptyUserAgentLeavesNoDeviceLine() async throws {
        let with = try await render("en", userAgent: "Safari")
        let without = try await render("en", userAgent: "  ")
        #expect(with.textBody.contains("Safari"))
        #expect(without.textBody.count < with.textBody.count)
    }

    @Test func aSubjectThatCannotBeAHeaderStopsStartUp() async throws {
        try await withWorkspace { workspace in
            let templates = workspace.directory.appendingPathComponent("templates")
            try FileManager.default.copyItem(at: TestWorkspace.repositoryRoot.appendingPathComponent("templates"), to: templates)
            let subject = templates.appendingPathComponent("email/fr/sign-in.subject.mustache")
            try "Connexion\u{7}{{appName}}".write(to: subject, atomically: true, encoding: .utf8)
            await #expect(throws: StartupError.self) {
                try await EmailRenderer(directory: templates.path, sender: MailAddress(address: "a@example.com"), appName: "x")
            }
        }
    }

    @Test func aLetterKeepsItsMessageIDThroughEveryRendering() async throws {
        let link = try SignInLink(
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
                    directory: workspace.directory.appendingPathComponent("templates").path, sender: MailAddress(address: "a@example.com"),
                    appName: "x")
            }
        }
    }
}
