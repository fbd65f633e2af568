import Foundation
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
