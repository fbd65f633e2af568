import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// One process's keys over time, with a clock that moves only when told: rotation publishes first and signs later, a
/// retired key stays published while its tokens may live, and a token naming an unknown key reloads the keys.
@Suite struct SigningKeyRingTests {
    /// A store with one active ES256 key, and a way to start "instances" on it.
    struct Keys {
        let vault: SigningKeyVault
        let clock: FixedClock
        let configuration: TokenConfiguration

        /// A process's ring over the store, loaded, and the issuer on it.
        func instance() async throws -> (ring: SigningKeyRing, tokens: JWTTokenIssuer) {
            let ring = SigningKeyRing(vault: vault, clock: clock, logger: Logger(label: "test"))
            try await ring.reload()
            return (ring, JWTTokenIssuer(keys: ring, configuration: configuration, projectID: "p"))
        }

        /// A key rotated a quarter second after the last one, signing `delay` seconds later (in whole seconds: the
        /// activation is rounded down).
        func rotate(delay: TimeInterval) async throws -> SigningKeyRecord {
            clock.advance(by: 0.25)
            return try await vault.rotate(.es256, delay: delay, now: clock.now)
        }

        /// The `kid` of an ID token `tokens` issues now.
        func signer(of tokens: JWTTokenIssuer) throws -> String {
            try keyID(of: try token(from: tokens))
        }

        func token(from tokens: JWTTokenIssuer) throws -> String {
            let account = Account(id: "acct", email: Fixture.alice, isEmailVerified: true, validSince: clock.now, createdAt: clock.now)
            return try tokens.makeIDToken(
                for: UserRecord(account: account, identities: []), authTime: clock.now, now: clock.now, sessionID: "s", signInProvider: .password)
        }

        func published(by tokens: JWTTokenIssuer) -> [String] {
            tokens.publishedKeys(at: clock.now).keys.map(\.kid)
        }
    }

    func withKeys(_ body: (Keys, SigningKeyRecord) async throws -> Void) async throws {
        try await withWorkspace { workspace in
            let configuration = try await workspace.configuration(["tokens.algorithm": "ES256"])
            let vault = SigningKeyVault(store: try SQLiteStore(path: workspace.databasePath), secret: ServerSecret(material: Data(count: 32)))
            let clock = FixedClock()
            let first = try #require(try await vault.prepare(.es256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: clock.now).created)
            try await body(Keys(vault: vault, clock: clock, configuration: configuration.tokens), first)
        }
    }

    @Test func aPendingKeyIsPublishedAtOnceButSignsOnlyAfterTheDelay() async throws {
        try await withKeys { keys, first in
            let (ring, tokens) = try await keys.instance()
            let next = try await keys.rotate(delay: 3600)
            try await ring.reload()
            #expect(keys.published(by: tokens) == [first.id, next.id])
            #expect(try keys.signer(of: tokens) == first.id)
            keys.clock.advance(by: 3599)
            #expect(try keys.signer(of: tokens) == first.id)
            // No reload between: the activation time alone switches the signer.
            keys.clock.advance(by: 1)
            #expect(try keys.signer(of: tokens) == next.id)
            #expect(keys.published(by: tokens) == [first.id, next.id])
        }
    }

    /// Retired, a key stays published as long as anything it signed may live: a session cookie, fourteen days at most
    /// (an ID token lives a day at most), so a backend verifying cookies against the JWKS keeps accepting one made just
    /// before a rotation.
    @Test func aRetiredKeyIsPublishedUntilItsLongestSessionCookieHasExpiredThenDropped() async throws {
        try await withKeys { keys, first in
            let (ring, tokens) = try await keys.instance()
            let next = try await keys.rotate(delay: 60)
            try await ring.reload()
            keys.clock.advance(by: 59.5)
            let oldToken = try keys.token(from: tokens)
            #expect(try keyID(of: oldToken) == first.id)
            let cookie = try tokens.makeSessionCookie(from: try await tokens.verifyIDToken(oldToken), now: keys.clock.now, validFor: 1_209_600)
            #expect(try keyID(of: cookie) == first.id)
            keys.clock.advance(by: 0.5)
            #expect(try keys.signer(of: tokens) == next.id)
            // Retired: an ID token it signed a moment ago may live a day, a session cookie fourteen.
            keys.clock.advance(by: 86_400)
            #expect(keys.published(by: tokens) == [first.id, next.id])
            #expect(try await tokens.verifyIDToken(oldToken).userID == "acct")
            keys.clock.advance(by: 13 * 86_400 - 0.5)
            #expect(keys.published(by: tokens) == [first.id, next.id])
            keys.clock.advance(by: 0.25)
            #expect(keys.published(by: tokens) == [next.id])
            try await ring.reload()
            #expect(keys.published(by: tokens) == [next.id])
            #expect(SigningKeySchedule(try await keys.vault.records()).state(of: first, at: keys.clock.now) == .unpublished)
        }
    }

    /// Another instance signs with a key this one has not loaded yet: verifying its token loads it, at most once a second.
    @Test func aTokenNamingAnUnknownKeyReloadsTheKeys() async throws {
        try await withKeys { keys, _ in
            let (_, here) = try await keys.instance()
            let (there, elsewhere) = try await keys.instance()
            let second = try await keys.rotate(delay: 0)
            try await there.reload()
            let token = try keys.token(from: elsewhere)
            #expect(try keyID(of: token) == second.id)
            #expect(!keys.published(by: here).contains(second.id))
            #expect(try await here.verifyIDToken(token).userID == "acct")
            #expect(keys.published(by: here).contains(second.id))

            // A second unknown key within the same second waits for the next one.
            let third = try await keys.rotate(delay: 0)
            try await there.reload()
            let newer = try keys.token(from: elsewhere)
            #expect(try keyID(of: newer) == third.id)
            await #expect(throws: SignInError.invalidIDToken) { try await here.verifyIDToken(newer) }
            keys.clock.advance(by: 1)
            #expect(try await here.verifyIDToken(newer).userID == "acct")
        }
    }
}
