import Foundation
import HTTPTypes
import GRDB
import HummingbirdTesting
import JWTKit
import Latchkey
import Testing

@Suite(.outsideProcesses) struct SignInWithEmailLinkTests {
    @Test func completingALinkCreatesAVerifiedAccountAndReturnsTokens() async throws {
        try await withApp { client, workspace, mailbox in
            try await client.sendLink(to: "Alice@Example.com")
            let response = try await client.complete(email: "alice@example.com", code: try await mailbox.code())
            #expect(response.status == .ok)
            let body = try response.json
            #expect(body["kind"] as? String == "identitytoolkit#EmailLinkSigninResponse")
            #expect(body["email"] as? String == "alice@example.com")
            #expect(body["expiresIn"] as? String == "3600")
            #expect(body["isNewUser"] as? Bool == true)
            let localID = try #require(body["localId"] as? String)
            #expect(localID.count == 28)
            #expect((body["refreshToken"] as? String)?.isEmpty == false)
            #expect(!response.text.contains("null"))

            let verified = try await workspace.openDatabase().read { db in
                try Bool.fetchOne(db, sql: "SELECT email_verified FROM accounts WHERE id = ?", arguments: [localID])
            }
            #expect(verified == true)

            try await client.sendLink(to: "alice@example.com")
            let again = try await client.complete(code: try await mailbox.code(at: 1))
            #expect(try again.json["isNewUser"] as? Bool == false)
            #expect(try again.json["localId"] as? String == localID)
        }
    }

    /// Firebase's lookup marks users who sign in by email link, and only them.
    @Test func lookupSaysEmailLinkSigninForUsersWhoSignInByLink() async throws {
        try await withApp { client, _, mailbox in
            func user(_ idToken: Any?) async throws -> [String: Any] {
                let token = try #require(idToken as? String)
                return try #require((try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(token)"}"#).json["users"] as? [[String: Any]])?.first)
            }
            try await client.sendLink()
            let linked = try await client.complete(code: try await mailbox.code()).json
            #expect(try await user(linked["idToken"])["emailLinkSignin"] as? Bool == true)
            let password = try await client.post("/v1/accounts:signUp", json: #"{"email":"bob@example.com","password":"secret-pw"}"#).json
            #expect(try await user(password["idToken"])["emailLinkSignin"] == nil)
        }
    }

    @Test func idTokenCarriesFirebaseClaimsAndVerifiesAgainstThePublishedJWKS() async throws {
        let clock = FixedClock(Date().addingTimeInterval(-10))
        try await withApp(clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let body = try await client.complete(code: try await mailbox.code()).json
            let idToken = try #require(body["idToken"] as? String)

            let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
            let keys = try await JWTKeyCollection().add(jwksJSON: jwks.text)
            let claims = try await keys.verify(idToken, as: VerifiedClaims.self)
            let now = Int(clock.now.timeIntervalSince1970)
            #expect(claims.iss == TestWorkspace.publicURL)
            #expect(claims.aud == "test-project")
            #expect(claims.sub == body["localId"] as? String && claims.user_id == claims.sub)
            #expect(claims.iat == now && claims.exp == now + 3600 && claims.auth_time == now)
            #expect(claims.email == "alice@example.com" && claims.email_verified)
            #expect(claims.firebase.sign_in_provider == "password")
            #expect(claims.firebase.identities["email"] == ["alice@example.com"])

            let header = try #require(Data(base64Encoded: String(idToken.prefix { $0 != "." }).base64Padded))
            let fields = try #require(try JSONSerialization.jsonObject(with: header) as? [String: String])
            #expect(fields["alg"] == "RS256")
            #expect(jwks.text.contains(try #require(fields["kid"])))

            let discovery = try await client.execute(uri: "/.well-known/openid-configuration", method: .get).json
            #expect(discovery["issuer"] as? String == TestWorkspace.publicURL)
            #expect(discovery["jwks_uri"] as? String == TestWorkspace.publicURL + "/.well-known/jwks.json")
        }
    }

    @Test func aDifferentEmailIsRefusedWithoutConsumingTheCode() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink()
            let code = try await mailbox.code()
            let mismatch = try await client.complete(email: "mallory@example.com", code: code)
            #expect(mismatch.errorMessage == "INVALID_EMAIL : The email provided does not match the sign-in email address.")
            #expect(try await client.complete(code: code).status == .ok)
        }
    }

    @Test func fiveMismatchesKillTheCode() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink()
            let code = try await mailbox.code()
            for attempt in 1...5 {
                let response = try await client.complete(email: "guess\(attempt)@example.com", code: code)
                #expect(response.errorMessage?.hasPrefix("INVALID_EMAIL") == true)
            }
            #expect(try await client.complete(code: code).errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test func anExpiredCodeIsRefused() async throws {
        let clock = FixedClock()
        try await withApp(["emailLink.codeLifetimeSeconds": 60], clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let code = try await mailbox.code()
            clock.advance(by: 60)
            #expect(try await client.complete(code: code).errorMessage == "EXPIRED_OOB_CODE")
        }
    }

    @Test func aCodeIsValidUntilJustBeforeItsLifetimeEnds() async throws {
        let clock = FixedClock()
        try await withApp(["emailLink.codeLifetimeSeconds": 1], clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let code = try await mailbox.code()
            clock.advance(by: 0.5)
            #expect(try await client.complete(code: code).status == .ok)
        }
    }

    @Test(arguments: [
        (#"{"email":"alice@example.com"}"#, "MISSING_OOB_CODE"),
        (#"{"email":"alice@example.com","oobCode":""}"#, "MISSING_OOB_CODE"),
        (#"{"email":"alice@example.com","oobCode":"not-a-real-code"}"#, "INVALID_OOB_CODE"),
        (#"{"email":"alice@example.com","oobCode":12}"#, "INVALID_OOB_CODE"),
        (#"{"oobCode":"x"}"#, "MISSING_EMAIL"),
        (#"{"email":"nope","oobCode":"x"}"#, "INVALID_EMAIL"),
    ])
    func refusesMissingOrUnknownInput(_ body: String, _ message: String) async throws {
        try await withApp { client, _, _ in
            let response = try await client.post("/v1/accounts:signInWithEmailLink", json: body)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage == message)
        }
    }

    @Test(arguments: StoreKind.all) func aCodeWorksOnce(_ store: StoreKind) async throws {
        try await withApp(store: store) { client, _, mailbox in
            try await client.sendLink()
            let code = try await mailbox.code()
            #expect(try await client.complete(code: code).status == .ok)
            #expect(try await client.complete(code: code).errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test func earlierCodesStayValidButAtMostFiveAreOutstanding() async throws {
        try await withApp { client, _, mailbox in
            for _ in 0..<6 { try await client.sendLink() }
            let messages = try await mailbox.waitForMessages(6)
            let codes = try messages.map { try #require(try Mailbox.link(in: $0).queryItems?.first { $0.name == "oobCode" }?.value) }
            #expect(try await client.complete(code: codes[0]).errorMessage == "INVALID_OOB_CODE")
            #expect(try await client.complete(code: codes[1]).status == .ok)
            #expect(try await client.complete(code: codes[5]).status == .ok)
        }
    }

    @Test func aDisabledAccountIsRefusedAndTheCodeConsumed() async throws {
        try await withApp { client, workspace, mailbox in
            try await workspace.openDatabase().write { db in
                try db.execute(
                    sql: "INSERT INTO accounts (id, email, email_verified, disabled, valid_since, created_at) VALUES ('x', 'alice@example.com', 1, 1, 0, 0)")
            }
            try await client.sendLink()
            let code = try await mailbox.code()
            #expect(try await client.complete(code: code).errorMessage == "USER_DISABLED")
            #expect(try await client.complete(code: code).errorMessage == "INVALID_OOB_CODE")
        }
    }

    @Test func completingOnAnUnverifiedAccountStripsItsPasswordAndEndsItsSessions() async throws {
        try await withApp { client, workspace, mailbox in
            // Someone else signs in first, then the account is made to look attacker-registered.
            try await client.sendLink()
            let first = try await client.complete(code: try await mailbox.code()).json
            let attackerRefresh = try #require(first["refreshToken"] as? String)
            let queue = try workspace.openDatabase()
            try await queue.write { db in
                try db.execute(sql: "UPDATE accounts SET email_verified = 0, password_hash = 'hash'")
            }

            try await client.sendLink()
            let victim = try await client.complete(code: try await mailbox.code(at: 1))
            #expect(victim.status == .ok)
            let account = try queue.read { db in try Row.fetchOne(db, sql: "SELECT email_verified, password_hash FROM accounts") }
            #expect(account?["email_verified"] == true)
            #expect(account?["password_hash"] as String? == nil)
            #expect(try await client.refresh(attackerRefresh).status == .badRequest)
            #expect(try await client.refresh(try #require(try victim.json["refreshToken"] as? String)).status == .ok)
        }
    }
}

/// Claims read back independently of the server's own claims type.
struct VerifiedClaims: JWTPayload {
    struct Firebase: Codable {
        let identities: [String: [String]]
        let sign_in_provider: String
    }
    let iss: String
    let aud: String
    let sub: String
    let user_id: String
    let iat: Int
    let exp: Int
    let auth_time: Int
    let email: String
    let email_verified: Bool
    let firebase: Firebase

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension String {
    /// Base64url to padded base64, for decoding a JWT segment.
    var base64Padded: String {
        let base64 = replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }
}
