import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import Testing

/// A provider sign-in changes its account only when it completes: one stopped at the second factor keeps what it would
/// change (a linked identity, the provider's name and photo) until the right code, and one refused for a disabled
/// account changes nothing.
@Suite(.timeLimit(.minutes(3))) struct ProviderSignInOutcomeTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestWorkspace.adminToken)"]

    /// The app with second factors on and the mock provider as `oidc.mock`, trusted about addresses, on `store`.
    func withProvider(
        _ store: StoreKind, clock: RunningClock, _ body: @Sendable (any TestClientProtocol, OIDCProviderMock, Mailbox) async throws -> Void
    ) async throws {
        try await withOIDCProviderMock { provider in
            let settings: [String: Any] = [
                "providerId": "oidc.mock", "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true,
            ]
            try await withApp(
                ["identityProviders": [settings], "mfa.state": "ENABLED", "rateLimits.sendPerEmail": [] as [Any]], store: store, clock: clock
            ) { client, _, mailbox in try await body(client, provider, mailbox) }
        }
    }

    static func signIn(_ client: any TestClientProtocol, _ token: String) async throws -> [String: Any] {
        try await client.post(
            "/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","postBody":"id_token=\#(token)&providerId=oidc.mock","returnSecureToken":true}"#
        ).json
    }

    /// The account as an admin sees it.
    static func account(_ client: any TestClientProtocol, _ localID: String) async throws -> [String: Any] {
        let answer = try await client.post("/v1/accounts:lookup", json: #"{"localId":["\#(localID)"]}"#, key: nil, headers: Self.admin).json
        return try #require((answer["users"] as? [[String: Any]])?.first, "\(answer)")
    }

    static func providerEntries(_ account: [String: Any]) -> [[String: Any]] {
        (account["providerUserInfo"] as? [[String: Any]] ?? []).filter { $0["providerId"] as? String == "oidc.mock" }
    }

    @Test(arguments: StoreKind.all) func aSignInStoppedAtTheSecondFactorChangesNothingUntilItsCode(_ store: StoreKind) async throws {
        let clock = RunningClock()
        try await withProvider(store, clock: clock) { client, provider, mailbox in
            let email = "alice-\(UUID().uuidString.prefix(8))@example.com"
            try await client.sendLink(to: email)
            let alice = try await client.complete(email: email, code: try await mailbox.code(at: 0)).json
            let localID = try #require(alice["localId"] as? String)
            let (authenticator, _) = try await client.enrollAuthenticator(idToken: try #require(alice["idToken"] as? String), at: clock.now)
            let before = try await Self.account(client, localID)

            // The provider vouches for Alice's address: the sign-in is hers, but stops at her authenticator.
            let subject = "alice-\(UUID().uuidString)"
            let token = try await provider.idToken(
                subject: subject, claims: ["email": email, "email_verified": true, "name": "Alice Provider", "picture": "https://example.com/a.png"])
            let challenged = try await Self.signIn(client, token)
            let credential = try #require(challenged["mfaPendingCredential"] as? String, "\(challenged)")
            let stopped = try await Self.account(client, localID)
            #expect(Self.providerEntries(stopped).isEmpty)
            #expect(stopped["displayName"] == nil && stopped["photoUrl"] == nil)
            #expect(stopped["lastLoginAt"] as? String == before["lastLoginAt"] as? String)

            // The right code applies what the sign-in proved, and the session names the provider.
            let passed = try await client.finishSecondFactor(credential, factorID: authenticator.factorID, code: authenticator.code(at: clock.now, steps: 1))
            let answer = try passed.json
            let firebase = try #require(try decodedClaims(of: answer["idToken"])["firebase"] as? [String: Any], "\(passed.text)")
            #expect(firebase["sign_in_provider"] as? String == "oidc.mock" && firebase["sign_in_second_factor"] as? String == "totp")
            #expect(((firebase["identities"] as? [String: Any])?["oidc.mock"] as? [String]) == [subject])
            let linked = try await Self.account(client, localID)
            #expect(Self.providerEntries(linked).map { $0["rawId"] as? String } == [subject])
            #expect(linked["displayName"] as? String == "Alice Provider" && linked["photoUrl"] as? String == "https://example.com/a.png")

            // Signing in again with a new name stops at the factor too, and the identity's entry keeps the old one.
            let renamed = try await provider.idToken(subject: subject, claims: ["email": email, "email_verified": true, "name": "Alice Renamed"])
            #expect(try await Self.signIn(client, renamed)["mfaPendingCredential"] is String)
            let unchanged = try await Self.account(client, localID)
            #expect(Self.providerEntries(unchanged).map { $0["displayName"] as? String } == ["Alice Provider"])
        }
    }

    @Test(arguments: StoreKind.all) func aSignInRefusedForADisabledAccountChangesNothing(_ store: StoreKind) async throws {
        let clock = RunningClock()
        try await withProvider(store, clock: clock) { client, provider, _ in
            let email = "bob-\(UUID().uuidString.prefix(8))@example.com"
            let first = "bob-\(UUID().uuidString)"
            let bob = try await Self.signIn(client, try await provider.idToken(subject: first, claims: ["email": email, "email_verified": true, "name": "Bob"]))
            let localID = try #require(bob["localId"] as? String, "\(bob)")
            let disable = #"{"localId":"\#(localID)","disableUser":true}"#
            #expect(try await client.post("/v1/accounts:update", json: disable, key: nil, headers: Self.admin).status == .ok)

            // The address's provider entry under another user id (a recycled address) would replace Bob's: not while
            // the account is disabled.
            let recycled = try await provider.idToken(
                subject: "bob-\(UUID().uuidString)", claims: ["email": email, "email_verified": true, "name": "Someone Else"])
            let refused = try await client.post(
                "/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","postBody":"id_token=\#(recycled)&providerId=oidc.mock"}"#)
            #expect(refused.errorMessage == "USER_DISABLED")
            let account = try await Self.account(client, localID)
            #expect(Self.providerEntries(account).map { $0["rawId"] as? String } == [first])
            #expect(account["displayName"] as? String == "Bob")
        }
    }
}
