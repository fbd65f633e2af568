import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// The texts in every language: the app's name and the code, short, and the WebOTP line (`@host #code`) last, which a
/// template cannot leave out without stopping start-up.
@Suite struct TextRendererTests {
    static let languages = ["de", "en", "es", "fr", "ja", "pl", "pt", "ru", "zh-Hant"]

    func renderer() async throws -> TextRenderer {
        try TextRenderer(templates: await TestTemplates.library(), appName: "Example", webOTPHost: "auth.example.com")
    }

    /// Characters outside GSM 03.38's basic set make a text UCS-2, whose single segment holds 70 characters.
    static func segments(_ body: String) -> Int {
        let gsm = Set(
            "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
        let count = body.count
        if body.allSatisfy(gsm.contains) { return count <= 160 ? 1 : (count + 152) / 153 }
        return count <= 70 ? 1 : (count + 66) / 67
    }

    @Test(arguments: languages) func everyLanguageSaysTheAppAndTheCodeAndEndsWithTheWebOTPLine(_ language: String) async throws {
        let renderer = try await renderer()
        for purpose in VerificationText.Purpose.allCases {
            let body = renderer.body(for: VerificationText(code: "314159", purpose: purpose, language: try #require(LanguageTag(language))))
            let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "@auth.example.com #314159", "\(language) \(purpose)")
            #expect(lines.dropLast().joined().contains("314159") && body.contains("Example"), "\(language) \(purpose)")
            #expect(Self.segments(body) <= 2, "\(language) \(purpose): \(body.count) characters")
        }
    }

    @Test func theEnglishTextFitsOneSegment() async throws {
        let renderer = try await renderer()
        for purpose in VerificationText.Purpose.allCases {
            #expect(Self.segments(renderer.body(for: VerificationText(code: "314159", purpose: purpose, language: .english))) == 1)
        }
    }

    @Test func eachPurposeIsWordedForWhatTheCodeDoes() async throws {
        let renderer = try await renderer()
        let bodies = VerificationText.Purpose.allCases.map { renderer.body(for: VerificationText(code: "1", purpose: $0, language: .english)) }
        #expect(Set(bodies).count == 3)
        #expect(bodies[1].contains("add this phone"))
    }

    @Test func aTextNamingItsHostBindsTheCodeToThatHost() async throws {
        let body = try await renderer().body(for: VerificationText(code: "271828", purpose: .signIn, language: .english, host: "app.example.org"))
        #expect(body.hasSuffix("\n@app.example.org #271828"))
    }

    @Test func aLanguageWithoutTextsFallsBackToEnglish() async throws {
        let body = try await renderer().body(for: VerificationText(code: "161803", purpose: .signIn, language: try #require(LanguageTag("it-IT"))))
        #expect(body.hasPrefix("161803 is your Example sign-in code."))
    }

    @Test func aTemplateThatDropsTheWebOTPLineStopsStartUp() async throws {
        try await withTemporaryDirectory { directory in
            let folder = directory.appendingPathComponent("sms/en")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "{{% CONTENT_TYPE: TEXT}}Your code is {{code}}.\n".write(
                to: folder.appendingPathComponent("verification.txt.mustache"), atomically: true, encoding: .utf8)
            let templates = try await TemplateLibrary(directory: directory.path)
            #expect(throws: StartupError.self) { try TextRenderer(templates: templates, appName: "Example", webOTPHost: "auth.example.com") }
        }
    }
}
