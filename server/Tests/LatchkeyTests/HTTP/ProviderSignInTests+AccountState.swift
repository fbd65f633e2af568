import Foundation
import HummingbirdTesting
import Latchkey
import Testing

/// What a provider sign-in tells about an account and leaves of it (issue #31, points 3 and 7).
extension ProviderSignInTests {
    /// After a provider takes over an unverified password account, the account has only the provider: `createAuthUri`
    /// lists no `emailLink`, which the account never completed (Firebase lists only the methods an account has).
    @Test func aTakenOverAccountListsOnlyTheProvider() async throws {
        try await withProvider(["emailEnumerationProtection": false]) { client, provider, _ in
            _ = try await client.post("/v1/accounts:signUp", json: #"{"email":"mona@example.com","password":"squatter-pw"}"#)
            let token = try await provider.idToken(subject: "mona-1", claims: ["email": "mona@example.com", "email_verified": true])
            #expect(try await signIn(client, idToken: token).json["idToken"] is String)
            let methods = try await client.post(
                "/v1/accounts:createAuthUri", json: #"{"identifier":"mona@example.com","continueUri":"https://app.example.com"}"#
            ).json
            #expect(methods["signinMethods"] as? [String] == ["oidc.mock"])
            #expect(methods["allProviders"] as? [String] == ["oidc.mock"])
        }
    }

    /// Under enumeration protection, "needs confirmation" names neither the account nor its providers: the SDKs need
    /// only the address, the provider and the credential.
    @Test func needsConfirmationHidesTheAccountUnderEnumerationProtection() async throws {
        try await withProvider { client, provider, _ in
            _ = try await client.post("/v1/accounts:signUp", json: #"{"email":"nell@example.com","password":"correct horse"}"#)
            let token = try await provider.idToken(subject: "nell-1", claims: ["email": "nell@example.com", "email_verified": false])
            let answer = try await signIn(client, idToken: token).json
            #expect(answer["needConfirmation"] as? Bool == true && answer["idToken"] == nil)
            #expect(answer["localId"] == nil && answer["verifiedProvider"] == nil)
            #expect(answer["email"] as? String == "nell@example.com" && answer["providerId"] as? String == "oidc.mock")
            #expect(answer["pendingToken"] is String && answer["oauthIdToken"] as? String == token)
        }
    }
}
