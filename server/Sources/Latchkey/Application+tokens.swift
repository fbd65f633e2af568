import Foundation
import LatchkeyDomain
import Logging

/// The token issuer over the store's signing keys, the service that keeps them current while the server runs, and what
/// the start-up line says of them.
///
/// An active key is made sure of first (`prepareSigningKeys`, creating one of `tokens.algorithm` only when
/// `creatingIfMissing`); start-up then stops unless this process can open it, which it cannot when its server secret
/// differs from the one that sealed the keys. The newest key signs whatever `tokens.algorithm` says
/// (`SigningKeySchedule`): when the two differ, a warning says so rather than this instance signing apart from the others.
package func makeTokens(
    _ configuration: AppConfiguration, store: any Store, secret: ServerSecret, creatingIfMissing: Bool, clock: any WallClock, logger: Logger
) async throws -> (issuer: JWTTokenIssuer, reloader: SigningKeyReloader, summary: String) {
    _ = try await configuration.prepareSigningKeys(in: store, secret: secret, creatingIfMissing: creatingIfMissing, now: clock.now, logger: logger)
    let vault = SigningKeyVault(store: store, secret: secret)
    let ring = SigningKeyRing(vault: vault, clock: clock, logger: logger)
    try await ring.reload()
    try await ring.checkSigning()
    let schedule = SigningKeySchedule(try await vault.records())
    let algorithm = configuration.tokens.algorithm
    if let newest = schedule.newestKey(unlike: algorithm) {
        logger.warning(
            "The newest signing key is not of tokens.algorithm and signs all the same: see `latchkey keys rotate --algorithm`",
            metadata: [
                "tokens.algorithm": "\(algorithm.rawValue)", "key.id": "\(newest.id)", "key.algorithm": "\(newest.algorithm.rawValue)",
                "key.activatesAt": "\(newest.activatesAt.formatted(.iso8601))",
            ])
    }
    return (
        JWTTokenIssuer(keys: ring, configuration: configuration.tokens, projectID: configuration.projectID), SigningKeyReloader(ring: ring),
        schedule.summary(at: clock.now)
    )
}

extension SigningKeySchedule {
    /// The algorithm that signs at `now`, and the one that takes over when the newest key is pending and of another
    /// (`RS256, ES256 from 2026-11-29T14:00:00Z`), for the start-up line.
    func summary(at now: Date) -> String {
        let signing = signingKey(at: now)?.algorithm.rawValue ?? "none"
        guard let newest = keys.last, now < newest.activatesAt, newest.algorithm.rawValue != signing else { return signing }
        return "\(signing), \(newest.algorithm.rawValue) from \(newest.activatesAt.formatted(.iso8601))"
    }
}
