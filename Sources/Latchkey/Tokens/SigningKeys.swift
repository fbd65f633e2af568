import Crypto
import Foundation
import JWTKit
import _CryptoExtras

/// The RSA keys ID tokens are signed with, kept as PEM files so tokens survive restarts.
///
/// Every `*.pem` in the directory is published in the JWKS; the newest signs. Adding a new file and
/// restarting rotates keys without breaking tokens signed by the old one.
package struct SigningKeys: Sendable {
    /// One key with its id.
    package struct Key: Sendable {
        package let id: String
        package let privateKey: JWTKit.Insecure.RSA.PrivateKey
        let createdAt: Date
    }

    package let keys: [Key]

    /// The key that signs new tokens.
    package var current: Key? { keys.max { $0.createdAt < $1.createdAt } }

    /// Loads every key in `directory`, creating one when there is none.
    package static func loadOrCreate(directory: String) throws -> SigningKeys {
        let folder = URL(fileURLWithPath: directory)
        try FileManager.default.createPrivateDirectory(at: folder)
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])
            .filter { $0.pathExtension == "pem" }
        var keys = try files.map { file in
            do {
                let pem = try String(contentsOf: file, encoding: .utf8)
                // Linux file systems rarely report a creation date; a key file is never modified after it is written.
                let created = try file.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate ?? .distantPast
                return try makeKey(pem: pem, createdAt: created)
            } catch {
                throw StartupError("\(file.path) is not an RSA private key in PEM form: \(error)")
            }
        }
        if keys.isEmpty {
            let pem = try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
            let key = try makeKey(pem: pem, createdAt: Date())
            try writePrivateFile(Data(pem.utf8), to: folder.appendingPathComponent("\(key.id).pem"))
            keys.append(key)
        }
        return SigningKeys(keys: keys)
    }

    /// A key whose id is derived from its public half, so the id is stable whatever the file is called.
    private static func makeKey(pem: String, createdAt: Date) throws -> Key {
        let privateKey = try JWTKit.Insecure.RSA.PrivateKey(pem: pem)
        let digest = SHA256.hash(data: privateKey.publicKey.derRepresentation)
        let id = Data(digest.prefix(16)).base64URLEncoded()
        return Key(id: id, privateKey: privateKey, createdAt: createdAt)
    }
}
