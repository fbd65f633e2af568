import Foundation
import HummingbirdTesting
import JWTKit
import Latchkey
import Testing

/// `tokens.algorithm` picks how new ID tokens are signed; every key in the directory stays published.
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

            let headerPart = try #require(idToken.split(separator: ".").first.map(String.init))
            let padded = headerPart.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                + String(repeating: "=", count: (4 - headerPart.count % 4) % 4)
            let headerJSON = try #require(Data(base64Encoded: padded))
            let header = try #require(try JSONSerialization.jsonObject(with: headerJSON) as? [String: String])
            let keyID = try #require((try jwks.json["keys"] as? [[String: String]])?.first?["kid"])
            #expect(header == ["alg": algorithm, "kid": keyID, "typ": "JWT"])
        }
    }

    @Test func switchingAlgorithmKeepsTheOldKeyPublishedAndSignsWithTheNewOne() async throws {
        try await withTemporaryDirectory { directory in
            let rsa = try SigningKeys.load(directory: directory.path, algorithm: .rs256, creatingIfMissing: true)
            let both = try SigningKeys.load(directory: directory.path, algorithm: .es256, creatingIfMissing: true)
            #expect(both.keys.count == 2)
            #expect(both.current?.algorithm == .es256)
            #expect(both.keys.contains { $0.id == rsa.current?.id })
            let again = try SigningKeys.load(directory: directory.path, algorithm: .rs256, creatingIfMissing: true)
            #expect(again.keys.count == 2 && again.current?.id == rsa.current?.id)
        }
    }

    /// In production a missing key stops start-up rather than being made anew (a second instance would publish another).
    @Test func withoutCreatingAMissingKeyOfTheAlgorithmIsAnError() async throws {
        try await withTemporaryDirectory { directory in
            #expect(throws: StartupError.self) { try SigningKeys.load(directory: directory.path, algorithm: .rs256, creatingIfMissing: false) }
            let rsa = try SigningKeys.load(directory: directory.path, algorithm: .rs256, creatingIfMissing: true)
            #expect(try SigningKeys.load(directory: directory.path, algorithm: .rs256, creatingIfMissing: false).current?.id == rsa.current?.id)
            let error = #expect(throws: StartupError.self) {
                try SigningKeys.load(directory: directory.path, algorithm: .es256, creatingIfMissing: false)
            }
            #expect(error?.description.contains("latchkey init") == true)
        }
    }
}
