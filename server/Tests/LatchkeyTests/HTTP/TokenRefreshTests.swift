import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import NIOCore
import Testing

@Suite(.outsideProcesses) struct TokenRefreshTests {
    /// Signs Alice in and returns her first refresh token.
    func signIn(_ client: any TestClientProtocol, _ mailbox: Mailbox) async throws -> String {
        try await client.sendLink()
        return try #require(try await client.complete(code: try await mailbox.code()).json["refreshToken"] as? String)
    }

    @Test func aFormEncodedRefreshReturnsTheSecureTokenShape() async throws {
        try await withApp { client, _, mailbox in
            let token = try await signIn(client, mailbox)
            let response = try await client.post(
                "/v1/token", json: "grant_type=refresh_token&refresh_token=\(token)", headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(response.status == .ok)
            let body = try response.json
            #expect(body["token_type"] as? String == "Bearer")
            #expect(body["expires_in"] as? String == "3600")
            #expect(body["project_id"] as? String == "test-project")
            #expect((body["user_id"] as? String)?.count == 28)
            #expect(body["id_token"] as? String == body["access_token"] as? String)
            let next = try #require(body["refresh_token"] as? String)
            #expect(next != token)
        }
    }

    @Test(arguments: StoreKind.all) func refreshTokensRotateAndReuseRevokesTheChain(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, _, mailbox in
            let first = try await signIn(client, mailbox)
            let second = try #require(try await client.refresh(first).json["refresh_token"] as? String)
            #expect(try await client.refresh(first).errorMessage == "INVALID_REFRESH_TOKEN")
            #expect(try await client.refresh(second).errorMessage == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test func otherSessionsSurviveTheftDetectionOnOneChain() async throws {
        try await withApp { client, _, mailbox in
            let stolen = try await signIn(client, mailbox)
            try await client.sendLink()
            let other = try #require(try await client.complete(code: try await mailbox.code(at: 1)).json["refreshToken"] as? String)
            _ = try await client.refresh(stolen)
            _ = try await client.refresh(stolen)
            #expect(try await client.refresh(other).status == .ok)
        }
    }

    @Test(arguments: [
        (#"{"grantType":"refresh_token"}"#, "MISSING_REFRESH_TOKEN"),
        (#"{"grant_type":"refresh_token","refresh_token":""}"#, "MISSING_REFRESH_TOKEN"),
        (#"{"grantType":"refresh_token","refreshToken":"garbage"}"#, "INVALID_REFRESH_TOKEN"),
        (#"{"grantType":"refresh_token","refreshToken":42}"#, "INVALID_REFRESH_TOKEN"),
        (#"{"grantType":"authorization_code","refreshToken":"x"}"#, "INVALID_GRANT_TYPE"),
        (#"{"refreshToken":"x"}"#, "MISSING_GRANT_TYPE"),
    ])
    func refusesBadRefreshRequests(_ body: String, _ message: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/token", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage == message)
        }
    }
}
