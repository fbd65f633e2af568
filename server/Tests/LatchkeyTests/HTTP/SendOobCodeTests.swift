import Foundation
import HTTPTypes
import GRDB
import HummingbirdTesting
import Latchkey
import Testing

@Suite struct SendOobCodeTests {
    @Test func acknowledgesWithNormalizedEmailAndQueuesALinkBuiltFromThePublicURL() async throws {
        try await withApp(["apps": ActionLandingTests.apps]) { client, _, mailbox in
            let response = try await client.post(
                "/v1/accounts:sendOobCode",
                json: """
                    {"requestType":"EMAIL_SIGNIN","email":"  Alice@Example.com ","continueUrl":"https://app.example.com/finish?x=1",
                     "canHandleCodeInApp":true,"iOSBundleId":"com.example.ios","androidPackageName":"com.example.android",
                     "androidInstallApp":true,"androidMinimumVersion":"12","linkDomain":"ignored.example.com","unknownField":[1,2]}
                    """,
                headers: [HTTPField.Name("Host")!: "evil.example.net", HTTPField.Name("X-Forwarded-Host")!: "evil.example.net"])
            #expect(response.status == .ok)
            #expect(response.text == #"{"email":"alice@example.com","kind":"identitytoolkit#GetOobConfirmationCodeResponse"}"#)

            let message = try #require(try await mailbox.waitForMessages(1).first)
            #expect(message.contains("To: alice@example.com"))
            let link = try Mailbox.link(in: message)
            #expect(link.host == "auth.example.com" && link.path == "/__/auth/action")
            let query = Dictionary(uniqueKeysWithValues: (link.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["mode"] == "signIn")
            #expect(query["oobCode"].map { $0.count >= 43 } == true)
            #expect(query["apiKey"] == TestWorkspace.apiKey)
            #expect(query["continueUrl"] == "https://app.example.com/finish?x=1")
            #expect(query["lang"] == "en")
            #expect(query["iosBundleId"] == "com.example.ios")
            #expect(query["androidPackageName"] == "com.example.android")
            #expect(query["androidInstallApp"] == "true")
            #expect(query["androidMinimumVersion"] == "12")
        }
    }

    @Test(arguments: [#""EMAIL_SIGNIN""#, "6", #""6""#])
    func acceptsTheEmailSignInRequestTypeAsNameOrNumber(_ requestType: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post(
                "/v1/accounts:sendOobCode",
                json: #"{"requestType":\#(requestType),"email":"a@example.com","continueUrl":"https://app.example.com/"}"#)
            #expect(response.status == .ok)
        }
    }

    static let refusals: [(body: String, message: String)] = [
        (#"{"email":"a@example.com","continueUrl":"https://app.example.com/"}"#, "MISSING_REQ_TYPE"),
        (#"{"requestType":null,"email":"a@example.com","continueUrl":"https://app.example.com/"}"#, "MISSING_REQ_TYPE"),
        (#"{"requestType":"RECOVER_EMAIL","email":"a@example.com","continueUrl":"https://app.example.com/"}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":2,"email":"a@example.com","continueUrl":"https://app.example.com/"}"#, "INVALID_REQ_TYPE"),
        (#"{"requestType":"EMAIL_SIGNIN","continueUrl":"https://app.example.com/"}"#, "MISSING_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"","continueUrl":"https://app.example.com/"}"#, "MISSING_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"alice.example.com","continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"al ice@example.com","continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com\r\nBcc: x@y.com","continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@exa\u0000mple.com","continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":["a@example.com"],"continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":42,"continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"\#(TooLong.email)","continueUrl":"https://app.example.com/"}"#, "INVALID_EMAIL"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":""}"#, "MISSING_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":42}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com"}"#, "MISSING_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"/finish"}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"http://app.example.com/"}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"ftp://app.example.com/"}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://user:pw@app.example.com/"}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/\r\nX: y"}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/\u0000"}"#, "INVALID_CONTINUE_URI"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://evil.example.net/"}"#, "UNAUTHORIZED_DOMAIN"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://sub.app.example.com/"}"#, "UNAUTHORIZED_DOMAIN"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://example.com/"}"#, "UNAUTHORIZED_DOMAIN"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","iOSBundleId":"not a bundle"}"#, "INVALID_IOS_BUNDLE_ID"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","iOSBundleId":7}"#, "INVALID_IOS_BUNDLE_ID"),
        (#"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/","androidPackageName":"nodots"}"#, "INVALID_ANDROID_PACKAGE_NAME"),
    ]

    @Test(arguments: refusals)
    func refusesBadInputWithItsCodeAndStoresAndSendsNothing(_ body: String, _ message: String) async throws {
        try await withApp { client, workspace, mailbox in
            let response = try await client.post("/v1/accounts:sendOobCode", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage?.hasPrefix(message) == true, "\(response.text)")
            let error = try #require(try response.json["error"] as? [String: Any])
            let first = try #require((error["errors"] as? [[String: Any]])?.first)
            #expect(first["domain"] as? String == "global")
            #expect(first["reason"] as? String == "invalid")
            #expect(error["code"] as? Int == 400)
            #expect(!response.text.contains("null"))

            let queue = try workspace.openDatabase()
            let rows = try await queue.read { db in
                try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM pending_requests) + (SELECT COUNT(*) FROM outbox)")
            }
            #expect(rows == 0)
            #expect(mailbox.messages().isEmpty)
        }
    }

    @Test func allowsPlainHTTPOnlyForLocalhost() async throws {
        try await withApp(["authorizedDomains": ["localhost", "127.0.0.1", "app.example.com"]]) { client, _, _ in
            #expect(try await client.sendLink(continueURL: "http://localhost:3000/finish").status == .ok)
            #expect(try await client.sendLink(continueURL: "http://127.0.0.1/finish").status == .ok)
            let remote = try await client.sendLink(continueURL: "http://app.example.com/finish")
            #expect(remote.errorMessage?.hasPrefix("INVALID_CONTINUE_URI") == true)
        }
    }

    @Test func answersTheSameForUnknownExistingAndDisabledAccounts() async throws {
        try await withApp { client, workspace, mailbox in
            let first = try await client.sendLink(to: "known@example.com")
            _ = try await client.complete(email: "known@example.com", code: try await mailbox.code(at: 0))
            let queue = try workspace.openDatabase()
            try await queue.write { db in try db.execute(sql: "INSERT INTO accounts (id, email, email_verified, disabled, valid_since, created_at) VALUES ('d', 'disabled@example.com', 1, 1, 0, 0)") }

            let known = try await client.sendLink(to: "known@example.com")
            let disabled = try await client.sendLink(to: "disabled@example.com")
            let unknown = try await client.sendLink(to: "unknown@example.com")
            #expect(first.status == .ok && known.status == .ok && disabled.status == .ok && unknown.status == .ok)
            let bodies = [(known, "known"), (disabled, "disabled"), (unknown, "unknown")].map { $0.text.replacingOccurrences(of: $1, with: "X") }
            #expect(Set(bodies).count == 1)
            #expect(Set([known, disabled, unknown].map { $0.headers[.contentType] }).count == 1)
        }
    }

    @Test func theEmailIsWrittenInTheRequestLanguage() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink(headers: [HTTPField.Name("X-Firebase-Locale")!: "fr"])
            try await client.sendLink(headers: [.acceptLanguage: "de-AT, en;q=0.5"])
            let messages = try await mailbox.waitForMessages(2)
            #expect(messages[0].contains("lang=3D\"fr\"") || messages[0].contains("lang=\"fr\""))
            #expect(messages[1].contains("lang=3D\"de\"") || messages[1].contains("lang=\"de\""))
        }
    }

    @Test(arguments: [
        ("fr-CA", nil, "fr-CA"),
        (nil, "de-DE,de;q=0.9,en;q=0.8", "de-DE"),
        (nil, "en;q=0.5, ja;q=0.9", "ja"),
        ("pt-BR", "de", "pt-BR"),
        ("<script>", "es", "es"),
        (nil, nil, "en"),
    ] as [(String?, String?, String)])
    func carriesTheRequestLanguageInTheLink(_ firebaseLocale: String?, _ acceptLanguage: String?, _ expected: String) async throws {
        try await withApp { client, _, mailbox in
            var headers = HTTPFields()
            if let firebaseLocale { headers[HTTPField.Name("X-Firebase-Locale")!] = firebaseLocale }
            if let acceptLanguage { headers[.acceptLanguage] = acceptLanguage }
            #expect(try await client.sendLink(headers: headers).status == .ok)
            let link = try Mailbox.link(in: try #require(try await mailbox.waitForMessages(1).first))
            #expect(link.queryItems?.first { $0.name == "lang" }?.value == expected)
        }
    }
}

/// An address that passes every rule but the overall 254-character limit (64 + 1 + 63 + 1 + 63 + 1 + 58 + 4 = 255).
enum TooLong {
    static let email =
        String(repeating: "a", count: 64) + "@" + String(repeating: "b", count: 63) + "." + String(repeating: "c", count: 63) + "."
        + String(repeating: "d", count: 58) + ".com"
}
