import Crypto
import Foundation
import HummingbirdTesting
import Latchkey
import Testing

/// ID tokens from a real provider (oidc-provider-mock on loopback), checked as OpenID Connect asks; and forged,
/// expired, misaddressed and replayed-nonce ones refused with the reason clients see as INVALID_IDP_RESPONSE.
@Suite(.outsideProcesses) struct IDTokenVerifierTests {
    func verifier(at now: Date = Date()) -> IDTokenVerifier {
        let clock = FixedClock(now)
        return IDTokenVerifier(discovery: ProviderDiscovery(clock: clock), clock: clock)
    }

    static var alice: [String: Any] {
        [
        "email": "Alice@Example.com", "email_verified": true, "name": "Alice Liddell", "given_name": "Alice", "family_name": "Liddell",
        "picture": "https://example.com/alice.png", "preferred_username": "alice",
        ]
    }

    @Test func aTokenFromTheProviderGivesWhoSignsIn() async throws {
        try await withOIDCProviderMock { provider in
            let token = try await provider.idToken(subject: "alice-verifier-1", claims: Self.alice, nonce: "n-1")
            let identity = try await verifier().verify(token, from: provider.provider(), nonce: .equals("n-1"))
            #expect(identity.providerID == "oidc.mock" && identity.subject == "alice-verifier-1")
            #expect(identity.email?.value == "alice@example.com" && identity.isEmailVerified)
            #expect(identity.displayName == "Alice Liddell" && identity.firstName == "Alice" && identity.lastName == "Liddell")
            #expect(identity.photoURL == "https://example.com/alice.png" && identity.screenName == "alice" && identity.idToken == token)
            let raw = try #require(try JSONSerialization.jsonObject(with: Data(identity.rawUserInfo.utf8)) as? [String: Any])
            #expect(raw["sub"] as? String == "alice-verifier-1" && raw["nonce"] as? String == "n-1")
        }
    }

    @Test func emailTrustDecidesWhetherTheAddressIsVerified() async throws {
        try await withOIDCProviderMock { provider in
            let unverified = try await provider.idToken(subject: "bob", claims: ["email": "bob@example.com", "email_verified": "false"])
            let apple = try await provider.idToken(subject: "carol", claims: ["email": "carol@example.com", "email_verified": "true"])
            var settings = provider.provider()
            #expect(try await verifier().verify(unverified, from: settings, nonce: .hashOf(nil)).isEmailVerified == false)
            #expect(try await verifier().verify(apple, from: settings, nonce: .hashOf(nil)).isEmailVerified)
            settings.emailTrust = .always
            #expect(try await verifier().verify(unverified, from: settings, nonce: .hashOf(nil)).isEmailVerified)
            settings.emailTrust = .never
            #expect(try await verifier().verify(apple, from: settings, nonce: .hashOf(nil)).isEmailVerified == false)
        }
    }

    /// Only `true` and `"true"` verify an address: a number is not a boolean, whatever its value.
    @Test func emailVerifiedIsTrueOrTheStringTrueOnly() async throws {
        try await withOIDCProviderMock { provider in
            for value: Any in [1, 1.0, "1", "yes"] {
                let token = try await provider.idToken(subject: "gina", claims: ["email": "gina@example.com", "email_verified": value])
                #expect(try await verifier().verify(token, from: provider.provider(), nonce: .hashOf(nil)).isEmailVerified == false, "\(value)")
            }
        }
    }

    /// Facebook's ID tokens (Limited Login) are not believed about `email_verified`: only `emailTrust: always` vouches.
    @Test func facebooksIDTokensAreNotBelievedAboutTheAddress() async throws {
        try await withOIDCProviderMock { provider in
            let token = try await provider.idToken(subject: "hal", claims: ["email": "hal@example.com", "email_verified": true])
            var facebook = provider.provider("facebook.com")
            #expect(try await verifier().verify(token, from: facebook, nonce: .hashOf(nil)).isEmailVerified == false)
            facebook.emailTrust = .always
            #expect(try await verifier().verify(token, from: facebook, nonce: .hashOf(nil)).isEmailVerified)
        }
    }

    /// A `nonce` claim that is not a string cannot be the hash of anything: refused, not taken as absent.
    @Test func aNonceClaimThatIsNotAStringIsRefused() async throws {
        try await withOIDCProviderMock { provider in
            let token = try await provider.idToken(subject: "iris", claims: ["nonce": 42])
            let payload = try #require(Self.base64URLDecoded(String(token.split(separator: ".")[1])))
            let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            #expect(claims["nonce"] as? Int == 42)
            await #expect(throws: ProviderFailure.invalidNonce) { try await verifier().verify(token, from: provider.provider(), nonce: .hashOf(nil)) }
        }
    }

    /// A JWKS is read key by key: a key without `kid` is kept (under its index), and one it cannot use (`oct`, an
    /// unknown type, a broken one) is skipped without losing the others.
    @Test func aKeySetKeepsEveryKeyItCanUse() async throws {
        try await withApp { client, _, _ in
            let published = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
            let jwks = try published.json
            let rsa = try #require((jwks["keys"] as? [[String: Any]])?.first)
            var unnamed = rsa
            unnamed["kid"] = nil
            let keys: [[String: Any]] = [
                ["kty": "oct", "k": "c2VjcmV0", "kid": "symmetric"], unnamed, ["kty": "OKP", "crv": "Ed25519", "x": "AAAA", "kid": "edwards"],
                ["kty": "RSA", "kid": "broken", "n": 5], rsa,
            ]
            let set = try await ProviderKeySet(document: try JSONSerialization.data(withJSONObject: ["keys": keys]))
            #expect(set.keys.map(\.id) == ["#1", try #require(rsa["kid"] as? String)])
            #expect(set.candidates(kid: nil, algorithm: "RS256").count == 2)
        }
    }

    /// An app's own credential carries the SHA-256 of its raw nonce (Sign in with Apple, `OAuthProvider.credential`).
    @Test func aManualCredentialsNonceIsTheHashOfTheRawNonce() async throws {
        try await withOIDCProviderMock { provider in
            let raw = "raw-nonce-123"
            let hashed = SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined()
            let token = try await provider.idToken(subject: "dave", nonce: hashed)
            #expect(try await verifier().verify(token, from: provider.provider(), nonce: .hashOf(raw)).subject == "dave")
            await #expect(throws: ProviderFailure.invalidNonce) { try await verifier().verify(token, from: provider.provider(), nonce: .hashOf(nil)) }
            await #expect(throws: ProviderFailure.invalidNonce) { try await verifier().verify(token, from: provider.provider(), nonce: .hashOf("other")) }
            await #expect(throws: ProviderFailure.invalidNonce) { try await verifier().verify(token, from: provider.provider(), nonce: .equals(raw)) }
            let withoutNonce = try await provider.idToken(subject: "dave")
            #expect(try await verifier().verify(withoutNonce, from: provider.provider(), nonce: .hashOf("unused")).subject == "dave")
            await #expect(throws: ProviderFailure.invalidNonce) { try await verifier().verify(withoutNonce, from: provider.provider(), nonce: .equals("n")) }
        }
    }

    @Test func expiredMisaddressedAndForeignTokensAreRefused() async throws {
        try await withOIDCProviderMock { provider in
            let token = try await provider.idToken(subject: "erin")
            let settings = provider.provider()
            await #expect(throws: ProviderFailure.invalidResponse("the ID token has expired")) {
                try await verifier(at: Date().addingTimeInterval(2 * 86_400)).verify(token, from: settings, nonce: .hashOf(nil))
            }
            await #expect(throws: ProviderFailure.invalidResponse("the ID token is issued in the future")) {
                try await verifier(at: Date().addingTimeInterval(-600)).verify(token, from: settings, nonce: .hashOf(nil))
            }
            let other = try await provider.idToken(subject: "erin", clientID: "another-client")
            await #expect(throws: ProviderFailure.invalidResponse("the ID token is for another client")) {
                try await verifier().verify(other, from: settings, nonce: .hashOf(nil))
            }
            // The same provider reached by another name answers with that name as issuer: its tokens' `iss` differs.
            var renamed = settings
            renamed.issuer = try #require(URL(string: "http://localhost:\(provider.port)"))
            await #expect(throws: ProviderFailure.invalidResponse("the ID token is from another issuer")) {
                try await verifier().verify(token, from: renamed, nonce: .hashOf(nil))
            }
        }
    }

    @Test func forgedTokensAreRefused() async throws {
        try await withOIDCProviderMock { provider in
            let token = try await provider.idToken(subject: "frank", claims: ["email": "frank@example.com", "email_verified": false])
            let parts = token.split(separator: ".").map(String.init)
            let settings = provider.provider()
            func refused(_ forged: String, _ reason: String) async {
                await #expect(throws: ProviderFailure.invalidResponse(reason)) { try await verifier().verify(forged, from: settings, nonce: .hashOf(nil)) }
            }
            let payload = try #require(Self.base64URLDecoded(parts[1]))
            var claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            claims["email_verified"] = true
            let changed = Self.base64URL(try JSONSerialization.data(withJSONObject: claims))
            await refused([parts[0], changed, parts[2]].joined(separator: "."), "the ID token's signature is invalid")
            await refused([Self.base64URL(Data(#"{"alg":"none"}"#.utf8)), parts[1], ""].joined(separator: "."), "the ID token's algorithm is not allowed")
            await refused([Self.base64URL(Data(#"{"alg":"HS256"}"#.utf8)), parts[1], parts[2]].joined(separator: "."), "the ID token's algorithm is not allowed")
            await refused([Self.base64URL(Data(#"{"alg":"RS256","kid":"unknown"}"#.utf8)), parts[1], parts[2]].joined(separator: "."),
                          "the ID token names an unknown key")
            await refused("not-a-jwt", "the ID token is not a signed JWT")
            await refused([parts[0], parts[1]].joined(separator: "."), "the ID token is not a signed JWT")
        }
    }

    /// A provider that is down, silent or answers nonsense is a clean INVALID_IDP_RESPONSE within the call's deadline.
    @Test func aProviderThatIsDownSilentOrWrongIsACleanFailure() async throws {
        let token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"
        let down = IdentityProviderSettings(
            providerID: "oidc.down", issuer: try #require(URL(string: "http://127.0.0.1:\(try freeLoopbackPort())")), clientID: "c",
            allowsInsecureIssuer: true)
        await #expect(throws: ProviderFailure.invalidResponse("discovery failed: could not connect")) {
            try await verifier().verify(token, from: down, nonce: .hashOf(nil))
        }
        let listener = try SilentListener()
        var silent = down
        silent.issuer = try #require(URL(string: "http://127.0.0.1:\(listener.port)"))
        let clock = FixedClock(Date())
        let impatient = IDTokenVerifier(
            discovery: ProviderDiscovery(http: ProviderHTTPClient(timeout: .seconds(1)), clock: clock), clock: clock)
        let started = ContinuousClock.now
        await #expect(throws: ProviderFailure.invalidResponse("discovery failed: no answer in time")) {
            try await impatient.verify(token, from: silent, nonce: .hashOf(nil))
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        try await withOIDCProviderMock { provider in
            var wrong = provider.provider()
            wrong.issuer = try #require(URL(string: "http://127.0.0.1:\(provider.port)/oauth2"))
            await #expect(throws: ProviderFailure.invalidResponse("discovery answered HTTP 404")) {
                try await verifier().verify(token, from: wrong, nonce: .hashOf(nil))
            }
            var insecure = provider.provider()
            insecure.allowsInsecureIssuer = false
            await #expect(throws: ProviderFailure.invalidResponse("discovery failed: authorization_endpoint or jwks_uri missing or not https")) {
                try await verifier().verify(token, from: insecure, nonce: .hashOf(nil))
            }
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func base64URLDecoded(_ text: String) -> Data? {
        let base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return Data(base64Encoded: base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4))
    }
}
