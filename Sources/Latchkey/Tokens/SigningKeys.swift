import Crypto
import Foundation
import JWTKit
import _CryptoExtras

/// The keys ID tokens are signed with, kept as PEM files so tokens survive restarts.
///
/// Every `*.pem` in the directory (RSA or P-256) is published in the JWKS; the newest key of the configured
/// algorithm signs. Adding a new file and restarting rotates keys without breaking tokens signed by the old one,
/// and switching `tokens.algorithm` creates a key of the new kind while the old ones keep verifying.
package struct SigningKeys: Sendable {
    /// One key with its id.
    package struct Key: Sendable {
        /// The private half, of the kind its algorithm needs.
        package enum Material: Sendable {
            case rsa(JWTKit.Insecure.RSA.PrivateKey)
            case p256(ES256PrivateKey)
        }

        package let id: String
        package let material: Material
        /// The PEM it was read from, for signers other than jwt-kit's.
        let pem: String
        let createdAt: Date

        package var algorithm: TokenConfiguration.Algorithm {
            switch material {
            case .rsa: .rs256
            case .p256: .es256
            }
        }
    }

    package let keys: [Key]
    /// The algorithm new tokens are signed with.
    package let algorithm: TokenConfiguration.Algorithm

    /// The key that signs new tokens.
    package var current: Key? { keys.filter { $0.algorithm == algorithm }.max { $0.createdAt < $1.createdAt } }

    /// Loads every key in `directory`, creating one for `algorithm` when there is none of that kind, but only when
    /// `creatingIfMissing` (development mode, `latchkey init`).
    package static func load(
        directory: String, algorithm: TokenConfiguration.Algorithm = .rs256, creatingIfMissing: Bool
    ) throws -> SigningKeys {
        let folder = URL(fileURLWithPath: directory)
        if creatingIfMissing { try FileManager.default.createPrivateDirectory(at: folder) }
        let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])) ?? [])
            .filter { $0.pathExtension == "pem" }
        var keys = try files.map { file in
            let pem = try String(contentsOf: file, encoding: .utf8)
            // Linux file systems rarely report a creation date; a key file is never modified after it is written.
            let created = try file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? .distantPast
            guard let key = makeKey(pem: pem, createdAt: created) else {
                throw StartupError("\(file.path) is neither an RSA nor a P-256 private key in PEM form")
            }
            return key
        }
        if !keys.contains(where: { $0.algorithm == algorithm }) {
            guard creatingIfMissing else {
                throw StartupError(
                    "no \(algorithm.rawValue) signing key in \(folder.path) (tokens.keyDirectory): run `latchkey init` once with the same --config")
            }
            let pem =
                switch algorithm {
                case .rs256: try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
                case .es256: P256.Signing.PrivateKey().pemRepresentation
                }
            guard let key = makeKey(pem: pem, createdAt: Date()) else { throw StartupError("could not create a \(algorithm.rawValue) key") }
            try writePrivateFile(Data(pem.utf8), to: folder.appendingPathComponent("\(key.id).pem"))
            keys.append(key)
        }
        return SigningKeys(keys: keys, algorithm: algorithm)
    }

    /// A key whose id is derived from its public half, so the id is stable whatever the file is called.
    private static func makeKey(pem: String, createdAt: Date) -> Key? {
        let material: Key.Material
        let publicDER: Data
        if let rsa = try? JWTKit.Insecure.RSA.PrivateKey(pem: pem) {
            (material, publicDER) = (.rsa(rsa), rsa.publicKey.derRepresentation)
        } else if let p256 = try? P256.Signing.PrivateKey(pemRepresentation: pem), let key = try? ES256PrivateKey(pem: pem) {
            (material, publicDER) = (.p256(key), p256.publicKey.derRepresentation)
        } else {
            return nil
        }
        let id = Data(SHA256.hash(data: publicDER).prefix(16)).base64URLEncoded()
        return Key(id: id, material: material, pem: pem, createdAt: createdAt)
    }
}
