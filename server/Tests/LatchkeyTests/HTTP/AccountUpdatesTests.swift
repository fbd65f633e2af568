import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

@Suite(.outsideProcesses) struct AccountUpdatesTests {
    let adminHeaders: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]

    /// Signs Alice in by link and returns the sign-in response.
    func signIn(_ client: any TestClientProtocol, _ mailbox: Mailbox, at index: Int = 0) async throws -> [String: Any] {
        try await client.sendLink()
        return try await client.complete(code: try await mailbox.code(at: index)).json
    }

    @Test(arguments: StoreKind.all) func aRecentSessionCanSetAPasswordWhichEndsOtherSessions(_ store: StoreKind) async throws {
        let clock = FixedClock(Date().addingTimeInterval(-60))
        try await withApp(store: store, clock: clock) { client, _, mailbox in
            let first = try await signIn(client, mailbox)
            let other = try await signIn(client, mailbox, at: 1)
            clock.advance(by: 5)
            let idToken = try #require(first["idToken"] as? String)
            let response = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","password":"new-password"}"#)
            #expect(response.status == .ok)
            let body = try response.json
            #expect(body["kind"] as? String == "identitytoolkit#SetAccountInfoResponse")
            let newToken = try #require(body["idToken"] as? String)
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(newToken)"}"#).status == .ok)
            #expect(try await client.refresh(try #require(other["refreshToken"] as? String)).errorMessage == "TOKEN_EXPIRED")
            let login = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"alice@example.com","password":"new-password"}"#)
            #expect(login.status == .ok)
        }
    }

    @Test func sensitiveChangesNeedARecentSignIn() async throws {
        let clock = FixedClock(Date().addingTimeInterval(-600))
        try await withApp(clock: clock) { client, _, mailbox in
            let idToken = try #require(try await signIn(client, mailbox)["idToken"] as? String)
            clock.advance(by: 301)
            let update = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","password":"new-password"}"#)
            #expect(update.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            let delete = try await client.post("/v1/accounts:delete", json: #"{"idToken":"\#(idToken)"}"#)
            #expect(delete.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }

    @Test func unlinkingThePasswordKeepsEmailLinkSignIn() async throws {
        try await withApp(["emailEnumerationProtection": false]) { client, _, mailbox in
            let firstToken = try #require(try await signIn(client, mailbox)["idToken"] as? String)
            let changed = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(firstToken)","password":"a-password"}"#)
            // A password change ends every session, the one that made it too; it answers with a new one.
            let idToken = try #require(try changed.json["idToken"] as? String)
            // A first password is a new way in: the address is told.
            _ = try await mailbox.waitForMessages(2)
            #expect(mailbox.readableMessages().last?.contains("A password was added to the") == true)
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(firstToken)"}"#).errorMessage == "TOKEN_EXPIRED")
            let uri = #"{"identifier":"alice@example.com","continueUri":"https://app.example.com"}"#
            #expect(try await client.post("/v1/accounts:createAuthUri", json: uri).json["signinMethods"] as? [String] == ["password", "emailLink"])
            let unlink = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","deleteProvider":["password"]}"#)
            #expect(unlink.status == .ok)
            #expect(try await client.post("/v1/accounts:createAuthUri", json: uri).json["signinMethods"] as? [String] == ["emailLink"])
            try await client.sendLink()
            #expect(try await client.complete(code: try await mailbox.code(at: 2)).status == .ok)
        }
    }

    @Test func validSinceRevokesEveryEarlierSession() async throws {
        let clock = FixedClock(Date().addingTimeInterval(-60))
        try await withApp(clock: clock) { client, _, mailbox in
            let session = try await signIn(client, mailbox)
            let idToken = try #require(session["idToken"] as? String)
            clock.advance(by: 5)
            let now = Int(clock.now.timeIntervalSince1970)
            #expect(try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","validSince":"\#(now)"}"#).status == .ok)
            #expect(try await client.refresh(try #require(session["refreshToken"] as? String)).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(idToken)"}"#).errorMessage == "TOKEN_EXPIRED")
        }
    }

    @Test(arguments: StoreKind.all) func adminsLookUpDisableAndDeleteAnyAccount(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, _, mailbox in
            let session = try await signIn(client, mailbox)
            let localID = try #require(session["localId"] as? String)
            let found = try await client.post("/v1/accounts:lookup", json: #"{"email":["alice@example.com"]}"#, headers: adminHeaders)
            #expect((try found.json["users"] as? [[String: Any]])?.first?["localId"] as? String == localID)

            let disable = try await client.post("/v1/accounts:update", json: #"{"localId":"\#(localID)","disableUser":true}"#, headers: adminHeaders)
            #expect(disable.status == .ok)
            let refreshToken = try #require(session["refreshToken"] as? String)
            #expect(try await client.refresh(refreshToken).errorMessage == "USER_DISABLED")
            let idToken = try #require(session["idToken"] as? String)
            #expect(try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(idToken)"}"#).errorMessage == "USER_DISABLED")
            try await client.sendLink()
            #expect(try await client.complete(code: try await mailbox.code(at: 1)).errorMessage == "USER_DISABLED")

            #expect(try await client.post("/v1/accounts:delete", json: #"{"localId":"\#(localID)"}"#, headers: adminHeaders).status == .ok)
            #expect(try await client.refresh(refreshToken).errorMessage == "USER_NOT_FOUND")
            let gone = try await client.post("/v1/accounts:lookup", json: #"{"localId":["\#(localID)"]}"#, headers: adminHeaders)
            #expect((try gone.json["users"] as? [[String: Any]])?.isEmpty == true)
        }
    }

    @Test func aDeletedAccountsPendingCodesCreateAFreshAccount() async throws {
        try await withApp { client, _, mailbox in
            let session = try await signIn(client, mailbox)
            try await client.sendLink()
            let pending = try await mailbox.code(at: 1)
            let idToken = try #require(session["idToken"] as? String)
            #expect(try await client.post("/v1/accounts:delete", json: #"{"idToken":"\#(idToken)"}"#).status == .ok)
            let fresh = try await client.complete(code: pending).json
            #expect(fresh["isNewUser"] as? Bool == true)
            #expect(fresh["localId"] as? String != session["localId"] as? String)
        }
    }

    @Test func returnOobLinkIsForAdminsAndSendsNoMail() async throws {
        try await withApp { client, _, mailbox in
            let body = #"{"requestType":"EMAIL_SIGNIN","email":"bob@example.com","continueUrl":"https://app.example.com/","returnOobLink":true}"#
            #expect(try await client.post("/v1/accounts:sendOobCode", json: body).errorMessage == "Request had invalid authentication credentials.")
            let wrong: HTTPFields = [.authorization: "Bearer not-the-token"]
            #expect(try await client.post("/v1/accounts:sendOobCode", json: body, headers: wrong).status == .unauthorized)
            let response = try await client.post("/v1/accounts:sendOobCode", json: body, headers: adminHeaders).json
            let code = try #require(response["oobCode"] as? String)
            #expect((response["oobLink"] as? String)?.hasPrefix(TestWorkspace.publicURL + "/__/auth/action?mode=signIn&oobCode=\(code)") == true)
            #expect(try await client.complete(email: "bob@example.com", code: code).status == .ok)
            try await Task.sleep(for: .milliseconds(200))
            #expect(mailbox.messages().isEmpty)
        }
    }

    @Test func profileFieldsAreSetReadAndDeleted() async throws {
        try await withApp { client, _, mailbox in
            let idToken = try #require(try await signIn(client, mailbox)["idToken"] as? String)
            let set = try await client.post(
                "/v1/accounts:update", json: #"{"idToken":"\#(idToken)","displayName":"Alice A.","photoUrl":"https://img.example.com/a.png"}"#)
            #expect(try set.json["displayName"] as? String == "Alice A.")
            let user = try #require((try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(idToken)"}"#).json["users"] as? [[String: Any]])?.first)
            #expect(user["displayName"] as? String == "Alice A." && user["photoUrl"] as? String == "https://img.example.com/a.png")

            let cleared = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","deleteAttribute":["DISPLAY_NAME","PHOTO_URL"]}"#)
            #expect(try cleared.json["displayName"] == nil && cleared.json["photoUrl"] == nil)
            let control = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","displayName":"a\nb"}"#)
            #expect(control.errorMessage == "INVALID_PROFILE_ATTRIBUTE")
            let c1 = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","displayName":"a\u0085b"}"#)
            #expect(c1.errorMessage == "INVALID_PROFILE_ATTRIBUTE")
        }
    }

    /// A direct change needs a free address and leaves it unverified; a proven address is left only through
    /// `VERIFY_AND_CHANGE_EMAIL`, whose change mails the old address its undo.
    @Test(arguments: StoreKind.all) func changingTheEmailNeedsAFreeAddressAndAnUnprovenOne(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, _, mailbox in
            try await client.sendLink(to: "bob@example.com")
            let bob = try #require(try await client.complete(email: "bob@example.com", code: try await mailbox.code()).json["idToken"] as? String)
            let proven = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(bob)","email":"bob@new.example.com"}"#)
            #expect(proven.errorMessage == "OPERATION_NOT_ALLOWED : Please verify the new email before changing email.")
            let signedUp = try await client.post("/v1/accounts:signUp", json: #"{"email":"alice@example.com","password":"first password"}"#)
            let idToken = try #require(try signedUp.json["idToken"] as? String)
            let taken = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","email":"bob@example.com"}"#)
            #expect(taken.errorMessage == "EMAIL_EXISTS")
            let moved = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","email":"alice@new.example.com"}"#).json
            #expect(moved["email"] as? String == "alice@new.example.com" && moved["emailVerified"] as? Bool == false)
        }
    }

    /// The provider a session signed in with is the session's own: the anonymous session of an account that later
    /// proved an address still refreshes as anonymous, and the link's session signs in as password.
    @Test func aSessionKeepsTheProviderItSignedInWith() async throws {
        @Sendable func provider(_ idToken: Any?) throws -> String? {
            let token = try #require(idToken as? String)
            let payload = try #require(Data(base64Encoded: token.split(separator: ".")[1].description.base64Padded))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            return (claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String
        }
        try await withApp { client, _, mailbox in
            let anonymous = try await client.post("/v1/accounts:signUp", json: "{}").json
            #expect(try provider(anonymous["idToken"]) == "anonymous")
            try await client.sendLink()
            let linked = try await client.post(
                "/v1/accounts:signInWithEmailLink",
                json: #"{"email":"alice@example.com","oobCode":"\#(try await mailbox.code())","idToken":"\#(try #require(anonymous["idToken"] as? String))"}"#
            ).json
            #expect(try provider(linked["idToken"]) == "password")
            let refreshed = try await client.refresh(try #require(anonymous["refreshToken"] as? String)).json
            #expect(try provider(refreshed["id_token"]) == "anonymous")
        }
    }

    @Test func anAnonymousAccountIsUpgradedByCompletingALink() async throws {
        try await withApp { client, _, mailbox in
            let anonymous = try await client.post("/v1/accounts:signUp", json: "{}").json
            #expect(anonymous["email"] == nil)
            let idToken = try #require(anonymous["idToken"] as? String)
            let payload = try #require(Data(base64Encoded: idToken.split(separator: ".")[1].description.base64Padded))
            #expect(String(decoding: payload, as: UTF8.self).contains(#""sign_in_provider":"anonymous""#))

            try await client.sendLink()
            let upgraded = try await client.post(
                "/v1/accounts:signInWithEmailLink", json: #"{"email":"alice@example.com","oobCode":"\#(try await mailbox.code())","idToken":"\#(idToken)"}"#
            ).json
            #expect(upgraded["localId"] as? String == anonymous["localId"] as? String)
            #expect(upgraded["isNewUser"] as? Bool == false && upgraded["email"] as? String == "alice@example.com")
        }
    }
}
