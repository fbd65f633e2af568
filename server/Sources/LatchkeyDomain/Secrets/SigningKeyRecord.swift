import Foundation

/// One ID-token signing key as stored: its public id and schedule in clear, its private half sealed under the server
/// secret (`ServerSecret.SealPurpose.signingKey`), so a copy of the database alone signs nothing.
package struct SigningKeyRecord: Sendable, Equatable {
    /// The `kid`: derived from the public half, so it names the same key wherever it is kept.
    package var id: String
    package var algorithm: SigningAlgorithm
    /// The private key in PEM form, sealed.
    package var sealedPrivateKey: Data
    package var createdAt: Date
    /// When it starts signing; until then it is only published, so verifiers' caches hold it before any token names it.
    package var activatesAt: Date

    package init(id: String, algorithm: SigningAlgorithm, sealedPrivateKey: Data, createdAt: Date, activatesAt: Date) {
        self.id = id
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
    }
}
