import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// `signInWithEmailLink` with an `idToken`: re-authentication and linking an address to a signed-in account.
@Suite struct LinkingTests {
    func complete(_ client: any TestClientProtocol, email: String, code: String, idToken: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signInWithEmailLink", json: #"{"email":"\#(email)","oobCode":"\#(code)","idToken":"\#(idToken)"}"#)
    }

    @Test func completingALinkForOnesOwnAddressReauthenticates() async throws {
        let clock = FixedClock(Date().addingTimeInterval(-900))
        try await withApp(clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let first = try await client.complete(code: try await mailbox.code()).json
            let oldToken = try #require(first["idToken"] as? String)
            clock.advance(by: 400)
            let stale = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(oldToken)","password":"new-password"}"#)
            #expect(stale.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")

            try await client.sendLink()
            let again = try await complete(client, email: "alice@example.com", code: try await mailbox.code(at: 1), idToken: oldToken).json
            #expect(again["localId"] as? String == first["localId"] as? String && again["isNewUser"] as? Bool == false)
            let freshToken = try #require(again["idToken"] as? String)
            let update = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(freshToken)","password":"new-password"}"#)
            #expect(update.status == .ok)
        }
    }

    @Test func aFreeAddressIsLinkedToTheSignedInAccount() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink()
            let alice = try await client.complete(code: try await mailbox.code()).json
            try await client.sendLink(to: "alice.work@example.com")
            let linked = try await complete(
                client, email: "alice.work@example.com", code: try await mailbox.code(at: 1), idToken: try #require(alice["idToken"] as? String)
            ).json
            #expect(linked["localId"] as? String == alice["localId"] as? String)
            #expect(linked["email"] as? String == "alice.work@example.com" && linked["isNewUser"] as? Bool == false)
        }
    }

    @Test func anAddressOwnedByAnotherAccountIsRefusedAndTheCodeKept() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink(to: "bob@example.com")
            _ = try await client.complete(email: "bob@example.com", code: try await mailbox.code())
            try await client.sendLink()
            let alice = try await client.complete(code: try await mailbox.code(at: 1)).json
            try await client.sendLink(to: "bob@example.com")
            let code = try await mailbox.code(at: 2)
            let refused = try await complete(client, email: "bob@example.com", code: code, idToken: try #require(alice["idToken"] as? String))
            #expect(refused.errorMessage == "EMAIL_EXISTS")
            #expect(try await client.complete(email: "bob@example.com", code: code).status == .ok)
        }
    }

    @Test(arguments: ["garbage", "revoked"])
    func aBadOrRevokedTokenIsRefusedBeforeTheCodeIsSpent(_ kind: String) async throws {
        let clock = FixedClock(Date().addingTimeInterval(-60))
        try await withApp(clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let session = try await client.complete(code: try await mailbox.code()).json
            var idToken = try #require(session["idToken"] as? String)
            if kind == "revoked" {
                clock.advance(by: 5)
                _ = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","validSince":"\#(Int(clock.now.timeIntervalSince1970))"}"#)
            } else {
                idToken = "garbage"
            }
            try await client.sendLink()
            let code = try await mailbox.code(at: 1)
            let refused = try await complete(client, email: "alice@example.com", code: code, idToken: idToken)
            #expect(refused.errorMessage == (kind == "revoked" ? "TOKEN_EXPIRED" : "INVALID_ID_TOKEN"))
            #expect(try await client.complete(code: code).status == .ok)
        }
    }

    @Test func replacingAnExistingAddressNeedsARecentSignIn() async throws {
        let clock = FixedClock(Date().addingTimeInterval(-900))
        try await withApp(clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let alice = try await client.complete(code: try await mailbox.code()).json
            clock.advance(by: 400)
            try await client.sendLink(to: "mallory@example.com")
            let code = try await mailbox.code(at: 1)
            let stale = try await complete(client, email: "mallory@example.com", code: code, idToken: try #require(alice["idToken"] as? String))
            #expect(stale.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            #expect(try await client.complete(email: "mallory@example.com", code: code).status == .ok)
        }
    }
}
