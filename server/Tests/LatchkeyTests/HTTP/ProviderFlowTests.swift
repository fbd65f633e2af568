import Crypto
import Foundation
import HummingbirdTesting
import Latchkey
import Testing

/// Sign-ins that Latchkey starts (`createAuthUri` with `providerId`) and finishes (`signInWithIdp` with the provider's
/// redirect), through the app and a real provider on loopback (oidc-provider-mock) doing the authorization-code flow.
@Suite(.outsideProcesses) struct ProviderFlowTests {
    static let continueURI = "https://app.example.com/__/auth/handler"

    /// The app with the mock as `providerID` (code flow, with a client secret) and a disabled `oidc.off`.
    func withCodeFlow(
        providerID: String = "oidc.mock", clock: RunningClock = RunningClock(), _ body: @Sendable (any TestClientProtocol, OIDCProviderMock) async throws -> Void
    ) async throws {
        let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-client-secret-\(UUID().uuidString)")
        try Data("mock-secret\n".utf8).write(to: secretFile)
        defer { try? FileManager.default.removeItem(at: secretFile) }
        try await withOIDCProviderMock { provider in
            let settings: [String: Any] = [
                "providerId": providerID, "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true,
                "responseType": ["code": true], "clientSecret": ["file": secretFile.path],
            ]
            var off = settings
            (off["providerId"], off["enabled"]) = ("oidc.off", false)
            try await withApp(["identityProviders": [settings, off], "authorizedDomains": ["app.example.com"]], clock: clock) { client, _, _ in
                try await body(client, provider)
            }
        }
    }

    func start(_ client: any TestClientProtocol, _ extra: String = "", providerID: String = "oidc.mock") async throws -> (
        authURI: URLComponents, sessionID: String
    ) {
        let answer = try await client.post(
            "/v1/accounts:createAuthUri", json: #"{"providerId":"\#(providerID)","continueUri":"\#(Self.continueURI)"\#(extra)}"#)
        #expect(answer.status == .ok, "\(answer.text)")
        let json = try answer.json
        #expect(json["providerId"] as? String == providerID && json["kind"] as? String == "identitytoolkit#CreateAuthUriResponse")
        return (try #require((json["authUri"] as? String).flatMap(URLComponents.init(string:))), try #require(json["sessionId"] as? String))
    }

    func finish(_ client: any TestClientProtocol, requestURI: String, sessionID: String, extra: String = "") async throws -> TestResponse {
        try await client.post(
            "/v1/accounts:signInWithIdp",
            json: #"{"requestUri":"\#(requestURI)","sessionId":"\#(sessionID)","returnSecureToken":true,"returnIdpCredential":true\#(extra)}"#)
    }

    /// The authorization URL carries the session's state, a nonce and a PKCE challenge, the provider's scopes and the
    /// caller's, and the caller's parameters except those that would change whose sign-in it is.
    @Test func theAuthorizationURLIsThisSignInsAndNoOneElses() async throws {
        try await withCodeFlow { client, provider in
            let (url, sessionID) = try await start(
                client,
                #","oauthScope":"email,groups offline_access","customParameter":{"prompt":"login","state":"mine","client_id":"other","request":"jwt"},"sessionId":"s-1""#
            )
            #expect(sessionID == "s-1")
            #expect("\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? 0)\(url.path)" == "\(provider.issuer)/oauth2/authorize")
            var query: [String: String] = [:]
            for item in url.queryItems ?? [] {
                #expect(query[item.name] == nil, "\(item.name) appears once")
                query[item.name] = item.value
            }
            #expect(query["client_id"] == "latchkey-client" && query["redirect_uri"] == Self.continueURI && query["response_type"] == "code")
            #expect(query["scope"] == "openid email profile groups offline_access")
            #expect(query["code_challenge_method"] == "S256" && query["code_challenge"]?.count == 43 && query["prompt"] == "login")
            #expect(query["request"] == nil)
            let state = try #require(query["state"])
            #expect(state.count >= 43 && state != "mine" && (query["nonce"]?.count ?? 0) >= 43 && query["nonce"] != state)
            let again = try await start(client)
            #expect(again.sessionID != sessionID && again.authURI.queryItems?.first { $0.name == "state" }?.value != state)
        }
    }

    static let invalidContinueURI =
        "INVALID_CONTINUE_URI : The continue URL must be an absolute https URL (http only for localhost) without user info."

    @Test func aBadStartIsRefusedInTheEnvelope() async throws {
        try await withCodeFlow { client, _ in
            let cases: [(String, String)] = [
                (#"{"providerId":"oidc.mock"}"#, "MISSING_CONTINUE_URI"),
                (#"{"providerId":"oidc.mock","continueUri":"app.example.com/back"}"#, Self.invalidContinueURI),
                (#"{"providerId":"oidc.mock","continueUri":"http://app.example.com/"}"#, Self.invalidContinueURI),
                (
                    #"{"providerId":"oidc.mock","continueUri":"https://app.example.com/#x"}"#,
                    "INVALID_CONTINUE_URI : The URL cannot contain fragments or the reserved state query parameter."
                ),
                (
                    #"{"providerId":"oidc.mock","continueUri":"https://app.example.com/?state=1"}"#,
                    "INVALID_CONTINUE_URI : The URL cannot contain fragments or the reserved state query parameter."
                ),
                (#"{"providerId":"oidc.mock","continueUri":"https://evil.example.net/"}"#, "UNAUTHORIZED_DOMAIN : Domain not allowlisted by project"),
                (#"{"providerId":"oidc.nope","continueUri":"\#(Self.continueURI)"}"#, "INVALID_PROVIDER_ID"),
                (#"{"providerId":"oidc.off","continueUri":"\#(Self.continueURI)"}"#, "OPERATION_NOT_ALLOWED"),
                (#"{"continueUri":"\#(Self.continueURI)"}"#, "MISSING_IDENTIFIER"),
                (
                    #"{"providerId":"oidc.mock","continueUri":"\#(Self.continueURI)","context":"\#(String(repeating: "c", count: 4097))"}"#,
                    "INVALID_ARGUMENT : context is longer than 4096 bytes"
                ),
            ]
            for (body, expected) in cases {
                let answer = try await client.post("/v1/accounts:createAuthUri", json: body)
                #expect(answer.status == .badRequest && answer.errorMessage == expected, "\(body): \(answer.errorMessage ?? "")")
            }
        }
    }

    /// The whole code flow: the provider's redirect signs in once, with the provider's access token, and its state is
    /// gone after one use, whatever that use was.
    @Test func theProvidersRedirectSignsInOnce() async throws {
        try await withCodeFlow { client, provider in
            let (url, sessionID) = try await start(client, #","context":"from-the-app""#)
            let redirect = try await provider.authorize(
                try #require(url.string), subject: "cody-1", claims: ["email": "cody@example.com", "email_verified": true, "name": "Cody"])
            #expect(redirect.hasPrefix(Self.continueURI + "?code="))
            let answer = try await finish(client, requestURI: redirect, sessionID: sessionID, extra: #","returnRefreshToken":true"#)
            #expect(answer.status == .ok, "\(answer.errorMessage ?? "")")
            let json = try answer.json
            #expect(json["isNewUser"] as? Bool == true && json["email"] as? String == "cody@example.com" && json["federatedId"] as? String == "cody-1")
            #expect(json["context"] as? String == "from-the-app" && json["idToken"] is String && json["oauthIdToken"] is String)
            #expect(json["oauthAccessToken"] is String && (json["oauthExpireIn"] as? Int ?? 0) > 0 && json["oauthRefreshToken"] is String)
            #expect(json["pendingToken"] == nil)

            let replay = try await finish(client, requestURI: redirect, sessionID: sessionID)
            #expect(replay.errorMessage == "INVALID_IDP_RESPONSE : the sign-in is unknown, used or expired")
        }
    }

    /// A redirect that comes back to another address, for another session or provider, or late, signs no one in, and
    /// uses the session up.
    @Test func aRedirectThatIsNotTheSessionsIsRefused() async throws {
        let clock = RunningClock()
        try await withCodeFlow(clock: clock) { client, provider in
            func attempt(_ extra: String = "", rewrite: (String) -> String = { $0 }, session: String? = nil) async throws -> (String?, String?) {
                let (url, sessionID) = try await start(client)
                let redirect = try await provider.authorize(try #require(url.string), subject: "dora-1")
                let refused = try await finish(client, requestURI: rewrite(redirect), sessionID: session ?? sessionID, extra: extra).errorMessage
                return (refused, try await finish(client, requestURI: redirect, sessionID: sessionID).errorMessage)
            }
            let used = "INVALID_IDP_RESPONSE : the sign-in is unknown, used or expired"
            #expect(try await attempt(session: "someone-else") == ("INVALID_IDP_RESPONSE : the sessionId is not the sign-in's", used))
            #expect(
                try await attempt(rewrite: { $0.replacingOccurrences(of: "/__/auth/handler", with: "/elsewhere") })
                    == ("INVALID_IDP_RESPONSE : the requestUri is not the sign-in's continueUri", used))
            #expect(
                try await attempt(rewrite: { $0 + "&providerId=oidc.off" }) == ("INVALID_IDP_RESPONSE : the providerId is not the sign-in's", used))
            let (url, sessionID) = try await start(client)
            let redirect = try await provider.authorize(try #require(url.string), subject: "dora-1")
            clock.advance(by: 601)
            #expect(try await finish(client, requestURI: redirect, sessionID: sessionID).errorMessage == used)
        }
    }

    /// Yahoo is built in: its issuer (replaced here by the mock's) is found through discovery, and only the code flow
    /// signs in; an access token alone proves nothing about whom it was issued to.
    @Test func yahooSignsInWithTheCodeFlowThroughDiscovery() async throws {
        try await withCodeFlow(providerID: "yahoo.com") { client, provider in
            let (url, sessionID) = try await start(client, #","oauthScope":"mail-r","customParameter":{"language":"fr"}"#, providerID: "yahoo.com")
            #expect(url.queryItems?.first { $0.name == "scope" }?.value == "openid email profile mail-r")
            #expect(url.queryItems?.first { $0.name == "language" }?.value == "fr")
            let redirect = try await provider.authorize(try #require(url.string), subject: "yuki-1", claims: ["email": "yuki@yahoo.com"])
            let answer = try await finish(client, requestURI: redirect, sessionID: sessionID)
            #expect(try answer.json["providerId"] as? String == "yahoo.com" && answer.json["federatedId"] as? String == "yuki-1")
            let accessToken = try #require(try answer.json["oauthAccessToken"] as? String)
            let refused = try await client.post(
                "/v1/accounts:signInWithIdp",
                json: #"{"requestUri":"http://localhost","postBody":"access_token=\#(accessToken)&providerId=yahoo.com"}"#)
            #expect(refused.errorMessage == "INVALID_IDP_RESPONSE : an id_token or a code is required")
        }
    }

    /// The iOS SDK gives the hosted page the hex SHA-256 of its session id and `verifyAssertion` the id itself.
    @Test func theHashedSessionIDOfTheIOSSDKIsAccepted() async throws {
        try await withCodeFlow { client, provider in
            let raw = "AbCdEfGhIj"
            let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
            let (url, sessionID) = try await start(client, #","sessionId":"\#(hashed)""#)
            #expect(sessionID == hashed)
            let redirect = try await provider.authorize(try #require(url.string), subject: "ivan-1")
            let answer = try await client.post(
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion",
                json: #"{"requestUri":"\#(redirect)","sessionId":"\#(raw)","returnSecureToken":true,"returnIdpCredential":true}"#)
            #expect(answer.status == .ok)
            #expect(try answer.json["federatedId"] as? String == "ivan-1")
        }
    }

    /// The hash is what the hosted page's URL carries: it finishes nothing in place of the id it hashes.
    @Test func theHashedSessionIDItselfIsRefused() async throws {
        try await withCodeFlow { client, provider in
            let hashed = SHA256.hash(data: Data("KlMnOpQrSt".utf8)).map { String(format: "%02x", $0) }.joined()
            let (url, _) = try await start(client, #","sessionId":"\#(hashed)""#)
            let redirect = try await provider.authorize(try #require(url.string), subject: "ivan-2")
            let answer = try await finish(client, requestURI: redirect, sessionID: hashed)
            #expect(answer.errorMessage == "INVALID_IDP_RESPONSE : the sessionId is not the sign-in's")
        }
    }

    /// "Account exists with a different credential", finished: the owner signs in the old way and links the provider
    /// with the `pendingToken` of the refused attempt; then either way signs in to the one account.
    @Test func aPendingTokenLinksAfterTheOldWaySignedIn() async throws {
        let clock = RunningClock()
        try await withCodeFlow(clock: clock) { client, provider in
            let owner = try await client.post("/v1/accounts:signUp", json: #"{"email":"erin@example.com","password":"correct horse"}"#).json
            let (url, sessionID) = try await start(client)
            let redirect = try await provider.authorize(try #require(url.string), subject: "erin-1", claims: ["email": "erin@example.com"])
            let refused = try await finish(client, requestURI: redirect, sessionID: sessionID).json
            #expect(refused["needConfirmation"] as? Bool == true && refused["idToken"] == nil)
            let pending = try #require(refused["pendingToken"] as? String)

            let password = try await client.post(
                "/v1/accounts:signInWithPassword", json: #"{"email":"erin@example.com","password":"correct horse","returnSecureToken":true}"#
            ).json
            let idToken = try #require(password["idToken"] as? String)
            let linked = try await client.post(
                "/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","pendingToken":"\#(pending)","idToken":"\#(idToken)"}"#)
            #expect(linked.status == .ok)
            #expect(try linked.json["localId"] as? String == owner["localId"] as? String && linked.json["pendingToken"] == nil)
            #expect(try linked.json["oauthIdToken"] == nil)

            // Spent by the link: it signs in nowhere again.
            let again = try await client.post("/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","pendingToken":"\#(pending)"}"#)
            #expect(again.errorMessage == "INVALID_PENDING_TOKEN")
            // Unused, one ends after `idp.pendingTokenTtlSeconds`.
            let (laterURL, laterSession) = try await start(client)
            let laterRedirect = try await provider.authorize(try #require(laterURL.string), subject: "erin-2", claims: ["email": "erin@example.com"])
            let unused = try #require(try await finish(client, requestURI: laterRedirect, sessionID: laterSession).json["pendingToken"] as? String)
            clock.advance(by: 3601)
            let late = try await client.post("/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","pendingToken":"\#(unused)"}"#)
            #expect(late.errorMessage == "INVALID_PENDING_TOKEN")
            let forged = try await client.post("/v1/accounts:signInWithIdp", json: #"{"requestUri":"http://localhost","pendingToken":"x\#(pending)"}"#)
            #expect(forged.errorMessage == "INVALID_PENDING_TOKEN")
        }
    }

    /// The authorization code of a sign-in that an app ran itself (no `createAuthUri`) is exchanged too, with the
    /// request URI as redirect URI; a refused code is a clean refusal.
    @Test func aCodeFromTheProviderIsExchangedOnce() async throws {
        try await withCodeFlow { client, provider in
            var query = URLComponents(string: "\(provider.issuer)/oauth2/authorize")
            query?.queryItems = [
                .init(name: "client_id", value: "latchkey-client"), .init(name: "redirect_uri", value: "https://app.example.com/callback"),
                .init(name: "response_type", value: "code"), .init(name: "scope", value: "openid"), .init(name: "state", value: "app-own"),
            ]
            let redirect = try await provider.authorize(try #require(query?.string), subject: "fay-1")
            let code = try #require(URLComponents(string: redirect)?.queryItems?.first { $0.name == "code" }?.value)
            func exchange() async throws -> TestResponse {
                try await client.post(
                    "/v1/accounts:signInWithIdp",
                    json: #"{"requestUri":"https://app.example.com/callback","postBody":"code=\#(code)&providerId=oidc.mock","returnSecureToken":true}"#)
            }
            #expect(try await exchange().json["federatedId"] as? String == "fay-1")
            #expect(try await exchange().errorMessage == "INVALID_IDP_RESPONSE : token exchange refused: invalid_grant")
        }
    }
}
