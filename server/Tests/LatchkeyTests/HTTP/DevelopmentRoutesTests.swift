import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// The development mailbox and the web demo: served in development mode only.
@Suite struct DevelopmentRoutesTests {
    static var development: [String: Any] {
        ["mode": "development", "development.demoDirectory": TestWorkspace.repositoryRoot.appendingPathComponent("examples/web").path]
    }

    @Test func theMailboxListsEmailsNewestFirstAndRendersEach() async throws {
        try await withApp(Self.development) { client, _, mailbox in
            try await client.sendLink(to: "alice@example.com")
            try await client.sendLink(to: "bob@example.com", headers: [.acceptLanguage: "ja"])
            _ = try await mailbox.waitForMessages(2)

            let listing = try await client.execute(uri: "/__/dev/mailbox", method: .get)
            #expect(listing.status == .ok)
            #expect(listing.headers[.cacheControl] == "no-store")
            #expect(listing.headers[HTTPField.Name("Content-Security-Policy")!]?.hasPrefix("default-src 'none'") == true)
            let rows = listing.text.components(separatedBy: #"<tr class="message">"#).dropFirst()
            #expect(rows.count == 2)
            #expect(rows.first?.contains("bob@example.com") == true && rows.first?.contains("Latchkey へのログイン") == true)
            #expect(rows.last?.contains(#"<a href="/__/dev/mailbox/0000000001">Sign in to Latchkey</a>"#) == true)

            let message = try await client.execute(uri: "/__/dev/mailbox/0000000002", method: .get)
            #expect(message.status == .ok)
            #expect(message.text.contains("<h1>Latchkey へのログイン</h1>"))
            let link = try Mailbox.link(in: try await mailbox.waitForMessages(2)[1]).string ?? "?"
            #expect(message.text.contains(#"<a class="message-link" href="\#(link.replacingOccurrences(of: "&", with: "&amp;"))""#))
            #expect(message.text.contains(#"<iframe title="The email's HTML part" src="/__/dev/mailbox/0000000002/html" sandbox="#))
            #expect(message.text.contains("bob@example.com"))

            let html = try await client.execute(uri: "/__/dev/mailbox/0000000002/html", method: .get)
            #expect(html.status == .ok)
            #expect(html.text.contains(#"<head><base target="_top">"#))
            #expect(html.text.contains(#"href="\#(link.replacingOccurrences(of: "&", with: "&amp;"))""#))
            let policy = html.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
            #expect(policy.hasPrefix("default-src 'none'") && policy.contains("sandbox") && !policy.contains("allow-scripts"))
        }
    }

    @Test(arguments: [
        "/__/dev/mailbox/..%2Flatchkey.sqlite", "/__/dev/mailbox/..%2F..%2Fetc%2Fpasswd", "/__/dev/mailbox/9999999999", "/__/dev/mailbox/1.eml",
        "/__/dev/mailbox/..%2Fserver-secret/html", "/__/dev/mailbox/abc",
    ])
    func messageIDsNameOutboxFilesOnly(_ uri: String) async throws {
        try await withApp(Self.development) { client, _, _ in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound)
            #expect(!response.text.contains("latchkey") && !response.text.contains("root:"))
        }
    }

    @Test func theMailboxListsTheTextsTheFileGatewayWroteNewestFirst() async throws {
        try await withApp(Self.development) { client, workspace, _ in
            let gateway = try FileTextGateway(directory: workspace.textsDirectory.path)
            let number = try #require(PhoneNumber("+447700900123"))
            try await gateway.deliver(OutgoingText(id: 1, to: number, body: "111111 is your code.\n\n@auth.example.com #111111"))
            try await gateway.deliver(OutgoingText(id: 2, to: number, body: "222222 is <your> code.\n\n@auth.example.com #222222"))
            let listing = try await client.execute(uri: "/__/dev/mailbox", method: .get)
            let rows = listing.text.components(separatedBy: #"<tr class="text">"#).dropFirst()
            #expect(rows.count == 2)
            #expect(rows.first?.contains("<td>+447700900123</td><td><pre>222222 is &lt;your&gt; code.\n\n@auth.example.com #222222</pre>") == true)
            #expect(rows.last?.contains("111111") == true)
        }
    }

    @Test func anEmptyMailboxSaysSo() async throws {
        try await withApp(Self.development) { client, _, _ in
            let response = try await client.execute(uri: "/__/dev/mailbox", method: .get)
            #expect(response.status == .ok && response.text.contains(#"<p id="empty">"#) && response.text.contains(#"<p id="no-texts">"#))
        }
    }

    @Test func theDemoIsServedWithTheFirstAPIKeyAndAStrictPolicy() async throws {
        try await withApp(Self.development) { client, _, _ in
            for uri in ["/demo/", "/demo"] {
                let page = try await client.execute(uri: uri, method: .get)
                #expect(page.status == .ok)
                #expect(page.headers[.contentType] == "text/html; charset=utf-8")
                #expect(page.text.contains(#"<script src="/demo/demo.js" defer></script>"#))
                let policy = page.headers[HTTPField.Name("Content-Security-Policy")!] ?? ""
                #expect(policy.hasPrefix("default-src 'none'; script-src 'self'") && !policy.contains("unsafe"))
                #expect(page.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            }
            let script = try await client.execute(uri: "/demo/demo.js", method: .get)
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.text.contains("signInWithEmailLink"))
            let config = try await client.execute(uri: "/demo/config.json", method: .get)
            #expect(try config.json["apiKey"] as? String == TestWorkspace.apiKey)
            #expect(try await client.execute(uri: "/demo/..%2F..%2Fconfig%2Flatchkey.json", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/demo/missing.js", method: .get).status == .notFound)
        }
    }

    @Test(arguments: ["/__/dev/mailbox", "/__/dev/mailbox/0000000001", "/__/dev/mailbox/0000000001/html", "/demo/", "/demo/demo.js", "/demo/config.json"])
    func productionServesNoneOfIt(_ uri: String) async throws {
        try await withApp(["development.demoDirectory": TestWorkspace.repositoryRoot.appendingPathComponent("examples/web").path]) {
            client, _, _ in
            try await client.sendLink()
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .notFound)
            #expect(response.errorMessage == "Not Found")
        }
    }

    @Test func theEmbeddedDefaultServesTheDemoFromTheRepository() async throws {
        let path = TestWorkspace.repositoryRoot.appendingPathComponent("config/latchkey.json").path
        let configuration = try await AppConfiguration.load(path: path, environment: [:])
        #expect(configuration.mode == .development && configuration.development.demoDirectory == "examples/web")
        #expect(configuration.authorizedDomains.contains("localhost") && configuration.publicURL.absoluteString == "http://localhost:8080")
    }
}
