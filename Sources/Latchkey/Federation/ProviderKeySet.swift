import Foundation
import JWTKit

/// A provider's published ID-token keys (its JWKS), each parsed once into a key collection that verifies with it.
struct ProviderKeySet: Sendable {
    struct Key: Sendable {
        /// The key's `kid`, or `#index` for a key published without one, so that a token without `kid` can still be
        /// tried against it.
        let id: String
        let type: JWK.KeyType
        let verifier: JWTKeyCollection
    }

    let keys: [Key]

    /// Reads a JWKS document; keys of other types than RSA and EC, and keys JWTKit cannot read, are left out.
    init(document: Data) async throws(ProviderFailure) {
        guard let set = try? JSONDecoder().decode(JWKS.self, from: document) else { throw .invalidResponse("keys failed: not a JWK set") }
        var keys: [Key] = []
        for (index, jwk) in set.keys.enumerated() where jwk.keyType == .rsa || jwk.keyType == .ecdsa {
            let verifier = JWTKeyCollection()
            guard (try? await verifier.add(jwk: jwk)) != nil else { continue }
            keys.append(Key(id: jwk.keyIdentifier?.string ?? "#\(index)", type: jwk.keyType, verifier: verifier))
        }
        self.keys = keys
    }

    func contains(_ kid: String) -> Bool {
        keys.contains { $0.id == kid }
    }

    /// The keys to try for a token signed with `algorithm`: the one `kid` names, or without `kid` every key of the
    /// algorithm's type (some providers sign without naming the key).
    func candidates(kid: String?, algorithm: String) -> [Key] {
        if let kid { return keys.filter { $0.id == kid } }
        let type: JWK.KeyType = algorithm.hasPrefix("ES") ? .ecdsa : .rsa
        return keys.filter { $0.type == type }
    }
}
