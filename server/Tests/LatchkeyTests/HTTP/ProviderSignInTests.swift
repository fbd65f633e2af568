import Crypto
import Foundation
import HummingbirdTesting
import InMemoryLogging
import Latchkey
import Logging
import Testing

/// `accounts:signInWithIdp` through the app, with ID tokens from a real provider (oidc-provider-mock on loopback):
/// Firebase's account-resolution table, story by story.
@Suite(.outsideProcesses) struct ProviderSignInTests {
    /// The app with the mock as `oidc.mock`, on a clock that runs with the provider's (its tokens are current however long the test takes).
    func withProvider(
        _ overrides: [String: Any] = [:], providerID: String = "oidc.mock", logger: Logger? = nil, clock: RunningClock = RunningClock(),
        _ body: @Sendable (any TestClientProtocol, OIDCProviderMock, Mailbox) async throws -> Void
    ) async throws {
        try await withOIDCProviderMock { provider in
            let settings: [String: Any] = [
                "providerId": providerID, "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true,
            ]
            var all = overrides
            all["identityProviders"] = [settings]
            try await withApp(all, clock: clock, logger: logger) { client, _, mailbox in
                try await body(client, provider, mailbox)
            }
        }
    }

    func signIn(
        _ client: any TestClientProtocol, idToken: String, providerID: String = "oidc.mock", nonce: String? = nil, form: String = "",
        extra: String = ""
    ) async throws -> TestResponse {
        let postBody = "id_token=\(idToken)&providerId=\(providerID)" + (nonce.map { "&nonce=\($0)" } ?? "") + form
        return try await client.post(
            "/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","postBody":"\#(postBody)","returnSecureToken":true\#(extra)}"#)
    }

    static let alice: [String: String] = ["email": "alice@example.com", "name": "Alice Liddell"]

    /// A new identity makes an account; signing in again finds it. Tokens name the provider, lookups list it.
    @Test func aNewIdentitySignsUpAndThenSignsIn() async throws {
        try await withProvider { client, provider, _ in
            let token = try await provider.idToken(subject: "alice-1", claims: ["email": "Alice@Example.com", "email_verified": true, "name": "Alice"])
            let first = try await signIn(client, idToken: token).json
            #expect(first["kind"] as? String == "identitytoolkit#VerifyAssertionResponse" && first["providerId"] as? String == "oidc.mock")
            #expect(first["isNewUser"] as? Bool == true && first["federatedId"] as? String == "alice-1" && first["emailVerified"] as? Bool == true)
            #expect(first["email"] as? String == "alice@example.com" && first["displayName"] as? String == "Alice" && first["oauthIdToken"] as? String == token)
            #expect(first["needConfirmation"] == nil && first["expiresIn"] as? String == "3600")
            let rawUserInfo = try #require(first["rawUserInfo"] as? String)
            #expect(rawUserInfo.contains(#""sub":"alice-1""#) || rawUserInfo.contains(#""sub": "alice-1""#))
            let firebase = try #require(try decodedClaims(of: first["idToken"])["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == "oidc.mock")
            #expect((firebase["identities"] as? [String: Any])?["oidc.mock"] as? [String] == ["alice-1"])

            let again = try await signIn(client, idToken: try await provider.idToken(subject: "alice-1", claims: ["email": "alice@example.com"])).json
            #expect(again["localId"] as? String == first["localId"] as? String && again["isNewUser"] == nil)
            let lookup = try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(try #require(again["idToken"] as? String))"}"#).json
            let user = try #require((lookup["users"] as? [[String: Any]])?.first)
            let entry = try #require((user["providerUserInfo"] as? [[String: Any]])?.first { $0["providerId"] as? String == "oidc.mock" })
            #expect(entry["rawId"] as? String == "alice-1" && entry["federatedId"] as? String == "alice-1")

            let byIdentity = try await client.post(
                "/v1/accounts:lookup",
                json: #"{"federatedUserId":[{"providerId":"oidc.mock","rawId":"alice-1"},{"providerId":"oidc.mock"},{"providerId":"oidc.mock","rawId":"nobody"}]}"#,
                key: nil, headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"]
            ).json
            #expect((byIdentity["users"] as? [[String: Any]])?.compactMap { $0["localId"] as? String } == [try #require(first["localId"] as? String)])
        }
    }

    /// "Account exists with a different credential": a provider that does not vouch for the address gets no tokens
    /// and changes nothing; the owner keeps the password.
    @Test func anUnverifiedAddressOfAnotherAccountNeedsConfirmation() async throws {
        try await withProvider(["emailEnumerationProtection": false]) { client, provider, _ in
            let owner = try await client.post("/v1/accounts:signUp", json: #"{"email":"bob@example.com","password":"correct horse"}"#).json
            let token = try await provider.idToken(subject: "bob-1", claims: ["email": "bob@example.com", "email_verified": false])
            let answer = try await signIn(client, idToken: token).json
            #expect(answer["needConfirmation"] as? Bool == true && answer["localId"] as? String == owner["localId"] as? String)
            #expect(answer["idToken"] == nil && answer["refreshToken"] == nil && answer["verifiedProvider"] as? [String] == [])
            #expect(answer["email"] as? String == "bob@example.com" && answer["oauthIdToken"] as? String == token)
            let password = try await client.post(
                "/v1/accounts:signInWithPassword", json: #"{"email":"bob@example.com","password":"correct horse","returnSecureToken":true}"#)
            #expect(password.status == .ok)
        }
    }

    /// The takeover rule: a provider that vouches for the address takes over an account whose address was never
    /// verified, stripping its password and ending its sessions, in one transaction.
    @Test func aVerifiedAddressTakesOverAnUnverifiedAccount() async throws {
        try await withProvider { client, provider, _ in
            let squatter = try await client.post("/v1/accounts:signUp", json: #"{"email":"carol@example.com","password":"squatter-pw"}"#).json
            let token = try await provider.idToken(subject: "carol-1", claims: ["email": "carol@example.com", "email_verified": true, "name": "Carol"])
            let answer = try await signIn(client, idToken: token).json
            #expect(answer["localId"] as? String == squatter["localId"] as? String && answer["idToken"] != nil && answer["isNewUser"] == nil)
            #expect(answer["emailVerified"] as? Bool == true)
            let password = try await client.post(
                "/v1/accounts:signInWithPassword", json: #"{"email":"carol@example.com","password":"squatter-pw","returnSecureToken":true}"#)
            #expect(password.status == .badRequest)
            #expect(try await client.refresh(try #require(squatter["refreshToken"] as? String)).status == .badRequest)
        }
    }

    /// Linking: a signed-in user adds the provider; the same identity cannot then link to anyone, and with
    /// `returnIdpCredential` the refusal comes back as a 200 with `errorMessage` and the credential.
    @Test func aSignedInUserLinksTheProviderOnce() async throws {
        try await withProvider { client, provider, _ in
            let dave = try await client.post("/v1/accounts:signUp", json: #"{"email":"dave@example.com","password":"dave-password"}"#).json
            let daveToken = try #require(dave["idToken"] as? String)
            let token = try await provider.idToken(subject: "dave-1", claims: ["email": "dave@example.com", "email_verified": true])
            let linked = try await signIn(client, idToken: token, extra: #","idToken":"\#(daveToken)""#).json
            #expect(linked["localId"] as? String == dave["localId"] as? String && linked["idToken"] != nil)
            let firebase = try #require(try decodedClaims(of: linked["idToken"])["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == "oidc.mock")

            let erin = try await client.post("/v1/accounts:signUp", json: #"{"email":"erin@example.com","password":"erin-password"}"#).json
            let erinToken = try #require(erin["idToken"] as? String)
            let again = try await provider.idToken(subject: "dave-1", claims: ["email": "dave@example.com", "email_verified": true])
            #expect(try await signIn(client, idToken: again, extra: #","idToken":"\#(erinToken)""#).errorMessage == "FEDERATED_USER_ID_ALREADY_LINKED")
            let credential = try await signIn(client, idToken: again, extra: #","idToken":"\#(erinToken)","returnIdpCredential":true"#)
            #expect(credential.status == .ok)
            #expect(try credential.json["errorMessage"] as? String == "FEDERATED_USER_ID_ALREADY_LINKED" && credential.json["idToken"] == nil)
            #expect(try credential.json["oauthIdToken"] as? String == again)

            let other = try await provider.idToken(subject: "frank-1", claims: ["email": "dave@example.com", "email_verified": true])
            #expect(try await signIn(client, idToken: other, extra: #","idToken":"\#(erinToken)""#).errorMessage == "EMAIL_EXISTS")

            // A second identity of the same provider replaces the first, which then signs in nowhere.
            let replacement = try await provider.idToken(subject: "dave-2", claims: ["email": "dave@example.com", "email_verified": true])
            let relinked = try await signIn(client, idToken: replacement, extra: #","idToken":"\#(try #require(linked["idToken"] as? String))""#).json
            #expect(relinked["localId"] as? String == dave["localId"] as? String)
            let identities = try #require(try decodedClaims(of: relinked["idToken"])["firebase"] as? [String: Any])["identities"] as? [String: Any]
            #expect(identities?["oidc.mock"] as? [String] == ["dave-2"])
            let formerToken = try await provider.idToken(subject: "dave-1", claims: ["email": "dave@example.com", "email_verified": false])
            #expect(try await signIn(client, idToken: formerToken).json["needConfirmation"] as? Bool == true)
        }
    }

    /// Unlinking with `deleteProvider` removes the identity and keeps the address; the same provider identity, with
    /// the address verified, then signs in to the same account again and is linked anew.
    @Test func anUnlinkedProviderSignsInToTheSameAccountAgain() async throws {
        try await withProvider { client, provider, _ in
            let claims: [String: Any] = ["email": "ivy@example.com", "email_verified": true]
            let first = try await signIn(client, idToken: try await provider.idToken(subject: "ivy-1", claims: claims)).json
            let idToken = try #require(first["idToken"] as? String)
            let unlinked = try await client.post("/v1/accounts:update", json: #"{"idToken":"\#(idToken)","deleteProvider":["oidc.mock"]}"#).json
            // A provider made the account: it has no other way in listed, but keeps its address.
            #expect((unlinked["providerUserInfo"] as? [[String: Any]] ?? []).isEmpty && unlinked["email"] as? String == "ivy@example.com")
            let again = try await signIn(client, idToken: try await provider.idToken(subject: "ivy-1", claims: claims)).json
            #expect(again["localId"] as? String == first["localId"] as? String && again["isNewUser"] == nil)
            let lookup = try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(try #require(again["idToken"] as? String))"}"#).json
            let user = try #require((lookup["users"] as? [[String: Any]])?.first)
            #expect(try #require(user["providerUserInfo"] as? [[String: Any]]).contains { $0["providerId"] as? String == "oidc.mock" })
        }
    }

    /// An account a provider made lists only the provider, as Firebase does, until its address signs in by itself:
    /// the first email-link sign-in adds the password provider (Firebase's `emailLinkSignin`).
    @Test func theAddressOfAProvidersAccountIsListedOnceItSignsIn() async throws {
        try await withProvider(["emailEnumerationProtection": false]) { client, provider, mailbox in
            let token = try await provider.idToken(subject: "lena-1", claims: ["email": "lena@example.com", "email_verified": true])
            let made = try await signIn(client, idToken: token).json
            func methods() async throws -> [String: Any] {
                try await client.post("/v1/accounts:createAuthUri", json: #"{"identifier":"lena@example.com","continueUri":"https://app.example.com"}"#).json
            }
            #expect(try await methods()["allProviders"] as? [String] == ["oidc.mock"])
            let lookup = try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(try #require(made["idToken"] as? String))"}"#).json
            let entries = try #require((lookup["users"] as? [[String: Any]])?.first?["providerUserInfo"] as? [[String: Any]])
            #expect(entries.compactMap { $0["providerId"] as? String } == ["oidc.mock"])

            try await client.sendLink(to: "lena@example.com")
            let linked = try await client.complete(email: "lena@example.com", code: try await mailbox.code(at: 0)).json
            #expect(linked["localId"] as? String == made["localId"] as? String)
            #expect(try await methods()["allProviders"] as? [String] == ["oidc.mock", "password"])
            #expect(try await methods()["signinMethods"] as? [String] == ["oidc.mock", "emailLink"])
        }
    }

    /// Fetching sign-in methods for an address lists the providers linked to its account (without enumeration
    /// protection, which otherwise hides them all).
    @Test func signInMethodsListTheLinkedProvider() async throws {
        try await withProvider(["emailEnumerationProtection": false]) { client, provider, _ in
            let token = try await provider.idToken(subject: "jack-1", claims: ["email": "jack@example.com", "email_verified": true])
            #expect(try await signIn(client, idToken: token).status == .ok)
            let methods = try await client.post(
                "/v1/accounts:createAuthUri", json: #"{"identifier":"jack@example.com","continueUri":"https://app.example.com"}"#
            ).json
            #expect(methods["registered"] as? Bool == true)
            #expect((methods["allProviders"] as? [String])?.contains("oidc.mock") == true)
            #expect((methods["signinMethods"] as? [String])?.contains("oidc.mock") == true)
        }
    }

    /// With one account per identity, an address tells only its own ways in: a provider linked to its account may have
    /// other accounts with the same address.
    @Test func withDuplicateEmailsAnAddressListsNoProvider() async throws {
        try await withProvider(["emailEnumerationProtection": false, "signIn.allowDuplicateEmails": true]) { client, provider, _ in
            let kate = try await client.post("/v1/accounts:signUp", json: #"{"email":"kate@example.com","password":"kate-password"}"#).json
            let token = try await provider.idToken(subject: "kate-1", claims: ["email": "kate@example.com", "email_verified": true])
            let linked = try await signIn(client, idToken: token, extra: #","idToken":"\#(try #require(kate["idToken"] as? String))""#)
            #expect(linked.status == .ok)
            let methods = try await client.post(
                "/v1/accounts:createAuthUri", json: #"{"identifier":"kate@example.com","continueUri":"https://app.example.com"}"#
            ).json
            #expect(methods["allProviders"] as? [String] == ["password"] && methods["signinMethods"] as? [String] == ["password"])
        }
    }

    /// A built-in provider pointed at a local issuer: Google's `federatedId` is its profile URL, its `rawId` the `sub`.
    @Test func googleIsABuiltInProviderWhoseIssuerTestsReplace() async throws {
        try await withProvider(providerID: "google.com") { client, provider, _ in
            let token = try await provider.idToken(subject: "1234567890", claims: ["email": "kim@gmail.com", "email_verified": true])
            let answer = try await signIn(client, idToken: token, providerID: "google.com").json
            #expect(answer["providerId"] as? String == "google.com" && answer["federatedId"] as? String == "https://accounts.google.com/1234567890")
            let firebase = try #require(try decodedClaims(of: answer["idToken"])["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == "google.com")
            #expect((firebase["identities"] as? [String: Any])?["google.com"] as? [String] == ["1234567890"])
        }
    }

    /// Sign in with Apple as the iOS SDK does it: Apple's token says `"email_verified": "true"` as a string and
    /// carries the SHA-256 of the raw nonce the app sends; the name comes once, from Apple's SDK, as `user`.
    @Test func appleSendsStringsAHashedNonceAndTheNameOnce() async throws {
        try await withProvider(providerID: "apple.com") { client, provider, _ in
            let raw = "a-raw-nonce-0123456789"
            let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
            let token = try await provider.idToken(
                subject: "001234.abcdef", claims: ["email": "tim@privaterelay.appleid.com", "email_verified": "true"], nonce: hashed)
            let user = #"{"name":{"firstName":"Tim","lastName":"Apfel"}}"#.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let answer = try await signIn(client, idToken: token, providerID: "apple.com", nonce: raw, form: "&user=\(user)").json
            #expect(answer["emailVerified"] as? Bool == true && answer["federatedId"] as? String == "001234.abcdef")
            #expect(answer["displayName"] as? String == "Tim Apfel" && answer["firstName"] as? String == "Tim" && answer["lastName"] as? String == "Apfel")
            let unverified = try await provider.idToken(subject: "001234.other", claims: ["email": "ann@icloud.com", "email_verified": "false"], nonce: hashed)
            #expect(try await signIn(client, idToken: unverified, providerID: "apple.com", nonce: raw).json["emailVerified"] as? Bool == false)
            #expect(try await signIn(client, idToken: token, providerID: "apple.com", nonce: "another").errorMessage == "MISSING_OR_INVALID_NONCE")
        }
    }

    /// No provider token and none of Latchkey's own appears in any log line, even at trace level.
    @Test func logsCarryNoToken() async throws {
        let handler = InMemoryLogHandler()
        var logger = Logger(label: "test") { _ in handler }
        logger.logLevel = .trace
        try await withProvider(["logLevel": "trace"], logger: logger) { client, provider, _ in
            let token = try await provider.idToken(subject: "lee-1", claims: ["email": "lee@example.com", "email_verified": true])
            let answer = try await signIn(client, idToken: token).json
            _ = try await signIn(client, idToken: String(token.dropLast(4)) + "AAAA")
            let secrets = [token, try #require(answer["idToken"] as? String), try #require(answer["refreshToken"] as? String)]
            let lines = handler.entries.map { "\($0.message) \($0.metadata)" }
            #expect(lines.count > 2)
            for line in lines {
                #expect(!line.contains("eyJ"))
                for secret in secrets { #expect(!line.contains(secret)) }
            }
        }
    }

    @Test func badCredentialsAreRefusedInTheEnvelope() async throws {
        try await withProvider { client, provider, _ in
            let token = try await provider.idToken(subject: "gina-1")
            func refusal(_ json: String) async throws -> String? { try await client.post("/v1/accounts:signInWithIdp", json: json).errorMessage }
            #expect(try await refusal(#"{"postBody":"id_token=\#(token)&providerId=oidc.mock"}"#) == "MISSING_REQUEST_URI")
            #expect(try await refusal(#"{"requestUri":"not a uri","postBody":"id_token=\#(token)&providerId=oidc.mock"}"#) == "INVALID_REQUEST_URI")
            #expect(
                try await refusal(#"{"requestUri":"http://localhost","postBody":"id_token=\#(token)"}"#)
                    == "INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: http://localhost")
            #expect(try await refusal(#"{"requestUri":"http://localhost","postBody":"id_token=\#(token)&providerId=oidc.other"}"#) == "OPERATION_NOT_ALLOWED")
            #expect(try await refusal(#"{"requestUri":"http://localhost?providerId=oidc.mock&error=access_denied"}"#) == "USER_CANCELLED")
            #expect(
                try await refusal(#"{"requestUri":"http://localhost","postBody":"access_token=abc&providerId=oidc.mock"}"#)
                    == "INVALID_IDP_RESPONSE : an id_token or a code is required")
            // A stray `%` (once crashing Foundation's URLComponents) is read or refused, never a crash.
            #expect(
                try await refusal(#"{"requestUri":"http://localhost?b=%#a=%","postBody":"providerId=oidc.mock"}"#)
                    == "INVALID_IDP_RESPONSE : an id_token or a code is required")
            #expect(
                try await refusal(#"{"requestUri":"http://localhost","postBody":"id_token=%zz&providerId=oidc.mock"}"#)
                    == "INVALID_IDP_RESPONSE : the postBody is not form-encoded")
            let forged = token.dropLast(4) + "AAAA"
            #expect(
                try await refusal(#"{"requestUri":"http://localhost","postBody":"id_token=\#(forged)&providerId=oidc.mock"}"#)
                    == "INVALID_IDP_RESPONSE : the ID token's signature is invalid")
            let hashed = try await provider.idToken(subject: "gina-1", nonce: "0123")
            #expect(
                try await refusal(#"{"requestUri":"http://localhost","postBody":"id_token=\#(hashed)&providerId=oidc.mock&nonce=raw"}"#)
                    == "MISSING_OR_INVALID_NONCE")
            // The fragment of an implicit flow's redirect carries the credential too; v3's verifyAssertion is the same call.
            let fragment = try await client.post(
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion",
                json: #"{"requestUri":"http://localhost#id_token=\#(token)&providerId=oidc.mock","returnSecureToken":true}"#)
            #expect(try fragment.json["isNewUser"] as? Bool == true)
        }
    }

    @Test func reauthenticationDoesNotCreateAnAccountAndADisabledAccountCannotSignIn() async throws {
        try await withProvider { client, provider, _ in
            let token = try await provider.idToken(subject: "hank-1")
            #expect(try await signIn(client, idToken: token, extra: #","autoCreate":false"#).errorMessage == "USER_NOT_FOUND")
            let hank = try await signIn(client, idToken: token).json
            let localID = try #require(hank["localId"] as? String)
            let disable = try await client.post(
                "/v1/accounts:update", json: #"{"localId":"\#(localID)","disableUser":true}"#, key: nil,
                headers: [.authorization: "Bearer \(TestWorkspace.adminToken)"])
            #expect(disable.status == .ok)
            #expect(try await signIn(client, idToken: token).errorMessage == "USER_DISABLED")
        }
    }
}
