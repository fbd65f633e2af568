import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// Browsers on allowed origins may call the API; others get no CORS headers, and credentials are never allowed.
@Suite struct CORSTests {
    static let origin = HTTPField.Name("Origin")!
    static let requestMethod = HTTPField.Name("Access-Control-Request-Method")!
    static let allowOrigin = HTTPField.Name("Access-Control-Allow-Origin")!
    static let allowCredentials = HTTPField.Name("Access-Control-Allow-Credentials")!
    static let sendPath = "/v1/accounts:sendOobCode?key=\(TestWorkspace.apiKey)"

    func preflight(_ client: some TestClientProtocol, from origin: String) async throws -> TestResponse {
        try await client.execute(
            uri: Self.sendPath, method: .options,
            headers: [Self.origin: origin, Self.requestMethod: "POST", HTTPField.Name("Access-Control-Request-Headers")!: "content-type"])
    }

    @Test func anAuthorizedDomainOverHTTPSIsAllowedByDefault() async throws {
        try await withApp { client, _, _ in
            let answer = try await preflight(client, from: "https://app.example.com")
            #expect(answer.status == .noContent)
            #expect(answer.headers[Self.allowOrigin] == "https://app.example.com")
            #expect(answer.headers[.accessControlAllowMethods]?.contains("POST") == true)
            #expect(answer.headers[.accessControlAllowHeaders]?.contains("Content-Type") == true)
            #expect(answer.headers[.vary] == "Origin")
            #expect(answer.headers[Self.allowCredentials] == nil)

            let sent = try await client.sendLink(headers: [Self.origin: "https://app.example.com"])
            #expect(sent.status == .ok && sent.headers[Self.allowOrigin] == "https://app.example.com")
        }
    }

    @Test(arguments: ["http://app.example.com", "https://app.example.com:8443", "https://evil.example.net", "null", "https://app.example.com/path"])
    func otherOriginsGetNoCORSHeaders(_ origin: String) async throws {
        try await withApp { client, _, _ in
            let answer = try await preflight(client, from: origin)
            #expect(answer.status == .forbidden)
            #expect(answer.headers[Self.allowOrigin] == nil)
            // The request itself is served (CORS protects browsers, not the server), but a browser hides the answer.
            let sent = try await client.sendLink(headers: [Self.origin: origin])
            #expect(sent.status == .ok && sent.headers[Self.allowOrigin] == nil)
        }
    }

    @Test func errorsCarryTheHeadersSoTheAppCanReadThem() async throws {
        try await withApp { client, _, _ in
            let answer = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"EMAIL_SIGNIN","email":"not an address"}"#,
                headers: [Self.origin: "http://localhost:3000"])
            #expect(answer.status == .badRequest)
            #expect(answer.headers[Self.allowOrigin] == "http://localhost:3000")
        }
    }

    /// A browser's 404 and 405 are envelopes with the headers, as everyone else's are.
    @Test(arguments: [("/v1/accounts:nowhere?key=\(TestWorkspace.apiKey)", HTTPRequest.Method.post, 404), ("/v1/accounts:sendOobCode", .get, 405)])
    func routingErrorsAreEnvelopesWithTheHeaders(_ uri: String, _ method: HTTPRequest.Method, _ status: Int) async throws {
        try await withApp { client, _, _ in
            let answer = try await client.execute(uri: uri, method: method, headers: [Self.origin: "https://app.example.com"])
            #expect(answer.status.code == status)
            #expect(answer.headers[Self.allowOrigin] == "https://app.example.com")
            #expect((try answer.json["error"] as? [String: Any])?["code"] as? Int == status)
        }
    }

    @Test func aBrowsersRateLimitRefusalIsCounted() async throws {
        try await withApp(["rateLimits.sendPerIP": [["limit": 1, "windowSeconds": 60]]]) { client, _, _ in
            let browser: HTTPFields = [Self.origin: "https://app.example.com"]
            #expect(try await client.sendLink(to: "a@example.com", headers: browser).status == .ok)
            let refused = try await client.sendLink(to: "b@example.com", headers: browser)
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER" && refused.headers[Self.allowOrigin] == "https://app.example.com")
            let metrics = try await client.execute(uri: "/metrics", method: .get).text
            #expect(MetricsTests.sample(metrics, #"latchkey_rate_limit_rejections_total{rule="sendPerIP"}"#) == 1)
        }
    }

    /// A failure nobody planned for (here the audit table gone from under the server) is a 500 the app can still read.
    @Test func anUnexpectedErrorKeepsTheHeaders() async throws {
        try await withApp { client, workspace, _ in
            try await workspace.openDatabase().write { try $0.execute(sql: "DROP TABLE audit_events") }
            let answer = try await client.sendLink(headers: [Self.origin: "https://app.example.com"])
            #expect(answer.status == .internalServerError)
            #expect(answer.headers[Self.allowOrigin] == "https://app.example.com")
            #expect(answer.errorMessage == "Internal error encountered.")
        }
    }

    @Test func configuredOriginsReplaceTheDefaultAndAStarNeverAllowsCredentials() async throws {
        try await withApp(["cors.allowedOrigins": ["https://web.example.org"]]) { client, _, _ in
            let configured = try await preflight(client, from: "https://web.example.org")
            let authorizedDomain = try await preflight(client, from: "https://app.example.com")
            #expect(configured.headers[Self.allowOrigin] == "https://web.example.org")
            #expect(authorizedDomain.status == .forbidden)
        }
        try await withApp(["cors.allowedOrigins": ["*"]]) { client, _, _ in
            let answer = try await preflight(client, from: "https://anywhere.example")
            #expect(answer.headers[Self.allowOrigin] == "*")
            #expect(answer.headers[Self.allowCredentials] == nil && answer.headers[.vary] == nil)
        }
    }

    @Test func aMalformedOriginInTheConfigurationNamesTheKey() async throws {
        try await withWorkspace { workspace in
            let error = await #expect(throws: ConfigProblems.self) {
                try await workspace.configuration(["cors.allowedOrigins": ["https://ok.example", "app.example.com/path"]])
            }
            #expect(error?.messages == [#"cors.allowedOrigins: "app.example.com/path" is not an origin such as https://app.example.com, or "*""#])
        }
    }
}
