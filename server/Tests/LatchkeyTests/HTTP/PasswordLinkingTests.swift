import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// `accounts:signUp` with an `idToken`: how Firebase's SDKs link an email and password to the signed-in user
/// (`linkWithCredential(EmailAuthProvider.credential(…))`), above all to upgrade an anonymous one.
@Suite struct PasswordLinkingTests {
    static let paths = [
        "/v1/accounts:signUp", "/identitytoolkit.googleapis.com/v1/accounts:signUp", "/v1/projects/test-project/accounts:signUp",
        // What the iOS SDK's `SignUpNewUserRequest` posts.
        "/www.googleapis.com/identitytoolkit/v3/relyingparty/signupNewUser",
    ]

    static func link(_ client: any TestClientProtocol, _ idToken: String, _ email: String, path: String = paths[0]) async throws -> TestResponse {
        try await client.post(path, json: #"{"idToken":"\#(idToken)","email":"\#(email)","password":"linked password","returnSecureToken":true}"#)
    }

    static func anonymous(_ client: any TestClientProtocol) async throws -> (idToken: String, localID: String) {
        let body = try await client.post("/v1/accounts:signUp", json: "{}").json
        return (try #require(body["idToken"] as? String), try #require(body["localId"] as? String))
    }

    @Test(arguments: StoreKind.all, paths)
    func anAnonymousUserKeepsTheirAccountWhenLinkingAPassword(_ store: StoreKind, _ path: String) async throws {
        try await withApp(store: store) { client, _, _ in
            let (idToken, localID) = try await Self.anonymous(client)
            let linked = try await Self.link(client, idToken, "Anna@Example.com", path: path)
            #expect(linked.status == .ok, "\(linked.text)")
            let body = try linked.json
            #expect(body["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
            #expect(body["localId"] as? String == localID && body["email"] as? String == "anna@example.com")
            let claims = try decodedClaims(of: body["idToken"])
            #expect(claims["sub"] as? String == localID && claims["email"] as? String == "anna@example.com")
            #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
            #expect(claims["email_verified"] as? Bool == false)

            let signedIn = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"anna@example.com","password":"linked password"}"#)
            #expect(try signedIn.json["localId"] as? String == localID)
            let user = try #require((try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(idToken)"}"#).json["users"] as? [[String: Any]])?.first)
            #expect((user["providerUserInfo"] as? [[String: Any]])?.map { $0["providerId"] as? String } == ["password"])
            #expect(try await client.accountIDs() == [localID])
        }
    }

    @Test func aPasswordJoinsAnAddressTheAccountProvedAndItStaysProven() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink()
            let session = try await client.complete(code: try await mailbox.code()).json
            let linked = try await Self.link(client, try #require(session["idToken"] as? String), "alice@example.com")
            #expect(linked.status == .ok, "\(linked.text)")
            #expect(try linked.json["localId"] as? String == session["localId"] as? String)
            #expect(try decodedClaims(of: try linked.json["idToken"])["email_verified"] as? Bool == true)
            let signedIn = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"alice@example.com","password":"linked password"}"#)
            #expect(try signedIn.json["localId"] as? String == session["localId"] as? String)
        }
    }

    @Test(arguments: StoreKind.all) func anAddressOfAnotherAccountIsRefusedAndNothingChanges(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, _, _ in
            #expect(try await client.post("/v1/accounts:signUp", json: #"{"email":"bob@example.com","password":"bobs password"}"#).status == .ok)
            let (idToken, _) = try await Self.anonymous(client)
            #expect(try await Self.link(client, idToken, "bob@example.com").errorMessage == "EMAIL_EXISTS")
            #expect(try await client.accountIDs().count == 2)
            let user = try #require((try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(idToken)"}"#).json["users"] as? [[String: Any]])?.first)
            #expect(user["email"] == nil && user["passwordHash"] == nil)
        }
    }

    @Test func anAccountWithAPasswordChangesItRatherThanLinkingAnother() async throws {
        try await withApp { client, _, _ in
            let created = try await client.post("/v1/accounts:signUp", json: #"{"email":"carol@example.com","password":"carols password"}"#).json
            let refused = try await Self.link(client, try #require(created["idToken"] as? String), "carol@example.com")
            #expect(refused.errorMessage == "PROVIDER_ALREADY_LINKED")
            let signedIn = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"carol@example.com","password":"carols password"}"#)
            #expect(signedIn.status == .ok)
        }
    }

    @Test(arguments: [
        (#"{"idToken":"ID"}"#, "MISSING_EMAIL"), (#"{"idToken":"ID","email":"dan@example.com"}"#, "MISSING_PASSWORD"),
        (#"{"idToken":"garbage","email":"dan@example.com","password":"dans password"}"#, "INVALID_ID_TOKEN"),
        (#"{"idToken":7,"email":"dan@example.com","password":"dans password"}"#, "INVALID_ID_TOKEN"),
    ])
    func incompleteOrBadRequestsAreRefused(_ body: String, _ message: String) async throws {
        try await withApp { client, _, _ in
            let (idToken, localID) = try await Self.anonymous(client)
            #expect(try await client.post("/v1/accounts:signUp", json: body.replacingOccurrences(of: "\"ID\"", with: "\"\(idToken)\"")).errorMessage == message)
            #expect(try await client.accountIDs() == [localID])
        }
    }

    @Test func aDisabledAccountLinksNothing() async throws {
        try await withApp { client, _, _ in
            let (idToken, localID) = try await Self.anonymous(client)
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            #expect(try await client.post("/v1/accounts:update", json: #"{"localId":"\#(localID)","disableUser":true}"#, headers: admin).status == .ok)
            #expect(try await Self.link(client, idToken, "erin@example.com").errorMessage == "USER_DISABLED")
        }
    }
}
