import Foundation
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Testing

/// A key rotated while the server runs (`latchkey keys rotate` from another process on the same database): the server
/// picks it up by itself, signs new tokens with it, and still accepts the tokens of the key it replaced.
@Suite struct KeyRotationTests {
    @Test func rotatingChangesTheKeyOfNewTokensAndOldTokensStillVerify() async throws {
        let clock = FixedClock()
        try await withApp(["tokens.rotationDelaySeconds": 0], clock: clock) { client, workspace, mailbox in
            try await client.sendLink()
            let signedIn = try await client.complete(code: try await mailbox.code()).json
            let oldToken = try #require(signedIn["idToken"] as? String)
            let oldKey = try keyID(of: oldToken)

            let configuration = try await workspace.configuration(["tokens.rotationDelaySeconds": 0])
            let secret = try ServerSecret.load(configuration.security, creatingIfMissing: false)
            clock.advance(by: 1)
            let rotated = try await SigningKeyVault(store: try SQLiteStore(path: workspace.databasePath), secret: secret).rotate(
                configuration.tokens.algorithm, delay: TimeInterval(configuration.tokens.rotationDelaySeconds), now: clock.now)
            #expect(rotated.activatesAt <= clock.now)

            // The server reloads its keys every few seconds.
            var published: [String] = []
            for _ in 0..<100 where !published.contains(rotated.id) {
                try await Task.sleep(for: .milliseconds(100))
                published = try await client.publishedKeyIDs()
            }
            #expect(published == [oldKey, rotated.id])

            let refreshToken = try #require(signedIn["refreshToken"] as? String)
            let newToken = try #require(try await client.refresh(refreshToken).json["id_token"] as? String)
            #expect(try keyID(of: newToken) == rotated.id)
            for token in [oldToken, newToken] {
                let lookup = try await client.post("/v1/accounts:lookup", json: #"{"idToken":"\#(token)"}"#)
                #expect(lookup.status == .ok)
                #expect(((try lookup.json["users"] as? [[String: Any]])?.first?["email"] as? String) == "alice@example.com")
            }
        }
    }
}
