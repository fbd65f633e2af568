import Foundation
import JWTKit

/// A provider's published ID-token keys (its JWKS).
struct ProviderKeySet: Sendable {
    /// The keys that can verify a signature, each with an id: a key published without one gets `#index`, so that a
    /// token without `kid` can still be tried against it.
    let keys: [JWK]

    init(document: Data) throws(ProviderFailure) {
        guard let set = try? JSONDecoder().decode(JWKS.self, from: document) else { throw .invalidResponse("keys failed: not a JWK set") }
        keys = set.keys.enumerated().compactMap { index, key in
            guard key.keyType == .rsa || key.keyType == .ecdsa else { return nil }
            var key = key
            if key.keyIdentifier == nil { key.keyIdentifier = JWKIdentifier(string: "#\(index)") }
            return key
        }
    }

    func contains(_ kid: String) -> Bool {
        keys.contains { $0.keyIdentifier?.string == kid }
    }

    /// The keys to try for a token signed with `algorithm`: the one `kid` names, or without `kid` every key of the
    /// algorithm's type (some providers sign without naming the key).
    func candidates(kid: String?, algorithm: String) -> [JWK] {
        if let kid { return keys.filter { $0.keyIdentifier?.string == kid } }
        let type: JWK.KeyType = algorithm.hasPrefix("ES") ? .ecdsa : .rsa
        return keys.filter { $0.keyType == type }
    }
}
