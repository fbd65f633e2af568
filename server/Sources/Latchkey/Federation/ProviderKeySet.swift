import Foundation
import JWTKit

/// A provider's published ID-token keys (its JWKS), or a service account's (its JWKS, Google's x509 metadata, or the
/// PEMs configured for it), each parsed once into a key collection that verifies with it.
package struct ProviderKeySet: Sendable {
    package struct Key: Sendable {
        /// The key's `kid`, or `#index` for a key published without one, so that a token without `kid` can still be
        /// tried against it.
        package let id: String
        let type: JWK.KeyType
        let verifier: JWTKeyCollection
    }

    package let keys: [Key]

    /// Reads a JWKS document key by key: a key of another type than RSA and EC (a symmetric `oct` one, say), and a key
    /// JWTKit cannot read, is left out without losing the others. A key without `kid` is kept under `#index` (JWTKit
    /// refuses a key without one, so it is given that id to read it).
    package init(document: Data) async throws(ProviderFailure) {
        guard let set = (try? JSONSerialization.jsonObject(with: document)) as? [String: Any] else {
            throw .invalidResponse("keys failed: not a JWK set")
        }
        guard let entries = set["keys"] as? [Any] else {
            // Google's x509 metadata of a service account: `{kid: certificate}`.
            guard let certificates = set as? [String: String] else { throw .invalidResponse("keys failed: not a JWK set") }
            self = await ProviderKeySet(pems: certificates.sorted { $0.key < $1.key }.map { (id: $0.key, pem: $0.value) })
            // An error body of strings (`{"error": …}`) holds no certificate: not a key set to keep.
            guard !keys.isEmpty else { throw .invalidResponse("keys failed: not a JWK set") }
            return
        }
        var keys: [Key] = []
        for (index, entry) in entries.enumerated() {
            guard var fields = entry as? [String: Any], ["RSA", "EC"].contains(fields["kty"] as? String) else { continue }
            let id = fields["kid"] as? String ?? "#\(index)"
            fields["kid"] = id
            guard let data = try? JSONSerialization.data(withJSONObject: fields), let jwk = try? JSONDecoder().decode(JWK.self, from: data) else {
                continue
            }
            let verifier = JWTKeyCollection()
            guard (try? await verifier.add(jwk: jwk)) != nil else { continue }
            keys.append(Key(id: id, type: jwk.keyType, verifier: verifier))
        }
        self.keys = keys
    }

    /// RSA public keys or X.509 certificates in PEM, each under its id; one JWTKit cannot read as RSA is left out.
    package init(pems: [(id: String, pem: String)]) async {
        var keys: [Key] = []
        for entry in pems {
            guard let key = Self.rsaKey(pem: entry.pem) else { continue }
            // Added without a `kid`, so that it verifies whatever the token names: `candidates` chooses the keys to try.
            keys.append(Key(id: entry.id, type: .rsa, verifier: await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256)))
        }
        self.keys = keys
    }

    /// An RSA public key, or the one an X.509 certificate holds.
    package static func rsaKey(pem: String) -> Insecure.RSA.PublicKey? {
        (try? Insecure.RSA.PublicKey(pem: pem)) ?? (try? Insecure.RSA.PublicKey(certificatePEM: pem))
    }

    func contains(_ kid: String) -> Bool {
        keys.contains { $0.id == kid }
    }

    /// The keys to try for a token signed with `algorithm`: the one `kid` names, or without `kid` every key of the
    /// algorithm's type (some providers sign without naming the key).
    package func candidates(kid: String?, algorithm: String) -> [Key] {
        if let kid { return keys.filter { $0.id == kid } }
        let type: JWK.KeyType = algorithm.hasPrefix("ES") ? .ecdsa : .rsa
        return keys.filter { $0.type == type }
    }
}
