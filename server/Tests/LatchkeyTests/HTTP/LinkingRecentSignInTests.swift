import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// Adding a way in (a password, a provider, an address) from a signed-in session: an ID token whose sign-in is not
/// recent, perhaps stolen, cannot give its holder one, except on an anonymous account; each new way in is mailed to the
/// account's address.
@Suite(.timeLimit(.minutes(2))) struct LinkingRecentSignInTests {
    static let stale: TimeInterval = 301

    static func linkPassword(_ client: any TestClientProtocol, _ idToken: String, _ email: String) async throws -> TestResponse {
        try await client.post("/v1/accounts:signUp", json: #"{"idToken":"\#(idToken)","email":"\#(email)","password":"linked password"}"#)
    }

    @Test func aStaleSessionCannotLinkAPasswordButAnAnonymousOneCan() async throws {
        let clock = FixedClock(Date())
        try await withApp(clock: clock) { client, _, mailbox in
            try await client.sendLink()
            let alice = try await client.complete(code: try await mailbox.code()).json
            let anonymous = try await client.post("/v1/accounts:signUp", json: "{}").json
            clock.advance(by: Self.stale)
            let refused = try await Self.linkPassword(client, try #require(alice["idToken"] as? String), "alice@example.com")
            #expect(refused.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            let upgraded = try await Self.linkPassword(client, try #require(anonymous["idToken"] as? String), "anon@example.com")
            #expect(upgraded.status == .ok, "\(upgraded.text)")
            // The old way of linking, `accounts:update` with the password, upgrades an anonymous account at any age too.
            let other = try await client.post("/v1/accounts:signUp", json: "{}").json
            clock.advance(by: Self.stale)
            let updated = try await client.post(
                "/v1/accounts:update", json: #"{"idToken":"\#(try #require(other["idToken"] as? String))","email":"other@example.com","password":"other password"}"#)
            #expect(updated.status == .ok, "\(updated.text)")
        }
    }

    @Test func aLinkedPasswordIsMailedToTheAccountsAddress() async throws {
        try await withApp { client, _, mailbox in
            try await client.sendLink()
            let alice = try await client.complete(code: try await mailbox.code()).json
            #expect(try await Self.linkPassword(client, try #require(alice["idToken"] as? String), "alice@example.com").status == .ok)
            _ = try await mailbox.waitForMessages(2)
            let notice = try #require(mailbox.readableMessages().last)
            #expect(notice.contains("To: alice@example.com") && notice.contains("A password was added to your"))
        }
    }

    /// The app with the mock provider as `oidc.mock`, on `clock`, which keeps up with the time the provider signs with.
    func withProvider(clock: RunningClock, _ body: @Sendable (any TestClientProtocol, OIDCProviderMock, Mailbox) async throws -> Void) async throws {
        try await withOIDCProviderMock { provider in
            let settings: [String: Any] = [
                "providerId": "oidc.mock", "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true,
            ]
            try await withApp(["identityProviders": [settings]], clock: clock) { client, _, mailbox in try await body(client, provider, mailbox) }
        }
    }

    static func linkProvider(_ client: any TestClientProtocol, _ token: String, to idToken: String) async throws -> TestResponse {
        try await client.post(
            "/v1/accounts:signInWithIdp",
            json: #"{"requestUri":"http://localhost","postBody":"id_token=\#(token)&providerId=oidc.mock","returnSecureToken":true,"idToken":"\#(idToken)"}"#)
    }

    @Test func aStaleSessionCannotLinkAProviderButAnAnonymousOneCanAndTheAddressIsTold() async throws {
        let clock = RunningClock()
        try await withProvider(clock: clock) { client, provider, mailbox in
            let dave = try await client.post("/v1/accounts:signUp", json: #"{"email":"dave@example.com","password":"daves password"}"#).json
            let anonymous = try await client.post("/v1/accounts:signUp", json: "{}").json
            clock.advance(by: Self.stale)
            let token = try await provider.idToken(subject: "thief-1", claims: ["email": "thief@example.com", "email_verified": true])
            let refused = try await Self.linkProvider(client, token, to: try #require(dave["idToken"] as? String))
            #expect(refused.errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            let upgraded = try await Self.linkProvider(client, token, to: try #require(anonymous["idToken"] as? String))
            #expect(try upgraded.json["localId"] as? String == anonymous["localId"] as? String)

            let fresh = try await client.post("/v1/accounts:signInWithPassword", json: #"{"email":"dave@example.com","password":"daves password"}"#).json
            let own = try await provider.idToken(subject: "dave-1", claims: ["email": "dave@example.com", "email_verified": true])
            #expect(try await Self.linkProvider(client, own, to: try #require(fresh["idToken"] as? String)).status == .ok)
            _ = try await mailbox.waitForMessages(1)
            let notices = mailbox.readableMessages()
            #expect(notices.count == 1)
            #expect(notices.first.map { $0.contains("To: dave@example.com") && $0.contains("oidc.mock was linked to your") } == true)
        }
    }

    @Test func anAccountWithoutAnAddressNeedsARecentSignInToGetOne() async throws {
        let clock = RunningClock()
        try await withProvider(clock: clock) { client, provider, mailbox in
            let token = try await provider.idToken(subject: "nomail-1", claims: ["name": "No Mail"])
            let signedIn = try await client.post(
                "/v1/accounts:signInWithIdp",
                json: #"{"requestUri":"http://localhost","postBody":"id_token=\#(token)&providerId=oidc.mock","returnSecureToken":true}"#
            ).json
            let idToken = try #require(signedIn["idToken"] as? String)
            clock.advance(by: Self.stale)
            try await client.sendLink(to: "found@example.com")
            let code = try await mailbox.code()
            let complete = #"{"email":"found@example.com","oobCode":"\#(code)","idToken":"\#(idToken)"}"#
            #expect(try await client.post("/v1/accounts:signInWithEmailLink", json: complete).errorMessage == "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }
}
