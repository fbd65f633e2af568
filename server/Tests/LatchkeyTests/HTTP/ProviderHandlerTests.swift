import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Latchkey
import NIOCore
import Testing

/// The hosted page `/__/auth/handler` between an SDK, a real provider on loopback (oidc-provider-mock, code flow) and
/// `signInWithIdp`: it starts the sign-in, then hands the provider's answer to the web page or app that asked.
@Suite(.outsideProcesses) struct ProviderHandlerTests {
    static let handler = "\(TestWorkspace.publicURL)/__/auth/handler"

    func withHandler(_ body: @Sendable (any TestClientProtocol, OIDCProviderMock) async throws -> Void) async throws {
        let secretFile = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-handler-secret-\(UUID().uuidString)")
        try Data("mock-secret".utf8).write(to: secretFile)
        defer { try? FileManager.default.removeItem(at: secretFile) }
        try await withOIDCProviderMock { provider in
            let settings: [String: Any] = [
                "providerId": "oidc.mock", "issuer": provider.issuer.absoluteString, "clientId": "latchkey-client", "allowInsecureIssuer": true,
                "responseType": ["code": true], "clientSecret": ["file": secretFile.path],
            ]
            let overrides: [String: Any] = [
                "identityProviders": [settings], "authorizedDomains": ["app.example.com", "auth.example.com"],
                "apps.ios": [["teamId": "ABCDE12345", "bundleId": "com.example.app", "clientId": "123-abc.apps.googleusercontent.com"]],
                "apps.android": [["packageName": "com.example.app", "sha256CertFingerprints": [Self.fingerprint]]],
            ]
            try await withApp(overrides, clock: RunningClock()) { client, _, _ in try await body(client, provider) }
        }
    }

    static let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")

    /// `path?query` of an absolute URL, for the test client.
    static func pathAndQuery(_ url: String) throws -> String {
        let components = try #require(URLComponents(string: url))
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    /// Opens the page as an SDK would, signs in at the provider, and returns where the page sends the browser then.
    func signInAtProvider(_ client: any TestClientProtocol, _ provider: OIDCProviderMock, query: String, subject: String) async throws -> String {
        let (back, cookie) = try await startAndAuthorize(client, provider, query: query, subject: subject)
        let handedOver = try await client.execute(uri: try Self.pathAndQuery(back), method: .get, headers: [.cookie: cookie])
        #expect(handedOver.status == .found)
        #expect(handedOver.headers[.setCookie]?.contains("Max-Age=0") == true)
        return try #require(handedOver.headers[.location])
    }

    /// Opens the page, signs in at the provider, and returns the provider's redirect back and the browser's cookie.
    func startAndAuthorize(
        _ client: any TestClientProtocol, _ provider: OIDCProviderMock, query: String, subject: String
    ) async throws -> (back: String, cookie: String) {
        let started = try await client.execute(uri: "/__/auth/handler?apiKey=\(TestWorkspace.apiKey)&providerId=oidc.mock&\(query)", method: .get)
        #expect(started.status == .found && started.headers[.referrerPolicy] == "no-referrer", "\(started.text)")
        let setCookie = try #require(started.headers[.setCookie])
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/__/auth/handler"))
        let authorization = try #require(started.headers[.location])
        #expect(authorization.contains("redirect_uri=\(Self.handler.formEncoded)"))
        let back = try await provider.authorize(authorization, subject: subject, claims: ["email": "\(subject)@example.com", "email_verified": true])
        #expect(back.hasPrefix(Self.handler + "?"))
        return (back, String(setCookie.prefix { $0 != ";" }))
    }

    /// The fields of a web page's hand-off, `redirectUrl#link=…&sessionId=…&providerId=…`.
    static func handoff(_ destination: String) throws -> [String: String] {
        var fragment = URLComponents()
        fragment.percentEncodedQuery = try #require(URLComponents(string: destination)?.percentEncodedFragment)
        return Dictionary(uniqueKeysWithValues: (fragment.queryItems ?? []).map { ($0.name, $0.value ?? "") })
    }

    @Test func aWebPageGetsTheLinkAndSignsInWithIt() async throws {
        try await withHandler { client, provider in
            let eventID = "pAge-kept-7f3a"
            let destination = try await signInAtProvider(
                client, provider,
                query: "authType=signInViaRedirect&redirectUrl=\("https://app.example.com/done#old".formEncoded)&eventId=\(eventID)",
                subject: "wendy-1")
            #expect(destination.hasPrefix("https://app.example.com/done#link="))
            let items = try Self.handoff(destination)
            let link = try #require(items["link"])
            #expect(link.hasPrefix(Self.handler + "?") && link.contains("code=") && items["providerId"] == "oidc.mock")
            // The page checks the hand-off is the one it started (its eventId's hash), and finishes with the eventId.
            #expect(items["sessionId"] == SHA256.hex(eventID) && !destination.contains(eventID))
            let answer = try await client.post("/v1/accounts:signInWithIdp", json: #"{"requestUri":"\#(link)","sessionId":"\#(eventID)"}"#)
            #expect(try answer.json["federatedId"] as? String == "wendy-1" && answer.json["idToken"] is String)
            // The page hands over, but only signInWithIdp uses the sign-in up.
            let again = try await client.execute(uri: try Self.pathAndQuery(link), method: .get)
            #expect(again.status == .gone && again.text.contains("This sign-in has ended"))
        }
    }

    /// Someone else's answer, opened or posted in a victim's browser (no cookie from starting it, or another sign-in's),
    /// hands nothing over: the victim would be signed in to the attacker's account.
    @Test func anAnswerIsHandedOverOnlyInTheBrowserThatStartedTheSignIn() async throws {
        try await withHandler { client, provider in
            let query = "redirectUrl=\("https://app.example.com/done".formEncoded)&eventId=E"
            let (attackers, _) = try await startAndAuthorize(client, provider, query: query, subject: "mallory-1")
            let (_, victims) = try await startAndAuthorize(client, provider, query: query, subject: "victim-1")
            for cookie in [nil, victims] {
                let opened = try await client.execute(
                    uri: try Self.pathAndQuery(attackers), method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
                #expect(opened.status == .gone && opened.headers[.location] == nil)
            }
            let state = try #require(URLComponents(string: attackers)?.queryItems?.first { $0.name == "state" }?.value)
            let posted = try await client.execute(
                uri: "/__/auth/handler", method: .post, headers: [.contentType: "application/x-www-form-urlencoded", .cookie: victims],
                body: ByteBuffer(string: "id_token=x&state=\(state)"))
            #expect(posted.status == .gone)
        }
    }

    /// An attacker starts a sign-in in their own browser and sends the victim's page the hand-off: neither what the
    /// hand-off carries nor the value the victim's page kept for a sign-in of its own finishes it, so the victim is
    /// signed in to the attacker's account (or the attacker's provider linked to the victim's) nowhere.
    @Test func aWebHandoffIsFinishedOnlyWithTheEventIdOfThePageThatStartedIt() async throws {
        try await withHandler { client, provider in
            func handoff(eventID: String, subject: String) async throws -> [String: String] {
                try Self.handoff(
                    try await signInAtProvider(
                        client, provider, query: "redirectUrl=\("https://app.example.com/done".formEncoded)&eventId=\(eventID)", subject: subject))
            }
            func finish(_ items: [String: String], sessionID: String) async throws -> TestResponse {
                try await client.post(
                    "/v1/accounts:signInWithIdp", json: #"{"requestUri":"\#(try #require(items["link"]))","sessionId":"\#(sessionID)"}"#)
            }
            for stranger in ["fragment", "victim-kept-9c1d"] {
                let attackers = try await handoff(eventID: "mallory-kept-\(stranger)", subject: "mallory-1")
                let answer = try await finish(attackers, sessionID: stranger == "fragment" ? try #require(attackers["sessionId"]) : stranger)
                #expect(answer.status == .badRequest && answer.errorMessage?.hasPrefix("INVALID_IDP_RESPONSE") == true, "\(stranger)")
                #expect(try answer.json["idToken"] == nil)
            }
            let own = try await handoff(eventID: "mallory-kept-own", subject: "mallory-1")
            #expect(try await finish(own, sessionID: "mallory-kept-own").json["federatedId"] as? String == "mallory-1")
        }
    }

    /// The iOS SDK's redirect flow: the deep link its scheme receives, and its own session id against the hash it sent.
    @Test func anIOSAppGetsTheDeepLinkItExpects() async throws {
        try await withHandler { client, provider in
            let raw = "k3Q9xPz0aB"
            let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
            let destination = try await signInAtProvider(
                client, provider,
                query: "authType=signInWithRedirect&ibi=com.example.app&clientId=123-abc.apps.googleusercontent.com&eventId=E1&sessionId=\(hashed)&v=11",
                subject: "ian-1")
            let deepLink = try #require(URLComponents(string: destination))
            #expect(deepLink.scheme == "com.googleusercontent.apps.123-abc" && deepLink.host == "firebaseauth" && deepLink.path == "/link")
            let deepLinkID = try #require(deepLink.queryItems?.first { $0.name == "deep_link_id" }?.value)
            let callback = try #require(URLComponents(string: deepLinkID))
            #expect(callback.host == "auth.example.com" && callback.path == "/__/auth/callback")
            let items = Dictionary(uniqueKeysWithValues: (callback.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(items["authType"] == "signInWithRedirect" && items["eventId"] == "E1")
            let answer = try await client.post(
                "/www.googleapis.com/identitytoolkit/v3/relyingparty/verifyAssertion",
                json: #"{"requestUri":"\#(try #require(items["link"]))","sessionId":"\#(raw)","returnSecureToken":true,"returnIdpCredential":true}"#)
            #expect(try answer.json["federatedId"] as? String == "ian-1")
        }
    }

    /// An app whose sign-in cannot start gets the error in its own URL (`firebaseError`), as its SDK expects, rather
    /// than a page it would wait on.
    @Test func anAppLearnsWhyItsSignInCouldNotStart() async throws {
        try await withHandler { client, _ in
            let ios = try await client.execute(
                uri: "/__/auth/handler?apiKey=\(TestWorkspace.apiKey)&providerId=oidc.nope&ibi=com.example.app&clientId=123-abc.apps.googleusercontent.com&eventId=E3",
                method: .get)
            #expect(ios.status == .found)
            let location = try #require(ios.headers[.location])
            let deepLink = try #require(URLComponents(string: location))
            #expect(deepLink.scheme == "com.googleusercontent.apps.123-abc")
            let deepLinkID = try #require(deepLink.queryItems?.first { $0.name == "deep_link_id" }?.value)
            let callback = Dictionary(uniqueKeysWithValues: (URLComponents(string: deepLinkID)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            let firebaseError = try #require(callback["firebaseError"])
            let error = try #require(try JSONSerialization.jsonObject(with: Data(firebaseError.utf8)) as? [String: String])
            #expect(error["code"] == "auth/invalid-provider-id" && callback["eventId"] == "E3" && callback["link"] == nil)

            let android = try await client.execute(
                uri: "/__/auth/handler?apiKey=\(TestWorkspace.apiKey)&providerId=oidc.nope&apn=com.example.app&eventId=E4", method: .get)
            let intent = try #require(android.headers[.location])
            #expect(intent.hasPrefix("intent://firebase.auth/#Intent;scheme=genericidp;package=com.example.app;"))
            #expect(intent.contains("S.firebaseError=") && intent.contains("auth%2Finvalid-provider-id") && !intent.contains("S.link="))
        }
    }

    @Test func anAndroidAppGetsAnIntent() async throws {
        try await withHandler { client, provider in
            let destination = try await signInAtProvider(client, provider, query: "apn=com.example.app&eventId=E2", subject: "ann-1")
            #expect(destination.hasPrefix("intent://firebase.auth/#Intent;scheme=genericidp;package=com.example.app;"))
            #expect(destination.contains("S.eventId=E2;") && destination.contains("S.link=\(Self.handler.formEncoded)%3Fcode%3D"))
        }
    }

    /// A request naming no listed app, an unauthorized page, an unknown provider or key gets a page in its language,
    /// and no sign-in starts.
    @Test func aRequestThatCannotStartIsAPageNotARedirect() async throws {
        try await withHandler { client, _ in
            let key = TestWorkspace.apiKey
            for query in [
                "apiKey=\(key)&providerId=oidc.mock&redirectUrl=https%3A%2F%2Fevil.example.net%2F&eventId=E",
                // A web page that keeps no eventId could not tell its own hand-off from an attacker's.
                "apiKey=\(key)&providerId=oidc.mock&redirectUrl=https%3A%2F%2Fapp.example.com%2F",
                "apiKey=\(key)&providerId=oidc.mock&ibi=com.other.app&clientId=1.apps.googleusercontent.com&eventId=E",
                "apiKey=\(key)&providerId=oidc.mock&ibi=com.example.app&eventId=E",
                // The listed app's bundle id with another client id: its scheme could be anyone's app.
                "apiKey=\(key)&providerId=oidc.mock&ibi=com.example.app&clientId=evil.attacker&eventId=E",
                "apiKey=\(key)&providerId=oidc.mock&ibi=com.example.app&appId=1:2:ios:3&eventId=E",
                "apiKey=\(key)&providerId=oidc.mock&apn=com.other.app&eventId=E",
                "apiKey=\(key)&providerId=oidc.nope&redirectUrl=https%3A%2F%2Fapp.example.com%2F&eventId=E",
                "apiKey=wrong&providerId=oidc.mock&redirectUrl=https%3A%2F%2Fapp.example.com%2F&eventId=E",
            ] {
                let answer = try await client.execute(uri: "/__/auth/handler?\(query)&hl=de", method: .get)
                #expect(answer.status == .badRequest && answer.headers[.location] == nil, "\(query)")
                #expect(answer.text.contains("Diese Anmeldeanfrage ist unvollständig") && !answer.text.contains("<script"))
            }
            let unknown = try await client.execute(uri: "/emulator/auth/handler?state=forged&code=x", method: .get)
            #expect(unknown.status == .gone && unknown.text.contains("This sign-in has ended"))
        }
    }

    /// Before a popup or redirect the JS SDK asks for the project's authorized domains, and the iOS SDK reads them to
    /// find its auth domain; an app's API key is needed.
    @Test func theSDKsLearnTheAuthorizedDomains() async throws {
        try await withHandler { client, _ in
            for path in ["/v1/projects", "/identitytoolkit.googleapis.com/v1/projects", "/www.googleapis.com/identitytoolkit/v3/relyingparty/getProjectConfig"] {
                let answer = try await client.execute(uri: "\(path)?key=\(TestWorkspace.apiKey)", method: .get)
                #expect(try answer.json["projectId"] as? String == "test-project", "\(path)")
                #expect(try answer.json["authorizedDomains"] as? [String] == ["app.example.com", "auth.example.com"], "\(path)")
            }
            #expect(try await client.execute(uri: "/v1/projects", method: .get).status == .forbidden)
        }
    }

    /// The implicit flow's answer arrives in the fragment: the page's own script posts it back, and nothing else runs.
    @Test func theFragmentRelayIsAScriptFileAndAForm() async throws {
        try await withHandler { client, _ in
            let page = try await client.execute(uri: "/__/auth/handler", method: .get)
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("script-src 'self'") && policy.contains("form-action 'self'") && !policy.contains("unsafe-inline"))
            #expect(page.text.contains(#"<script src="handler.js" defer></script>"#) && page.text.contains(#"<form id="relay" method="post">"#))
            let script = try await client.execute(uri: "/__/auth/handler.js", method: .get)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8" && script.text.contains("form.submit()"))
            for body in ["id_token=x&state=forged", "state=%zz", "id_token=%&state=s", "a=%2"] {
                let posted = try await client.execute(
                    uri: "/__/auth/handler", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: body))
                #expect(posted.status == .gone, "\(body)")
            }
        }
    }
}

extension String {
    fileprivate var formEncoded: String {
        addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? ""
    }
}

extension HTTPField.Name {
    fileprivate static let referrerPolicy = Self("Referrer-Policy")!
    fileprivate static let contentSecurityPolicy = Self("Content-Security-Policy")!
}
