import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import Logging
import Testing

/// The emailed link's landing: hands the code to the web app, shows a page for everything else, never spends it.
@Suite struct ActionLandingTests {
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!

    /// The app-only settings of a request, and the apps they name.
    static var apps: [String: Any] {
        [
            "ios": [["teamId": "ABCDE12345", "bundleId": "com.example.ios", "appStoreId": "1234567890"]],
            "android": [["packageName": "com.example.android", "sha256CertFingerprints": [Array(repeating: "AB", count: 32).joined(separator: ":")]]],
        ]
    }
    static let appFields = #""iOSBundleId":"com.example.ios","androidPackageName":"com.example.android","androidInstallApp":true"#

    @Test func theLinkRedirectsToTheContinueURLWithTheCodeAndSpendsNothing() async throws {
        try await withApp { client, workspace, mailbox in
            try await client.sendLink(continueURL: "https://app.example.com/finish?step=2")
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            let before = try await Self.pendingRows(workspace)
            for method in [HTTPRequest.Method.head, .get, .get] {
                let response = try await client.execute(uri: Self.uri(of: link), method: method)
                #expect(response.status == .seeOther)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[Self.referrerPolicy] == "no-referrer")
                let header = try #require(response.headers[.location])
                let location = try #require(URLComponents(string: header))
                #expect(location.host == "app.example.com" && location.path == "/finish")
                let items = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
                #expect(items["step"] == "2" && items["mode"] == "signIn" && items["apiKey"] == TestWorkspace.apiKey && items["lang"] == "en")
                #expect(items["oobCode"] == link.queryItems?.first { $0.name == "oobCode" }?.value)
            }
            // Neither used, extended nor counted.
            #expect(try await Self.pendingRows(workspace) == before)
            #expect(try await client.complete(code: try await mailbox.code()).status == .ok)
        }
    }

    @Test func anEditedContinueURLIsIgnoredForTheOneTheServerIssued() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink(continueURL: "https://app.example.com/finish")
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            let edited = Self.uri(of: link).replacingOccurrences(of: "app.example.com%2Ffinish", with: "localhost%2Fother")
            let response = try await client.execute(uri: edited, method: .get)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location]?.hasPrefix("https://app.example.com/finish?") == true)
        }
    }

    @Test(arguments: [
        ("/__/auth/action?mode=signIn&oobCode=abc&continueUrl=https%3A%2F%2Fevil.example.net%2F", HTTPResponse.Status.notFound),
        ("/__/auth/action?mode=signIn&continueUrl=https%3A%2F%2Fapp.example.com%2F", .badRequest),
        ("/__/auth/action?mode=changePassword&oobCode=abc&continueUrl=https%3A%2F%2Fapp.example.com%2F", .badRequest),
        ("/__/auth/action?mode=signIn&oobCode=abc&continueUrl=javascript%3Aalert(1)", .notFound),
        ("/__/auth/action?mode=signIn&oobCode=\(String(repeating: "a", count: 257))", .badRequest),
    ])
    func damagedUnknownOrForeignLinksGetAPageNotARedirect(_ uri: String, _ status: HTTPResponse.Status) async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == status)
            #expect(response.headers[.location] == nil)
            #expect(response.headers[Self.contentSecurityPolicy]?.hasPrefix("default-src 'none'") == true)
            #expect(response.text.contains("request a new sign-in link"))
            #expect(!response.text.contains("evil") && !response.text.contains("javascript"))
        }
    }

    @Test func aLinkForAnAppOpenedInABrowserOffersTheAppAndItsStoresInTheRequestLanguage() async throws {
        try await withApp(["apps": Self.apps]) { client, workspace, mailbox in
            try await client.sendLink(continueURL: "https://app.example.com/finish", headers: [.acceptLanguage: "de-CH, en;q=0.5"], extra: Self.appFields)
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            let before = try await Self.pendingRows(workspace)

            let response = try await client.execute(uri: Self.uri(of: link), method: .get)
            #expect(response.status == .ok)
            let page = response.text
            #expect(page.contains(#"<html lang="de">"#))
            #expect(page.contains("<h1>Öffnen Sie diesen Link in der App</h1>"))
            #expect(page.contains(#"href="https://apps.apple.com/app/id1234567890" rel="noreferrer noopener""#))
            #expect(page.contains(#"href="https://play.google.com/store/apps/details?id=com.example.android" rel="noreferrer noopener""#))
            #expect(page.contains(#"<meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://auth.example.com/__/auth/action?"#))
            #expect(page.contains("fordern Sie in der App auf diesem Gerät einen neuen Anmeldelink an"))
            // "Open in the app" is the link itself, or on Android an intent naming the app.
            #expect(page.contains(#"<a class="button" href="https://auth.example.com/__/auth/action?mode=signIn&amp;oobCode="#))
            let android = try await client.execute(
                uri: Self.uri(of: link), method: .get, headers: [.userAgent: "Mozilla/5.0 (Linux; Android 15; Pixel 9) Chrome/140.0 Mobile"])
            #expect(android.text.contains(#"href="intent://auth.example.com/__/auth/action?mode=signIn&amp;oobCode="#))
            #expect(android.text.contains("#Intent;scheme=https;package=com.example.android;end"))

            #expect(try await client.execute(uri: Self.uri(of: link), method: .head).status == .ok)
            #expect(try await Self.pendingRows(workspace) == before)
            #expect(try await client.complete(code: try await mailbox.code()).status == .ok)
        }
    }

    /// A request stored before app ids were checked, or naming an app since removed from `apps`, offers no app.
    @Test func theLandingPageOffersOnlyConfiguredApps() async throws {
        try await withApp(["apps": Self.apps]) { client, workspace, mailbox in
            try await client.sendLink(continueURL: "https://app.example.com/finish", extra: Self.appFields)
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            try await workspace.openDatabase().write { db in
                try db.execute(sql: "UPDATE pending_requests SET android_package_name = 'com.attacker.app', ios_bundle_id = 'com.attacker.ios'")
            }
            let response = try await client.execute(
                uri: Self.uri(of: link), method: .get, headers: [.userAgent: "Mozilla/5.0 (Linux; Android 15; Pixel 9) Chrome/140.0 Mobile"])
            #expect(response.status == .ok)
            #expect(!response.text.contains("com.attacker"))
            #expect(!response.text.contains("intent://"))
            #expect(!response.text.contains("apps.apple.com"))
        }
    }

    @Test func anAppThatDoesNotHandleTheCodeItselfGetsTheRedirect() async throws {
        try await withApp(["apps": Self.apps]) { client, _, mailbox in
            let response = try await client.post(
                "/v1/accounts:sendOobCode",
                json: #"{"requestType":"EMAIL_SIGNIN","email":"alice@example.com","continueUrl":"https://app.example.com/","iOSBundleId":"com.example.ios"}"#)
            #expect(response.status == .ok)
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            #expect(try await client.execute(uri: Self.uri(of: link), method: .get).status == .seeOther)
        }
    }

    @Test func anExpiredLinkSaysSoInTheRequestLanguageWithAWayBack() async throws {
        let clock = FixedClock()
        try await withApp(clock: clock) { client, _, mailbox in
            try await client.sendLink(continueURL: "https://app.example.com/finish", headers: [HTTPField.Name("X-Firebase-Locale")!: "ja"])
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            clock.advance(by: 601)
            let response = try await client.execute(uri: Self.uri(of: link), method: .get)
            #expect(response.status == .gone)
            #expect(response.text.contains(#"<html lang="ja">"#))
            #expect(response.text.contains("<h1>このログインリンクは有効期限が切れています</h1>"))
            #expect(response.text.contains(#"<a class="button" href="https://app.example.com/finish">Latchkey に戻る</a>"#))
            Self.expectPrivatePage(response)
        }
    }

    @Test func aUsedLinkSaysSoInTheRequestLanguage() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink(headers: [.acceptLanguage: "fr-FR"])
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            #expect(try await client.complete(code: try await mailbox.code()).status == .ok)
            let response = try await client.execute(uri: Self.uri(of: link), method: .get)
            #expect(response.status == .gone)
            #expect(response.text.contains("<h1>Ce lien de connexion a déjà été utilisé</h1>"))
            Self.expectPrivatePage(response)
        }
    }

    @Test func anUnknownCodeIsToldInTheLinkLanguage() async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(
                uri: "/__/auth/action?mode=signIn&oobCode=unknown-code&lang=ru&continueUrl=https%3A%2F%2Fapp.example.com%2F", method: .get)
            #expect(response.status == .notFound)
            #expect(response.text.contains("<h1>Эта ссылка для входа недействительна</h1>"))
            #expect(response.text.contains(#"href="https://app.example.com/""#))
            Self.expectPrivatePage(response)
        }
    }

    @Test func requestLogsRecordThePathWithoutTheQuery() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .trace
        try await withApp(["logLevel": "trace"], logger: logger) { client, _, mailbox in
            try await client.sendLink()
            let code = try await mailbox.code()
            for method in [HTTPRequest.Method.get, .head] {
                _ = try await client.execute(uri: "/__/auth/action?mode=signIn&oobCode=\(code)&continueUrl=https%3A%2F%2Fapp.example.com%2F", method: method)
            }
            let requests = handler.entries.filter { $0.message.description == "Request" && $0.metadata["path"]?.description == "/__/auth/action" }
            #expect(requests.count == 2)
            #expect(!handler.entries.contains { "\($0.message) \($0.metadata)".contains(code) })
        }
    }

    /// Every page: no script, no outside resource, its one style allowed by a nonce, never cached or referred.
    static func expectPrivatePage(_ response: TestResponse) {
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        #expect(response.headers[.cacheControl] == "no-store")
        #expect(response.headers[referrerPolicy] == "no-referrer")
        let policy = response.headers[contentSecurityPolicy] ?? ""
        #expect(policy.hasPrefix("default-src 'none'; style-src 'nonce-") && policy.contains("frame-ancestors 'none'"))
        let nonce = policy.split(separator: "'").first { $0.hasPrefix("nonce-") }.map { String($0.dropFirst(6)) } ?? "?"
        #expect(response.text.contains(#"<style nonce="\#(nonce)">"#))
        #expect(!response.text.contains("<script") && !response.text.contains("src=") && !response.text.contains("<link"))
    }

    static func uri(of link: URLComponents) -> String {
        link.percentEncodedPath + "?" + (link.percentEncodedQuery ?? "")
    }

    /// Everything a look could change about the pending requests.
    static func pendingRows(_ workspace: TestWorkspace) async throws -> [String] {
        try await workspace.openDatabase().read { db in
            try Row.fetchAll(db, sql: "SELECT id, expires_at, used_at, mismatch_count FROM pending_requests ORDER BY id").map(\.description)
        }
    }
}
