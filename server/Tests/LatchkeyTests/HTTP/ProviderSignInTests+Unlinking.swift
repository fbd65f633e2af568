import Foundation
import HummingbirdTesting
import Latchkey
import Testing

/// Unlinking a provider (issue #31, point 14).
extension ProviderSignInTests {
    /// Unlinking a provider ends the sessions that signed in with it; the others stay.
    @Test func unlinkingAProviderEndsTheSessionsItSignedIn() async throws {
        try await withProvider { client, provider, _ in
            let password = try await client.post("/v1/accounts:signUp", json: #"{"email":"olga@example.com","password":"olga-password"}"#).json
            let idToken = try #require(password["idToken"] as? String)
            let token = try await provider.idToken(subject: "olga-1", claims: ["email": "olga@example.com", "email_verified": true])
            let linked = try await signIn(client, idToken: token, extra: #","idToken":"\#(idToken)""#).json
            let viaProvider = try #require(linked["refreshToken"] as? String)
            let unlinked = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","deleteProvider":["oidc.mock"]}"#)
            #expect(unlinked.status == .ok)
            #expect(try await client.refresh(viaProvider).errorMessage == "TOKEN_EXPIRED")
            #expect(try await client.refresh(try #require(password["refreshToken"] as? String)).status == .ok)
        }
    }
}
