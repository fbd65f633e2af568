import Foundation
import HummingbirdTesting
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Moving between RS256 and ES256 by rotation (`latchkey keys rotate --algorithm`): the new key is published at once
/// and signs after the delay on every instance, whatever each one's `tokens.algorithm`; the key it supersedes stays
/// published until what it signed has expired, then drops out, as within one algorithm.
@Suite struct AlgorithmRotationTests {
    @Test func rotatingToES256AndBackPublishesBothDuringTheOverlapThenDropsTheOldKey() async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration()
            let vault = SigningKeyVault(store: try SQLiteStore(path: workspace.databasePath), secret: ServerSecret(material: Data(count: 32)))
            let clock = FixedClock()
            let rsa = try #require(try await vault.prepare(.rs256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: clock.now).created)
            let ring = SigningKeyRing(vault: vault, clock: clock, logger: Logger(label: "test"))
            try await ring.reload()
            let tokens = JWTTokenIssuer(keys: ring, configuration: configuration.tokens, projectID: "p")
            let signer = { try keyID(of: try Self.token(from: tokens, at: clock.now)) }
            let published = { tokens.publishedKeys(at: clock.now).keys.map(\.kid) }

            clock.advance(by: 1)
            let p256 = try await vault.rotate(.es256, delay: 3600, now: clock.now)
            try await ring.reload()
            #expect(published() == [rsa.id, p256.id])
            #expect(try signer() == rsa.id)
            clock.advance(by: 3599)
            let rsaToken = try Self.token(from: tokens, at: clock.now)
            #expect(try keyID(of: rsaToken) == rsa.id)
            clock.advance(by: 1)
            #expect(try signer() == p256.id)
            #expect(published() == [rsa.id, p256.id])

            // The RS256 key is retired: what it signed verifies until the grace ends, then it is no longer published.
            clock.advance(by: SigningKeySchedule.retirementGrace - 1)
            try await ring.reload()
            #expect(try await tokens.verifyIDToken(rsaToken).userID == "acct")
            #expect(SigningKeySchedule(try await vault.records()).state(of: rsa, at: clock.now) == .retired)
            clock.advance(by: 1)
            try await ring.reload()
            #expect(published() == [p256.id])
            await #expect(throws: SignInError.invalidIDToken) { try await tokens.verifyIDToken(rsaToken) }

            // And back to RS256 the same way.
            let back = try await vault.rotate(.rs256, delay: 60, now: clock.now)
            try await ring.reload()
            #expect(published() == [p256.id, back.id])
            clock.advance(by: 59)
            let p256Token = try Self.token(from: tokens, at: clock.now)
            #expect(try keyID(of: p256Token) == p256.id)
            clock.advance(by: 1)
            #expect(try signer() == back.id)
            clock.advance(by: SigningKeySchedule.retirementGrace - 1)
            try await ring.reload()
            #expect(published() == [p256.id, back.id])
            #expect(try await tokens.verifyIDToken(p256Token).userID == "acct")
            clock.advance(by: 1)
            try await ring.reload()
            #expect(published() == [back.id])
        }
    }

    /// A rolling change of `tokens.algorithm` on two instances sharing one database: the instance restarted with ES256
    /// first signs with the keys a verifier fetched before it started, and once a rotation to ES256 is due both
    /// instances switch together, each signing only with a key the JWKS published before the switch.
    @Test func twoInstancesWithDifferentAlgorithmsSignOnlyWithPublishedKeys() async throws {
        try await withWorkspace { workspace in
            let clock = FixedClock()
            let rs256 = try await workspace.configuration(["tokens.rotationDelaySeconds": 3600])
            try await initialize(rs256, now: clock.now)
            let templates = try await TestTemplates.library(for: rs256.templatesDirectory)
            let old = try await buildApplication(rs256, clock: clock, templates: templates)
            try await old.test(.router) { oldClient in
                // What a verifier fetched before the second instance restarted.
                let fetched = Set(try await oldClient.publishedKeyIDs())
                try await oldClient.sendLink()
                let code = try await Mailbox(directory: workspace.outboxDirectory).code()
                let signedIn = try #require(try await oldClient.complete(code: code).json["refreshToken"] as? String)

                let es256 = try await workspace.configuration(["tokens.algorithm": "ES256", "tokens.rotationDelaySeconds": 3600])
                let restarted = try await buildApplication(es256, clock: clock, templates: templates)
                try await restarted.test(.router) { newClient in
                    var verifierCache = fetched
                    var refreshToken = signedIn
                    /// An ID token from `client`, by refreshing the session there.
                    func idToken(from client: some TestClientProtocol) async throws -> String {
                        let refreshed = try await client.refresh(refreshToken).json
                        refreshToken = try #require(refreshed["refresh_token"] as? String)
                        return try #require(refreshed["id_token"] as? String)
                    }
                    let before = try await [idToken(from: oldClient), idToken(from: newClient)]
                    #expect(try before.allSatisfy { verifierCache.contains(try keyID(of: $0)) })

                    // `latchkey keys rotate --algorithm ES256` from either instance's configuration.
                    let secret = try ServerSecret.load(es256.security, creatingIfMissing: false)
                    let vault = SigningKeyVault(store: try SQLiteStore(path: workspace.databasePath), secret: secret)
                    let p256 = try await vault.rotate(.es256, delay: 3600, now: clock.now)
                    // Each instance reloads the keys every two seconds.
                    for client in [oldClient, newClient] as [any TestClientProtocol] {
                        var waited = 0
                        while try await !client.publishedKeyIDs().contains(p256.id), waited < 100 {
                            try await Task.sleep(for: .milliseconds(100))
                            waited += 1
                        }
                    }
                    let pending = try await [idToken(from: oldClient), idToken(from: newClient)]
                    #expect(try pending.map { try keyID(of: $0) } == before.map { try keyID(of: $0) })
                    verifierCache.formUnion(try await oldClient.publishedKeyIDs())
                    #expect(verifierCache.contains(p256.id))

                    clock.advance(by: 3600)
                    let after = try await [idToken(from: oldClient), idToken(from: newClient)]
                    #expect(try after.map { try keyID(of: $0) } == [p256.id, p256.id])
                    for token in before + after {
                        #expect(try await oldClient.post("/v1/accounts:lookup", json: #"{"idToken":"\#(token)"}"#).status == .ok)
                        #expect(try await newClient.post("/v1/accounts:lookup", json: #"{"idToken":"\#(token)"}"#).status == .ok)
                    }
                }
            }
        }
    }

    static func token(from tokens: JWTTokenIssuer, at now: Date) throws -> String {
        let account = Account(id: "acct", email: Fixture.alice, isEmailVerified: true, validSince: now, createdAt: now)
        return try tokens.makeIDToken(
            for: UserRecord(account: account, identities: []), authTime: now, now: now, sessionID: "s", signInProvider: .password)
    }
}
