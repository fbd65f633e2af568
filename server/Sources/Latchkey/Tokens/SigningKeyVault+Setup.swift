import Foundation
import LatchkeyDomain

extension SigningKeyVault {
    /// What `prepare` added, for `latchkey init` and the start-up log.
    package struct Preparation: Sendable {
        /// Keys imported from the key directory, active at once and keeping their ids.
        package var imported: [SigningKeyRecord] = []
        /// The key created because no key was active.
        package var created: SigningKeyRecord?
    }

    /// Makes sure a key is active. A store without any key first takes the PEM files of `keyDirectory` (where keys were
    /// kept up to 0.8), keeping their ids, so tokens they signed stay valid (`importing`); if still no key is active,
    /// one of `algorithm` is created, active at once, when `creatingIfMissing` (`latchkey init`, development mode), and
    /// otherwise start-up stops naming `latchkey init`. A store whose active key is of another algorithm gets no key:
    /// an active key would sign before verifiers could fetch it, and the newest key signs on every instance
    /// (`SigningKeySchedule`), so moving to `algorithm` is `latchkey keys rotate`'s.
    ///
    /// Files are read and a key generated before the write, which rechecks under `lockSigningKeys`: instances starting
    /// together on one database add one key, not one each.
    package func prepare(
        _ algorithm: SigningAlgorithm, keyDirectory: String, creatingIfMissing: Bool, now: Date
    ) async throws -> Preparation {
        let stored = try await records()
        let imports = try stored.isEmpty ? Self.importing(try KeyDirectory.keys(in: keyDirectory), signing: algorithm, now: now, secret: secret) : []
        var fresh: SigningKeyRecord?
        if !Self.hasActive(stored + imports, at: now) {
            guard creatingIfMissing else {
                throw StartupError("no active signing key in the store: run `latchkey init` once with the same --config")
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
            if let fresh, !Self.hasActive(stored, at: now), try await transaction.addSigningKey(fresh) {
                preparation.created = fresh
            }
            return preparation
        }
    }

    /// The key files as stored keys, all active by `now`: each activates when it was written (a second before `now` at
    /// the latest), and the newest of `algorithm` (of any, when none is) at `now`, so that it is the one that signs,
    /// as `tokens.algorithm` chose before keys moved into the store, and the others retire after the grace.
    private static func importing(
        _ files: [(key: SigningKey, writtenAt: Date)], signing algorithm: SigningAlgorithm, now: Date, secret: ServerSecret
    ) throws -> [SigningKeyRecord] {
        let newest = files.filter { $0.key.algorithm == algorithm }.max { $0.writtenAt < $1.writtenAt } ?? files.max { $0.writtenAt < $1.writtenAt }
        return try files.map { file in
            let activatesAt = file.key.id == newest?.key.id ? now : min(file.writtenAt, now.addingTimeInterval(-1))
            return try file.key.sealed(with: secret, createdAt: file.writtenAt, activatesAt: activatesAt)
        }
    }

    private static func hasActive(_ keys: [SigningKeyRecord], at now: Date) -> Bool {
        SigningKeySchedule(keys).signingKey(at: now) != nil
    }
}
