extension AppConfiguration {
    /// The server secret and the signing keys, created where missing only when `creatingIfMissing`.
    ///
    /// `serve` creates them in development mode only. In production a missing secret or key is a mistake to stop at,
    /// not to paper over: a second instance, or a restore without `data/`, would otherwise publish other keys and be
    /// unable to read the first one's links, sessions and queued mail. `latchkey init` creates them once.
    package func loadSecrets(creatingIfMissing: Bool) throws -> (secret: ServerSecret, keys: SigningKeys) {
        let secret = try ServerSecret.load(security, creatingIfMissing: creatingIfMissing)
        let keys = try SigningKeys.load(directory: tokens.keyDirectory, algorithm: tokens.algorithm, creatingIfMissing: creatingIfMissing)
        return (secret, keys)
    }
}
