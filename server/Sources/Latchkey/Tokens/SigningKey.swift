import Crypto
import Foundation
import JWTKit
import LatchkeyDomain
import NIOPosix
import _CryptoExtras

/// One ID-token signing key, open: its private half parsed once, its id derived from its public half so that the id
/// is the same wherever the key is kept (a PEM file before, the store now).
package struct SigningKey: Sendable {
    /// The private half, of the kind its algorithm needs.
    package enum Material: Sendable {
        case rsa(JWTKit.Insecure.RSA.PrivateKey)
        case p256(ES256PrivateKey)
    }

    /// Why a key cannot be made, stored or opened.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package let id: String
    package let material: Material
    /// The private key in PEM form: what is sealed into the store, and what `JWSSigner` reads.
    package let pem: String

    package var algorithm: SigningAlgorithm {
        switch material {
        case .rsa: .rs256
        case .p256: .es256
        }
    }

    /// Reads an RSA or P-256 private key in PEM form; nil when it is neither.
    package init?(pem: String) {
        let publicDER: Data
        if let rsa = try? JWTKit.Insecure.RSA.PrivateKey(pem: pem) {
            material = .rsa(rsa)
            publicDER = rsa.publicKey.derRepresentation
        } else if let p256 = try? P256.Signing.PrivateKey(pemRepresentation: pem), let key = try? ES256PrivateKey(pem: pem) {
            material = .p256(key)
            publicDER = p256.publicKey.derRepresentation
        } else {
            return nil
        }
        id = Data(SHA256.hash(data: publicDER).prefix(16)).base64URLEncoded()
        self.pem = pem
    }

    /// A new key of `algorithm`, from the system's CSPRNG. An RSA key takes tens of milliseconds of CPU to find, so
    /// it is made on NIO's thread pool: the cooperative pool has one thread per core and must never stall on it.
    package static func generate(_ algorithm: SigningAlgorithm) async throws -> SigningKey {
        let pem = try await NIOThreadPool.singleton.runIfActive {
            switch algorithm {
            case .rs256: try _RSA.Signing.PrivateKey(keySize: .bits2048).pemRepresentation
            case .es256: P256.Signing.PrivateKey().pemRepresentation
            }
        }
        guard let key = SigningKey(pem: pem) else { throw Failure(description: "a new \(algorithm.rawValue) key could not be read back") }
        return key
    }

    /// Opens a stored key. Throws when it was sealed under another server secret, or holds another key than its id
    /// and algorithm name (a row's sealed half copied onto another).
    package init(opening record: SigningKeyRecord, with secret: ServerSecret) throws {
        let opened: Data
        do {
            opened = try secret.open(record.sealedPrivateKey, for: .signingKey)
        } catch {
            throw Failure(
                description: "signing key \(record.id) cannot be opened with this server secret (every instance must share security.serverSecret)")
        }
        guard let key = SigningKey(pem: String(decoding: opened, as: UTF8.self)), key.id == record.id, key.algorithm == record.algorithm else {
            throw Failure(description: "signing key \(record.id) holds another key than its id names")
        }
        self = key
    }

    /// The key as the store keeps it, its private half sealed under `secret`.
    ///
    /// The activation is kept in whole seconds, rounded down, as JWT times are: a fractional Unix time does not always
    /// survive the trip through the store to the same `Date`, and a key made active "now" must be active at that very
    /// `now`. The creation time keeps its fraction, so that of two keys activating in one second the later one signs.
    package func sealed(with secret: ServerSecret, createdAt: Date, activatesAt: Date) throws -> SigningKeyRecord {
        SigningKeyRecord(
            id: id, algorithm: algorithm, sealedPrivateKey: try secret.seal(Array(pem.utf8), for: .signingKey), createdAt: createdAt,
            activatesAt: activatesAt.wholeSeconds)
    }
}
