import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import NIOCore
import Testing

/// API keys, malformed bodies and size limits: everything refused before the domain is reached.
@Suite struct RequestEnvelopeTests {
    @Test func missingAPIKeyIsPermissionDenied() async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:sendOobCode", json: "{}", key: nil)
            #expect(response.status == .forbidden)
            let error = try #require(try response.json["error"] as? [String: Any])
            #expect(error["status"] as? String == "PERMISSION_DENIED")
            #expect(error["message"] as? String == "The request is missing a valid API key.")
            #expect(error["code"] as? Int == 403)
        }
    }

    @Test func unknownAPIKeyIsKeyInvalid() async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:sendOobCode", json: "{}", key: "nope")
            #expect(response.status == .badRequest)
            let error = try #require(try response.json["error"] as? [String: Any])
            #expect(error["status"] as? String == "INVALID_ARGUMENT")
            #expect(error["message"] as? String == "API key not valid. Please pass a valid API key.")
            #expect(((error["errors"] as? [[String: Any]])?.first?["reason"] as? String) == "keyInvalid")
            // Current Google clients and proxies read the reason from `details`, not from `errors`.
            let details = try #require(error["details"] as? [[String: Any]])
            #expect(details.count == 1)
            #expect(details.first?["@type"] as? String == "type.googleapis.com/google.rpc.ErrorInfo")
            #expect(details.first?["reason"] as? String == "API_KEY_INVALID")
            #expect(details.first?["domain"] as? String == "googleapis.com")
            #expect(details.first?["metadata"] as? [String: String] == ["service": "identitytoolkit.googleapis.com"])
        }
    }

    /// Other errors have no `details`, as Google's own answers for them.
    @Test func otherErrorsHaveNoDetails() async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:sendOobCode", json: "{}", key: nil)
            #expect((try response.json["error"] as? [String: Any])?["details"] == nil)
        }
    }

    @Test func apiKeyMayComeInTheGoogleHeader() async throws {
        try await withApp { client, _, _ in
            let response = try await client.post(
                "/v1/accounts:sendOobCode", json: #"{"requestType":"EMAIL_SIGNIN","email":"a@example.com","continueUrl":"https://app.example.com/"}"#,
                key: nil, headers: [HTTPField.Name("x-goog-api-key")!: TestWorkspace.apiKey])
            #expect(response.status == .ok)
        }
    }

    @Test(arguments: ["{", "not json", #"{"email":"a@example.com",}"#, #"{"email":"a@example.com","email":"b@example.com"}"#, "[]", "\"x\"", ""])
    func malformedOrDuplicateKeyBodiesAreInvalidArgument(_ body: String) async throws {
        try await withApp { client, _, _ in
            for path in ["/v1/accounts:sendOobCode", "/v1/accounts:signInWithEmailLink", "/v1/token"] {
                let response = try await client.post(path, json: body)
                #expect(response.status == .badRequest)
                let error = try #require(try response.json["error"] as? [String: Any])
                #expect(error["status"] as? String == "INVALID_ARGUMENT")
                #expect((error["message"] as? String)?.hasPrefix("Invalid JSON payload received.") == true)
            }
        }
    }

    @Test func bodiesOver64KiBAre413InTheEnvelope() async throws {
        try await withApp { client, _, _ in
            let padding = String(repeating: "x", count: 70 * 1024)
            let response = try await client.post("/v1/accounts:sendOobCode", json: #"{"requestType":"EMAIL_SIGNIN","pad":"\#(padding)"}"#)
            #expect(response.status == .contentTooLarge)
            let error = try #require(try response.json["error"] as? [String: Any])
            #expect(error["code"] as? Int == 413)
        }
    }

    @Test func unknownPathsAre404InTheEnvelope() async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: "/v1/accounts:nothing?key=\(TestWorkspace.apiKey)", method: .post)
            #expect(response.status == .notFound)
            #expect((try response.json["error"] as? [String: Any])?["code"] as? Int == 404)
        }
    }

    @Test(arguments: [
        ("/v1/accounts:sendOobCode", HTTPRequest.Method.get, "POST"),
        ("/v1/projects/test-project/accounts", .delete, "POST"),
        ("/.well-known/jwks.json", .post, "GET, HEAD"),
        ("/__/auth/action", .post, "GET, HEAD"),
    ])
    func aKnownPathWithTheWrongMethodIs405(_ path: String, _ method: HTTPRequest.Method, _ allowed: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: path, method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allowed)
            #expect((try response.json["error"] as? [String: Any])?["code"] as? Int == 405)
        }
    }

    /// The 405 catalogue must not swallow a 404 that a handler of the right method answered itself.
    @Test func aHandlersOwn404UnderItsMethodStays404() async throws {
        try await withApp(["openAPIDocument": "/nonexistent/openapi.json"]) { client, _, _ in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.allow] == nil)
            let wrongMethod = try await client.execute(uri: "/openapi.json", method: .post)
            #expect(wrongMethod.status == .methodNotAllowed)
        }
    }
}
