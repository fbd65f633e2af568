import Foundation

/// The public halves of the signing keys in JWKS form (RFC 7517), as served at `/.well-known/jwks.json`.
package struct JSONWebKeySet: Codable, Sendable, Equatable {
    /// One public key: RSA (`n`, `e`) or P-256 (`crv`, `x`, `y`); absent members are omitted.
    package struct Key: Codable, Sendable, Equatable {
        package var kty: String
        package var use = "sig"
        package var alg: String
        package var kid: String
        package var n: String?
        package var e: String?
        package var crv: String?
        package var x: String?
        package var y: String?
    }

    package var keys: [Key]
}

extension JSONWebKeySet.Key {
    /// The public half of `key`.
    init(publicHalfOf key: SigningKey) throws {
        switch key.material {
        case .rsa(let rsa):
            let primitives = try rsa.publicKey.getKeyPrimitives()
            self.init(
                kty: "RSA", alg: "RS256", kid: key.id, n: primitives.modulus.base64URLEncoded(), e: primitives.publicExponent.base64URLEncoded())
        case .p256(let p256):
            guard let point = p256.parameters else { throw SigningKey.Failure(description: "key \(key.id) has no public point") }
            self.init(kty: "EC", alg: "ES256", kid: key.id, crv: "P-256", x: point.x, y: point.y)
        }
    }
}
