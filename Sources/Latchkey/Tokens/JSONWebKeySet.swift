import Foundation

/// The public halves of the signing keys in JWKS form (RFC 7517), as served at `/.well-known/jwks.json`.
package struct JSONWebKeySet: Codable, Sendable, Equatable {
    /// One RSA public key.
    package struct Key: Codable, Sendable, Equatable {
        package var kty = "RSA"
        package var use = "sig"
        package var alg = "RS256"
        package var kid: String
        package var n: String
        package var e: String
    }

    package var keys: [Key]

    init(_ signingKeys: SigningKeys) throws {
        keys = try signingKeys.keys.map { key in
            let primitives = try key.privateKey.publicKey.getKeyPrimitives()
            return Key(kid: key.id, n: primitives.modulus.base64URLEncoded(), e: primitives.publicExponent.base64URLEncoded())
        }
    }
}
