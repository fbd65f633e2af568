import Foundation
import HummingbirdTesting
import JWTKit
import Latchkey
import LatchkeyDomain
import Testing

/// `tokens.algorithm` picks the algorithm of the keys `latchkey init` and `latchkey keys rotate` create.
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

    /// Another algorithm in the configuration adds no key where one is active: a key active at once would sign before
    /// verifiers could fetch it. Moving to it is a rotation (`AlgorithmRotationTests`).
    @Test func anotherAlgorithmAddsNoKeyWhereOneIsActive() async throws {
        try await withVault { vault in
            let rsa = try #require(try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now).created)
            let again = try await vault.prepare(.es256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now)
            #expect(again.created == nil)
            let schedule = SigningKeySchedule(try await vault.records())
            #expect(schedule.keys == [rsa])
            #expect(schedule.signingKey(at: Self.now)?.id == rsa.id)
            #expect(schedule.newestKey(unlike: .es256) == rsa && schedule.newestKey(unlike: .rs256) == nil)
        }
    }

    /// In production a missing key stops start-up rather than being made anew (a second instance would publish another).
    @Test func withoutCreatingAMissingKeyIsAnError() async throws {
        try await withVault { vault in
            let error = await #expect(throws: StartupError.self) {
                try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: false, now: Self.now)
            }
            #expect(error?.description.contains("latchkey init") == true)
            let rsa = try #require(try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Self.now).created)
            let kept = try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: false, now: Self.now)
            #expect(kept.created == nil)
            #expect(try await vault.records() == [rsa])
        }
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    func withVault(_ body: (SigningKeyVault) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            try await body(SigningKeyVault(store: try SQLiteStore(path: workspace.databasePath), secret: ServerSecret(material: Data(count: 32))))
        }
    }
}
