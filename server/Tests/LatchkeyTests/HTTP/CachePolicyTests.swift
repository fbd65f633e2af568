import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import NIOCore
import Testing

/// Answers that carry tokens, codes or account data are never stored by a cache; public documents may be.
@Suite struct CachePolicyTests {
    static let pragma = HTTPField.Name("Pragma")!

    static func expectNoStore(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
        #expect(response.headers[pragma] == "no-cache", sourceLocation: sourceLocation)
    }

    @Test func signInAnswersWithTokensAreNoStoreUnderEveryFamily() async throws {
        try await withApp { client, _, mailbox in
            let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
            let sent = try await client.post(v3 + "getOobConfirmationCode", json: PathFamilyTests.sendBody)
            #expect(sent.status == .ok)
            Self.expectNoStore(sent)
            let signedIn = try await client.post(
                "/identitytoolkit.googleapis.com/v1/projects/test-project/accounts:signInWithEmailLink",
                json: #"{"email":"a@example.com","oobCode":"\#(try await mailbox.code())"}"#)
            Self.expectNoStore(signedIn)
            let token = try #require(try signedIn.json["refreshToken"] as? String)
            let refreshed = try await client.post(
                "/securetoken.googleapis.com/v1/token", json: #"{"grant_type":"refresh_token","refresh_token":"\#(token)"}"#)
            #expect(refreshed.status == .ok)
            Self.expectNoStore(refreshed)
            let created = try await client.post("/v1/accounts:signUp", json: #"{"email":"b@example.com","password":"hunter22"}"#)
            #expect(created.status == .ok)
            Self.expectNoStore(created)
        }
    }

    @Test(arguments: [
        ("/v1/accounts:sendOobCode", "{}", "nope"),  // unknown API key
        ("/v1/accounts:sendOobCode", "{}", nil),  // no API key
        ("/v1/accounts:signInWithEmailLink", "not json", TestWorkspace.apiKey),
        ("/identitytoolkit.googleapis.com/v1/accounts:signInWithEmailLink", #"{"email":"a@example.com","oobCode":"x"}"#, TestWorkspace.apiKey),
        ("/v1/token", #"{"grantType":"refresh_token","refreshToken":"x"}"#, TestWorkspace.apiKey),
        ("/v1/accounts:nothing", "{}", TestWorkspace.apiKey),  // 404 from the router
        ("/v1/accounts:sendOobCode", #"{"pad":"\#(String(repeating: "x", count: 70 * 1024))"}"#, TestWorkspace.apiKey),  // 413
    ])
    func errorEnvelopesAreNoStore(_ path: String, _ body: String, _ key: String?) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post(path, json: body, key: key)
            #expect(response.status.code >= 400)
            Self.expectNoStore(response)
        }
    }

    @Test func aWrongMethodIsNoStore() async throws {
        try await withApp { client, _, _ in
            let response = try await client.execute(uri: "/v1/accounts:sendOobCode", method: .get)
            #expect(response.status == .methodNotAllowed)
            Self.expectNoStore(response)
        }
    }

    /// Verifiers fetch the keys often; they are public and change rarely, so caches may keep them.
    @Test func publicDocumentsKeepTheirOwnCaching() async throws {
        try await withApp { client, _, _ in
            let keys = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
            #expect(keys.headers[.cacheControl] == "public, max-age=3600")
            #expect(keys.headers[Self.pragma] == nil)
        }
    }
}
