import Foundation
import LatchkeyDomain
import Logging

extension AppConfiguration {
    /// Makes sure `store` holds an active signing key: imports the PEM files of `tokens.keyDirectory` into a store that
    /// holds no key (the newest of `tokens.algorithm` signing), then creates a key of `tokens.algorithm` where none is
    /// active, but only when `creatingIfMissing`.
    ///
    /// `serve` creates it in development mode only, as it does the server secret (`ServerSecret.load`). In production a
    /// missing key is a mistake to stop at, not to paper over: a restore without the keys would otherwise publish a
    /// new one and invalidate every ID token issued. `latchkey init` creates it once.
    package func prepareSigningKeys(
        in store: any Store, secret: ServerSecret, creatingIfMissing: Bool, now: Date, logger: Logger
    ) async throws -> SigningKeyVault.Preparation {
        let preparation = try await SigningKeyVault(store: store, secret: secret).prepare(
            tokens.algorithm, keyDirectory: tokens.keyDirectory, creatingIfMissing: creatingIfMissing, now: now)
        if !preparation.imported.isEmpty {
            logger.notice(
                "Signing keys imported into the store from tokens.keyDirectory; the directory is not read again",
                metadata: ["directory": "\(tokens.keyDirectory)", "keys": .array(preparation.imported.map { .string($0.id) })])
        }
        if let created = preparation.created {
            logger.info("Signing key created in the store", metadata: ["key.id": "\(created.id)", "algorithm": "\(created.algorithm.rawValue)"])
        }
        return preparation
    }
}
