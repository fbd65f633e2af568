import Foundation
import HummingbirdTesting
import JWTKit
import Latchkey
import LatchkeyDomain
import Testing

/// `tokens.algorithm` picks how new ID tokens are signed; keys of the other algorithm stay published.
@Suite struct SigningAlgorithmTests {
    @Test func es256TokensVerifyAgainstThePublishedP256Key() async throws {
        try await withApp(["tokens.algorithm": "ES256"]) { client, _, mailbox in
            try await client.sendLink()
            let idToken = try #require(try await client.complete(code: try await mailbox.code()).json["idToken"] as? String)
            let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
            let keys = try await JWTKeyCollection().add(jwksJSON: jwks.text)
            let claims = try await keys.verify(idToken, as: VerifiedClaims.self)
            #expect(claims.email == "alice@example.com")

            let published = try #require(try jwks.json["keys"] as? [[String: String]])
            #expect(published.map { $0["alg"] } == ["ES256"])
            #expect(published.first?["kty"] == "EC" && published.first?["crv"] == "P-256" && published.first?["n"] == nil)
            let discovery = try await client.execute(uri: "/.well-known/openid-configuration", method: .get).json
            #expect(discovery["id_token_signing_alg_values_supported"] as? [String] == ["ES256"])
        }
    }

    /// RS256 is signed through the system's OpenSSL and verified here by jwt-kit's BoringSSL: two implementations agree.
    @Test(arguments: ["RS256", "ES256"])
    func tokensCarryTheStandardHeaderAndVerifyWithTheJWKS(_ algorithm: String) async throws {
        try await withApp(["tokens.algorithm": algorithm]) { client, _, mailbox in
            try await client.sendLink()
            let idToken = try #require(try await client.complete(code: try await mailbox.code()).json["idToken"] as? String)
            let jwks = try await client.execute(uri: "/.well-known/jwks.json", method: .get)
            let claims = try await JWTKeyCollection().add(jwksJSON: jwks.text).verify(idToken, as: VerifiedClaims.self)
            #expect(claims.email == "alice@example.com")

            let header = try #require(try jwsHeader(of: idToken) as? [String: String])
            let keyID = try #require((try jwks.json["keys"] as? [[String: String]])?.first?["kid"])
            #expect(header == ["alg": algorithm, "kid": keyID, "typ": "JWT"])
        }
    }

    @Test func switchingAlgorithmKeepsTheOldKeyPublishedAndSignsWithTheNewOne() async throws {
        try await withVault { vault in
            let rsa = try #require(try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now).created)
            let es256 = try #require(try await vault.prepare(.es256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now).created)
            let schedule = SigningKeySchedule(try await vault.records())
            #expect(schedule.keys.count == 2)
            #expect(schedule.signingKey(.es256, at: Self.now)?.id == es256.id)
            #expect(schedule.publishedUntil(rsa) == nil)
            let again = try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now)
            #expect(again.created == nil)
            #expect(SigningKeySchedule(try await vault.records()).signingKey(.rs256, at: Self.now)?.id == rsa.id)
        }
    }

    /// In production a missing key stops start-up rather than being made anew (a second instance would publish another).
    @Test func withoutCreatingAMissingKeyOfTheAlgorithmIsAnError() async throws {
        try await withVault { vault in
            await #expect(throws: StartupError.self) {
                try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: false, now: Self.now)
            }
            let rsa = try #require(try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now).created)
            let kept = try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: false, now: Self.now)
            #expect(kept.created == nil)
            #expect(try await vault.records() == [rsa])
            let error = await #expect(throws: StartupError.self) {
                try await vault.prepare(.es256, keyDirectory: "/nonexistent", creatingIfMissing: false, now: Self.now)
            }
            #expect(error?.description.contains("latchkey init") == true)
        }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func withVault(_ body: (SigningKeyVault) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            try await body(SigningKeyVault(store: try SQLiteStore(path: workspace.databasePath), secret: ServerSecret(material: Data(count: 32))))
        }
    }
}
