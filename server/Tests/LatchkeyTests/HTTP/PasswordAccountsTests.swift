import Foundation
import GRDB
import HTTPTypes
import HummingbirdBcrypt
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct PasswordAccountsTests {
    @discardableResult
    func signUp(_ client: any TestClientProtocol, _ email: String = "alice@example.com", password: String = "hunter22") async throws
        -> TestResponse
    {
        try await client.post("/v1/accounts:signUp", json: #"{"email":"\#(email)","password":"\#(password)","returnSecureToken":true}"#)
    }

    func signIn(_ client: any TestClientProtocol, _ email: String = "alice@example.com", password: String = "hunter22") async throws
        -> TestResponse
    {
        try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    func authURI(_ client: any TestClientProtocol, _ email: String = "alice@example.com") async throws -> [String: Any] {
        try await client.post("/v1/accounts:createAuthUri", json: #"{"identifier":"\#(email)","continueUri":"https://app.example.com"}"#).json
    }

    @Test func signUpCreatesAnUnverifiedAccountThatSignsInWithItsPassword() async throws {
        try await withApp { client, workspace, _ in
            let created = try await signUp(client, "Alice@Example.com")
            #expect(created.status == .ok)
            let body = try created.json
            #expect(body["kind"] as? String == "identitytoolkit#SignupNewUserResponse")
            #expect(body["email"] as? String == "alice@example.com")
            let verified = try await workspace.openDatabase().read { try Bool.fetchOne($0, sql: "SELECT email_verified FROM accounts") }
            #expect(verified == false)

            let signedIn = try await signIn(client)
            #expect(try signedIn.json["kind"] as? String == "identitytoolkit#VerifyPasswordResponse")
            #expect(try signedIn.json["localId"] as? String == body["localId"] as? String)
            #expect(try signedIn.json["registered"] as? Bool == true)
            let stored = try await workspace.openDatabase().read { try String.fetchOne($0, sql: "SELECT password_hash FROM accounts") }
            // Plain bcrypt, which Firebase's BCRYPT import can check.
            #expect(stored.map { Bcrypt.verify("hunter22", hash: $0) } == true && stored?.contains("hunter22") == false)
        }
    }

    @Test(arguments: [
        (#"{"email":"a@example.com","password":"12345"}"#, "WEAK_PASSWORD : Password should be at least 6 characters"),
        (#"{"email":"a@example.com"}"#, "MISSING_PASSWORD"),
        (#"{"password":"123456"}"#, "MISSING_EMAIL"),
        (#"{"email":"nope","password":"123456"}"#, "INVALID_EMAIL"),
    ])
    func signUpRefusesBadInput(_ body: String, _ message: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:signUp", json: body)
            #expect(response.errorMessage == message)
        }
    }

    @Test(arguments: StoreKind.all) func anAddressCanBeRegisteredOnce(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, _, _ in
            try await signUp(client)
            #expect(try await signUp(client, "ALICE@example.com").errorMessage == "EMAIL_EXISTS")
        }
    }

    @Test func enumerationProtectionMakesEveryPasswordFailureLookTheSame() async throws {
        try await withApp { client, _, _ in
            try await signUp(client)
            #expect(try await signIn(client, password: "wrong-password").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            #expect(try await signIn(client, "nobody@example.com").errorMessage == "INVALID_LOGIN_CREDENTIALS")
            let uri = try await authURI(client)
            #expect(Set(uri.keys) == ["kind", "sessionId"])
        }
    }

    @Test func withoutProtectionFailuresAndMethodsAreSpecific() async throws {
        try await withApp(["emailEnumerationProtection": false]) { client, _, _ in
            try await signUp(client)
            #expect(try await signIn(client, password: "wrong-password").errorMessage == "INVALID_PASSWORD")
            #expect(try await signIn(client, "nobody@example.com").errorMessage == "EMAIL_NOT_FOUND")
            let known = try await authURI(client)
            #expect(known["registered"] as? Bool == true && known["signinMethods"] as? [String] == ["password"])
            let unknown = try await authURI(client, "nobody@example.com")
            #expect(unknown["registered"] as? Bool == false && unknown["signinMethods"] as? [String] == [])
        }
    }

    @Test func theAttackersPreRegistrationDiesWhenTheVictimSignsInByLink() async throws {
        let clock = FixedClock(Date().addingTimeInterval(-60))
        try await withApp(["emailEnumerationProtection": false], clock: clock) { client, _, mailbox in
            let attacker = try await signUp(client, "victim@example.com", password: "attacker-pw").json
            let attackerRefresh = try #require(attacker["refreshToken"] as? String)
            let attackerIDToken = try #require(attacker["idToken"] as? String)
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(attackerIDToken)"}"#).status == .ok)
            clock.advance(by: 10)

            try await client.sendLink(to: "victim@example.com")
            let victim = try await client.complete(email: "victim@example.com", code: try await mailbox.code())
            #expect(victim.status == .ok)
            #expect(try victim.json["isNewUser"] as? Bool == false)

            #expect(try await signIn(client, "victim@example.com", password: "attacker-pw").errorMessage == "INVALID_PASSWORD")
            #expect(try await client.refresh(attackerRefresh).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(attackerIDToken)"}"#).errorMessage == "TOKEN_EXPIRED")
            #expect(try await authURI(client, "victim@example.com")["signinMethods"] as? [String] == ["emailLink"])

            let victimToken = try #require(try victim.json["idToken"] as? String)
            let user = try #require((try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(victimToken)"}"#).json["users"] as? [[String: Any]])?.first)
            #expect(user["emailVerified"] as? Bool == true && user["passwordHash"] == nil)
        }
    }

    @Test func aVerifiedAccountKeepsItsPasswordWhenSigningInByLink() async throws {
        try await withApp(["emailEnumerationProtection": false]) { client, workspace, mailbox in
            let localID = try #require(try await signUp(client).json["localId"] as? String)
            let verify = #"{"localId":"\#(localID)","emailVerified":true}"#
            let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            #expect(try await client.post("/v1/accounts:update", json: verify, key: nil, headers: admin).status == .ok)
            try await client.sendLink()
            #expect(try await client.complete(code: try await mailbox.code()).status == .ok)
            #expect(try await signIn(client).status == .ok)
            #expect(try await authURI(client)["signinMethods"] as? [String] == ["password", "emailLink"])
        }
    }

    @Test(arguments: [#"{}"#, #"{"idToken":"garbage"}"#, #"{"idToken":"a.b.c"}"#])
    func lookupRefusesInvalidTokens(_ body: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:lookup", json: body)
            #expect(response.errorMessage == "INVALID_ID_TOKEN")
        }
    }

    @Test func twentyConcurrentLinkCompletionsForOneNewAddressCreateOneAccount() async throws {
        try await withApp { client, workspace, mailbox in
            for _ in 0..<20 { try await client.sendLink(to: "new@example.com") }
            let codes = try await mailbox.waitForMessages(20).map {
                try #require(try Mailbox.link(in: $0).queryItems?.first { $0.name == "oobCode" }?.value)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for code in codes { group.addTask { try await client.complete(email: "new@example.com", code: code).status.code } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // Only the newest five codes are still outstanding; every one of them signs in to the same account.
            #expect(statuses.filter { $0 == 200 }.count == LinkIssuer.maximumOutstandingCodes)
            let accounts = try await workspace.openDatabase().read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM accounts") }
            #expect(accounts == 1)
        }
    }

    @Test(arguments: [(#"{"continueUri":"https://app.example.com"}"#, "MISSING_IDENTIFIER"), (#"{"identifier":"not-an-email"}"#, "INVALID_IDENTIFIER")])
    func createAuthUriRefusesBadIdentifiers(_ body: String, _ message: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:createAuthUri", json: body)
            #expect(response.errorMessage == message)
        }
    }

    @Test func aVerifiedAccountWithoutPasswordKeepsItsOtherSessions() async throws {
        try await withApp { client, _, mailbox in
            var refreshTokens: [String] = []
            for index in 0..<3 {
                try await client.sendLink()
                refreshTokens.append(try #require(try await client.complete(code: try await mailbox.code(at: index)).json["refreshToken"] as? String))
            }
            for token in refreshTokens { #expect(try await client.refresh(token).status == .ok) }
        }
    }
}
