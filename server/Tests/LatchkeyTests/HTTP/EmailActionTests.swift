import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// The email actions other than sign-in through the HTTP API, on a fixed clock: lifetimes, recent sign-in, cool-offs,
/// and races between uses of one code on both stores.
@Suite(.outsideProcesses) struct EmailActionTests {
    static var settings: [String: Any] { ["rateLimits.sendPerEmail": [] as [Any], "rateLimits.completePerIP": [] as [Any]] }

    static func errorCode(_ response: TestResponse) -> String? {
        response.errorMessage?.components(separatedBy: " : ").first
    }

    static func signUp(_ client: any TestClientProtocol, _ email: String) async throws -> [String: Any] {
        let response = try await client.post("/v1/accounts:signUp", json: #"{"email":"\#(email)","password":"first password"}"#)
        #expect(response.status == .ok, "\(response.text)")
        return try response.json
    }

    static func ask(_ client: any TestClientProtocol, _ body: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:sendOobCode", json: body)
    }

    static func reset(_ client: any TestClientProtocol, _ code: String, to password: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(code)","newPassword":"\#(password)"}"#)
    }

    static func apply(_ client: any TestClientProtocol, _ code: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:update", json: #"{"oobCode":"\#(code)"}"#)
    }

    /// A password reset link lives an hour and a verification three days by default, each as configured.
    @Test func eachActionLivesAsLongAsConfigured() async throws {
        let clock = FixedClock()
        try await withApp(Self.settings.merging(["emailActions.verifyEmailLifetimeSeconds": 7_200]) { $1 }, clock: clock) { client, _, mailbox in
            let session = try await Self.signUp(client, "alice@example.com")
            let idToken = try #require(session["idToken"] as? String)
            #expect(try await Self.ask(client, #"{"requestType":"PASSWORD_RESET","email":"alice@example.com"}"#).status == .ok)
            #expect(try await Self.ask(client, #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#).status == .ok)
            let (reset, verify) = (try await mailbox.code(at: 0), try await mailbox.code(at: 1))
            clock.advance(by: 3_599)
            #expect(try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(reset)"}"#).status == .ok)
            clock.advance(by: 1)
            #expect(Self.errorCode(try await Self.reset(client, reset, to: "second password")) == "EXPIRED_OOB_CODE")
            #expect(Self.errorCode(try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(reset)"}"#)) == "EXPIRED_OOB_CODE")
            clock.advance(by: 3_600)
            #expect(Self.errorCode(try await Self.apply(client, verify)) == "EXPIRED_OOB_CODE")
        }
    }

    /// An address change needs a recent sign-in, as a direct change of the address does.
    @Test func anAddressChangeNeedsARecentSignIn() async throws {
        let clock = FixedClock()
        try await withApp(Self.settings, clock: clock) { client, _, _ in
            let session = try await Self.signUp(client, "bob@example.com")
            let idToken = try #require(session["idToken"] as? String)
            clock.advance(by: 301)
            let change = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"bob@example.net"}"#
            #expect(Self.errorCode(try await Self.ask(client, change)) == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            // A verification needs no recent sign-in.
            #expect(try await Self.ask(client, #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#).status == .ok)
        }
    }

    /// A verification or change code dies with the sessions of its account, since a session asked for it; a reset
    /// code, which anyone may ask for, does not.
    @Test func codesASessionAskedForDieWithTheSessions() async throws {
        let clock = FixedClock()
        try await withApp(Self.settings, clock: clock) { client, _, mailbox in
            let session = try await Self.signUp(client, "hal@example.com")
            let idToken = try #require(session["idToken"] as? String)
            #expect(try await Self.ask(client, #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#).status == .ok)
            #expect(try await Self.ask(client, #"{"requestType":"PASSWORD_RESET","email":"hal@example.com"}"#).status == .ok)
            let (verify, reset) = (try await mailbox.code(at: 0), try await mailbox.code(at: 1))
            clock.advance(by: 1)
            let revoked = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","validSince":"\#(Int(clock.now.timeIntervalSince1970))"}"#)
            #expect(revoked.status == .ok, "\(revoked.text)")
            #expect(Self.errorCode(try await Self.apply(client, verify)) == "INVALID_OOB_CODE")
            #expect(Self.errorCode(try await client.post("/v1/accounts:resetPassword", json: #"{"oobCode":"\#(verify)"}"#)) == "INVALID_OOB_CODE")
            #expect(try await Self.reset(client, reset, to: "second password").status == .ok)
        }
    }

    /// A reset code asked for before the password changed, by its owner or by an admin, no longer sets one: whoever
    /// holds the old mail must not undo the change.
    @Test(arguments: [false, true]) func aPasswordChangeSpendsOutstandingResetCodes(_ byAdmin: Bool) async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            let session = try await Self.signUp(client, "ivy@example.com")
            let (idToken, localID) = (try #require(session["idToken"] as? String), try #require(session["localId"] as? String))
            #expect(try await Self.ask(client, #"{"requestType":"PASSWORD_RESET","email":"ivy@example.com"}"#).status == .ok)
            let reset = try await mailbox.code(at: 0)
            let change =
                byAdmin
                ? try await client.post(
                    "/v1/accounts:update", json: #"{"localId":"\#(localID)","password":"second password"}"#,
                    headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"])
                : try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","password":"second password"}"#)
            #expect(change.status == .ok, "\(change.text)")
            #expect(Self.errorCode(try await Self.reset(client, reset, to: "third password")) == "INVALID_OOB_CODE")
            let signIn = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"ivy@example.com","password":"second password"}"#)
            #expect(signIn.status == .ok)
        }
    }

    /// A code of an address the account left (it changed address since) no longer works for it.
    @Test func aCodeForAnAddressTheAccountLeftIsInvalid() async throws {
        try await withApp(Self.settings) { client, _, mailbox in
            let session = try await Self.signUp(client, "carol@example.com")
            let idToken = try #require(session["idToken"] as? String)
            #expect(try await Self.ask(client, #"{"requestType":"PASSWORD_RESET","email":"carol@example.com"}"#).status == .ok)
            #expect(try await Self.ask(client, #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#).status == .ok)
            let change = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"carol@example.net"}"#
            #expect(try await Self.ask(client, change).status == .ok)
            let (reset, verify, move) = (try await mailbox.code(at: 0), try await mailbox.code(at: 1), try await mailbox.code(at: 2))
            #expect(try await Self.apply(client, move).status == .ok)
            #expect(Self.errorCode(try await Self.reset(client, reset, to: "second password")) == "INVALID_OOB_CODE")
            #expect(Self.errorCode(try await Self.apply(client, verify)) == "INVALID_OOB_CODE")
        }
    }

    /// Used at once from many clients, a code works once: one reset, one change (and one undo letter).
    @Test(arguments: StoreKind.all) func concurrentUsesOfACodeHaveOneWinner(_ kind: StoreKind) async throws {
        try await withApp(Self.settings, store: kind, testing: .live) { client, _, mailbox in
            let session = try await Self.signUp(client, "dave@example.com")
            let idToken = try #require(session["idToken"] as? String)
            #expect(try await Self.ask(client, #"{"requestType":"PASSWORD_RESET","email":"dave@example.com"}"#).status == .ok)
            let reset = try await mailbox.code(at: 0)
            let resets = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<8 { group.addTask { try await Self.reset(client, reset, to: "password \(attempt)").status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(resets.filter { $0 == .ok }.count == 1 && resets.filter { $0 == .badRequest }.count == 7)

            var opened = 0
            for attempt in 0..<8 {
                let body = #"{"email":"dave@example.com","password":"password \#(attempt)"}"#
                if try await client.post("/v1/accounts:signInWithPassword", json: body).status == .ok { opened += 1 }
            }
            #expect(opened == 1)
            let change = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"dave@example.net"}"#
            #expect(Self.errorCode(try await Self.ask(client, change)) == "TOKEN_EXPIRED")  // the reset ended that session
        }
    }

    /// Many applications of one change code at once: one moves the account, the rest are refused, and exactly one undo
    /// letter goes to the old address.
    @Test(arguments: StoreKind.all) func concurrentChangesHaveOneWinner(_ kind: StoreKind) async throws {
        try await withApp(Self.settings, store: kind, testing: .live) { client, _, mailbox in
            let session = try await Self.signUp(client, "erin@example.com")
            let idToken = try #require(session["idToken"] as? String)
            // Erin proves her address first: only a proven address gets an undo.
            #expect(try await Self.ask(client, #"{"requestType":"VERIFY_EMAIL","idToken":"\#(idToken)"}"#).status == .ok)
            #expect(try await Self.apply(client, try await mailbox.code(at: 0)).status == .ok)
            let change = #"{"requestType":"VERIFY_AND_CHANGE_EMAIL","idToken":"\#(idToken)","newEmail":"erin@example.net"}"#
            #expect(try await Self.ask(client, change).status == .ok)
            let code = try await mailbox.code(at: 1)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.apply(client, code).status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 1 && statuses.filter { $0 == .badRequest }.count == 7)
            let undo = try Mailbox.link(in: try await mailbox.waitForMessages(3)[2])
            #expect(undo.queryItems?.first { $0.name == "mode" }?.value == "recoverEmail")
            try await Task.sleep(for: .milliseconds(300))
            #expect(mailbox.messages().count == 3)
        }
    }

    /// A cool-off ends by itself after `emailLink.coolOffSeconds`: sends reach the address again.
    @Test func aCoolOffEndsByItself() async throws {
        let clock = FixedClock()
        try await withApp(Self.settings.merging(["emailLink.coolOffSeconds": 600]) { $1 }, clock: clock) { client, _, mailbox in
            try await client.sendLink(to: "fay@example.com")
            let message = Mailbox.quotedPrintableDecoded(try await mailbox.waitForMessages(1)[0])
            let start = try #require(message.range(of: "/__/auth/not-me?token="))
            let token = String(message[start.upperBound...].prefix { $0 != "&" && !$0.isWhitespace })
            let reported = try await client.post(
                SignInReport.path, json: "token=\(token)&intent=report", key: nil, headers: [.contentType: "application/x-www-form-urlencoded"])
            #expect(reported.status == .ok && reported.text.contains("fay@example.com"))
            try await client.sendLink(to: "fay@example.com")
            clock.advance(by: 599)
            try await client.sendLink(to: "fay@example.com")
            #expect(mailbox.messages().count == 1)
            clock.advance(by: 1)
            try await client.sendLink(to: "fay@example.com")
            #expect(try await mailbox.waitForMessages(2).count == 2)
        }
    }

    /// A report link is good for seven days after its email, and only with the secret that sealed it.
    @Test func reportTokensAreSealedAndAge() throws {
        let secret = ServerSecret(material: Data(repeating: 1, count: 32))
        let other = ServerSecret(material: Data(repeating: 2, count: 32))
        let email = try #require(EmailAddress("gil@example.com"))
        let issued = Date(timeIntervalSince1970: 1_800_000_000)
        let token = try SignInReport(email: email, issuedAt: issued).token(secret: secret)
        #expect(!token.contains("gil"))
        #expect(SignInReport(token: token, secret: secret, at: issued.addingTimeInterval(SignInReport.lifetime))?.email == email)
        #expect(SignInReport(token: token, secret: secret, at: issued.addingTimeInterval(SignInReport.lifetime + 1)) == nil)
        #expect(SignInReport(token: token, secret: secret, at: issued.addingTimeInterval(-1)) == nil)
        #expect(SignInReport(token: token, secret: other, at: issued) == nil)
        #expect(SignInReport(token: String(token.dropLast()), secret: secret, at: issued) == nil)
    }
}
