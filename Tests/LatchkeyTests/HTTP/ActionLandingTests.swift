import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// The emailed link's landing: hands the code to the web app and never spends it.
@Suite struct ActionLandingTests {
    @Test func theLinkRedirectsToTheContinueURLWithTheCodeAndSpendsNothing() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink(continueURL: "https://app.example.com/finish?step=2")
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            let uri = link.percentEncodedPath + "?" + (link.percentEncodedQuery ?? "")
            for method in [HTTPRequest.Method.head, .get, .get] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.status == .seeOther)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                let header = try #require(response.headers[.location])
                let location = try #require(URLComponents(string: header))
                #expect(location.host == "app.example.com" && location.path == "/finish")
                let items = Dictionary(uniqueKeysWithValues: (location.queryItems ?? []).map { ($0.name, $0.value ?? "") })
                #expect(items["step"] == "2" && items["mode"] == "signIn" && items["apiKey"] == TestWorkspace.apiKey && items["lang"] == "en")
                #expect(items["oobCode"] == link.queryItems?.first { $0.name == "oobCode" }?.value)
            }
            #expect(try await client.complete(code: try await mailbox.code()).status == .ok)
        }
    }

    @Test(arguments: [
        "/__/auth/action?mode=signIn&oobCode=abc&continueUrl=https%3A%2F%2Fevil.example.net%2F",
        "/__/auth/action?mode=signIn&continueUrl=https%3A%2F%2Fapp.example.com%2F",
        "/__/auth/action?mode=resetPassword&oobCode=abc&continueUrl=https%3A%2F%2Fapp.example.com%2F",
        "/__/auth/action?mode=signIn&oobCode=abc&continueUrl=javascript%3Aalert(1)",
    ])
    func damagedOrForeignLinksGetAPageNotARedirect(_ uri: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: uri, method: .get)
            // Damaged links answer 400; a well-formed link with a code the server never issued, 404.
            #expect([.badRequest, .notFound].contains(response.status))
            #expect(response.headers[.location] == nil)
            #expect(response.headers[HTTPField.Name("Content-Security-Policy")!]?.hasPrefix("default-src 'none'") == true)
            #expect(response.text.contains("request a new sign-in link"))
        }
    }
}
