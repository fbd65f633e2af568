import Foundation
import LatchkeyDomain

/// The signing keys in the store, sealed under the server secret: what each process's `SigningKeyRing` reads, and
/// what `latchkey init` and `latchkey keys` add to. Every instance on the store shares them.
package struct SigningKeyVault: Sendable {
    let store: any Store
    let secret: ServerSecret

    package init(store: any Store, secret: ServerSecret) {
        self.store = store
        self.secret = secret
    }

    /// Every stored key as stored: ids and schedule in clear, nothing opened.
    package func records() async throws -> [SigningKeyRecord] {
        try await store.read { try await $0.signingKeys() }
    }

    /// Adds a new key of `algorithm`, published at once and signing `delay` seconds after `now`, so that verifiers
    /// that cache the JWKS have it before any token names it (`latchkey keys rotate`). It supersedes the key that signs
    /// whatever that key's algorithm (`SigningKeySchedule`), which is how the store moves between RS256 and ES256.
    package func rotate(_ algorithm: SigningAlgorithm, delay: TimeInterval, now: Date) async throws -> SigningKeyRecord {
        let record = try await SigningKey.generate(algorithm).sealed(with: secret, createdAt: now, activatesAt: now.addingTimeInterval(delay))
        guard try await store.write({ try await $0.addSigningKey(record) }) else {
            throw SigningKey.Failure(description: "a new signing key clashed with stored key \(record.id)")
        }
        return record
    }
}
