import Foundation
import LatchkeyDomain

extension SigningKeyVault {
    /// What `prepare` added, for `latchkey init` and the start-up log.
    package struct Preparation: Sendable {
        /// Keys imported from the key directory, active at once and keeping their ids.
        package var imported: [SigningKeyRecord] = []
        /// The key created because none of the configured algorithm was active.
        package var created: SigningKeyRecord?
    }

    /// Makes sure a key of `algorithm` is active. A store without any key first takes the PEM files of `keyDirectory`
    /// (where keys were kept up to 0.8), active at once and keeping their ids, so tokens they signed stay valid; if
    /// still no key of `algorithm` is active, one is created, active at once, when `creatingIfMissing` (`latchkey
    /// init`, development mode), and otherwise start-up stops naming `latchkey init`.
    ///
    /// Files are read and a key generated before the write, which rechecks under `lockSigningKeys`: instances starting
    /// together on one database add one key, not one each.
    package func prepare(
        _ algorithm: SigningAlgorithm, keyDirectory: String, creatingIfMissing: Bool, now: Date
    ) async throws -> Preparation {
        let stored = try await records()
        let imports = try stored.isEmpty ? KeyDirectory.keys(in: keyDirectory).map { file in
            try file.key.sealed(with: secret, createdAt: file.writtenAt, activatesAt: now)
        } : []
        var fresh: SigningKeyRecord?
        if !Self.hasActive(algorithm, in: stored + imports, at: now) {
            guard creatingIfMissing else {
                throw StartupError("no active \(algorithm.rawValue) signing key in the store: run `latchkey init` once with the same --config")
            }
            fresh = try await SigningKey.generate(algorithm).sealed(with: secret, createdAt: now, activatesAt: now)
        }
        guard !imports.isEmpty || fresh != nil else { return Preparation() }
        return try await store.write { [fresh] transaction in
            try await transaction.lockSigningKeys()
            var stored = try await transaction.signingKeys()
            var preparation = Preparation()
            if stored.isEmpty {
                for key in imports {
                    if try await transaction.addSigningKey(key) { preparation.imported.append(key) }
                }
                stored = preparation.imported
            }
            if let fresh, !Self.hasActive(algorithm, in: stored, at: now), try await transaction.addSigningKey(fresh) {
                preparation.created = fresh
            }
            return preparation
        }
    }

    private static func hasActive(_ algorithm: SigningAlgorithm, in keys: [SigningKeyRecord], at now: Date) -> Bool {
        SigningKeySchedule(keys).signingKey(algorithm, at: now) != nil
    }
}
