import LatchkeyDomain
import Logging

/// The token issuer over the store's signing keys, and the service that keeps them current while the server runs.
///
/// An active key of `tokens.algorithm` is made sure of first (`prepareSigningKeys`, creating one only when
/// `creatingIfMissing`); start-up then stops unless this process can open it, which it cannot when its server secret
/// differs from the one that sealed the keys.
package func makeTokens(
    _ configuration: AppConfiguration, store: any Store, secret: ServerSecret, creatingIfMissing: Bool, clock: any WallClock, logger: Logger
) async throws -> (issuer: JWTTokenIssuer, reloader: SigningKeyReloader) {
    _ = try await configuration.prepareSigningKeys(in: store, secret: secret, creatingIfMissing: creatingIfMissing, now: clock.now, logger: logger)
    let ring = SigningKeyRing(
        vault: SigningKeyVault(store: store, secret: secret), algorithm: configuration.tokens.algorithm, clock: clock, logger: logger)
    try await ring.reload()
    try await ring.checkSigning()
    return (JWTTokenIssuer(keys: ring, configuration: configuration.tokens, projectID: configuration.projectID), SigningKeyReloader(ring: ring))
}
