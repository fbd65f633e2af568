import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// Every way to hold an account before its address is proven ends when the owner signs in by link.
@Suite struct TakeoverTests {
    func post(_ client: any TestClientProtocol, _ method: String, _ json: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:\(method)", json: json)
    }

    /// The attacker's tokens must all be dead after the victim's link sign-in.
    func expectDead(_ client: any TestClientProtocol, idToken: String, refreshToken: String) async throws {
        #expect(try await client.refresh(refreshToken).errorMessage == "TOKEN_EXPIRED")
        #expect(try await post(client, "lookup", #"{"idToken":"\#(idToken)"}"#).errorMessage == "TOKEN_EXPIRED")
        let update = try await post(client, "update", #"{"idToken":"\#(idToken)","displayName":"mine"}"#)
        #expect(update.errorMessage == "TOKEN_EXPIRED")
    }

    @Test func aPasswordRemovedBeforeTheVictimArrivesStillLosesTheAttackerEverything() async throws {
        try await withApp { client, _, mailbox in
            let attacker = try await post(client, "signUp", #"{"email":"victim@example.com","password":"attacker-pw"}"#).json
            let idToken = try #require(attacker["idToken"] as? String)
            _ = try await post(client, "update", #"{"idToken":"\#(idToken)","deleteProvider":["password"]}"#)

            try await client.sendLink(to: "victim@example.com")
            #expect(try await client.complete(email: "victim@example.com", code: try await mailbox.code()).status == .ok)
            try await expectDead(client, idToken: idToken, refreshToken: try #require(attacker["refreshToken"] as? String))
        }
    }

    @Test func anAnonymousAccountGivenTheVictimsAddressLosesEverything() async throws {
        try await withApp { client, _, mailbox in
            let attacker = try await post(client, "signUp", "{}").json
            let idToken = try #require(attacker["idToken"] as? String)
            let moved = try await post(client, "update", #"{"idToken":"\#(idToken)","email":"victim@example.com"}"#)
            #expect(try moved.json["emailVerified"] as? Bool == false)

            try await client.sendLink(to: "victim@example.com")
            #expect(try await client.complete(email: "victim@example.com", code: try await mailbox.code()).status == .ok)
            try await expectDead(client, idToken: idToken, refreshToken: try #require(attacker["refreshToken"] as? String))
        }
    }

    @Test func tokensIssuedInTheSameSecondAsTheStripDieToo() async throws {
        // The clock never moves: the attacker's tokens and the strip share one second, which `validSince` cannot tell apart.
        try await withApp(clock: FixedClock(Date().addingTimeInterval(-30))) { client, _, mailbox in
            let attacker = try await post(client, "signUp", #"{"email":"victim@example.com","password":"attacker-pw"}"#).json
            try await client.sendLink(to: "victim@example.com")
            let victim = try await client.complete(email: "victim@example.com", code: try await mailbox.code()).json
            try await expectDead(
                client, idToken: try #require(attacker["idToken"] as? String), refreshToken: try #require(attacker["refreshToken"] as? String))
            let victimToken = try #require(victim["idToken"] as? String)
            #expect(try await post(client, "lookup", #"{"idToken":"\#(victimToken)"}"#).status == .ok)
        }
    }

    @Test func usersCannotUseAdminFields() async throws {
        try await withApp { client, workspace, mailbox in
            try await client.sendLink()
            let session = try await client.complete(code: try await mailbox.code()).json
            let idToken = try #require(session["idToken"] as? String)
            _ = try await post(client, "update", #"{"idToken":"\#(idToken)","disableUser":true,"emailVerified":false}"#)
            let user = try #require((try await post(client, "lookup", #"{"idToken":"\#(idToken)"}"#).json["users"] as? [[String: Any]])?.first)
            #expect(user["disabled"] == nil && user["emailVerified"] as? Bool == true)

            let other = try await post(client, "signUp", #"{"email":"other@example.com","password":"123456"}"#).json
            let otherID = try #require(other["localId"] as? String)
            _ = try await post(client, "update", #"{"localId":"\#(otherID)","displayName":"hijacked"}"#)
            let untouched = try await workspace.openDatabase().read { try String.fetchOne($0, sql: "SELECT display_name FROM accounts WHERE id = ?", arguments: [otherID]) }
            #expect(untouched == nil)
        }
    }

    @Test func aFarFutureValidSinceIsClampedAndCrashesNothing() async throws {
        let clock = FixedClock()
        try await withApp(clock: clock) { client, _, _ in
            let anonymous = try await post(client, "signUp", "{}").json
            let idToken = try #require(anonymous["idToken"] as? String)
            let response = try await post(client, "update", #"{"idToken":"\#(idToken)","validSince":"9223372036854775807"}"#)
            #expect(response.status == .ok)
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            let localID = try #require(anonymous["localId"] as? String)
            let found = try await client.post("/v1/accounts:lookup", json: #"{"localId":["\#(localID)"]}"#, headers: admin).json
            let user = try #require((found["users"] as? [[String: Any]])?.first)
            let text = try #require(user["validSince"] as? String)
            let validSince = try #require(Int(text))
            #expect(validSince == Int(clock.now.timeIntervalSince1970))
        }
    }

    @Test func anAdminPasswordChangeHandsOutNoSession() async throws {
        try await withApp { client, _, _ in
            let user = try await post(client, "signUp", #"{"email":"bob@example.com","password":"123456"}"#).json
            let localID = try #require(user["localId"] as? String)
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            let changed = try await client.post("/v1/accounts:update", json: #"{"localId":"\#(localID)","password":"654321"}"#, headers: admin).json
            #expect(changed["idToken"] == nil && changed["refreshToken"] == nil)
            #expect(try await post(client, "signInWithPassword", #"{"email":"bob@example.com","password":"654321"}"#).status == .ok)
        }
    }
}
