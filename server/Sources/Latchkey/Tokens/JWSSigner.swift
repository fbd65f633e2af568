import Crypto
import Foundation

/// Signs compact JWS tokens (RFC 7515) with one key: RS256 through the system's OpenSSL, ES256 through swift-crypto.
///
/// jwt-kit verifies tokens; signing here skips its key-collection actor and gives RS256 the faster RSA. The
/// payload is encoded as jwt-kit encodes it (dates as seconds since 1970), so tokens are the same either way.
struct JWSSigner: Sendable {
    private enum Key: Sendable {
        case rsa(OpenSSLRSAKey)
        case p256(P256.Signing.PrivateKey)
    }

    private let key: Key
    /// `base64url(header) + "."`, the same for every token of this key.
    private let signingInputPrefix: [UInt8]

    init(_ key: SigningKey) throws {
        switch key.algorithm {
        case .rs256: self.key = .rsa(try OpenSSLRSAKey(pem: key.pem))
        case .es256: self.key = .p256(try P256.Signing.PrivateKey(pemRepresentation: key.pem))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = try encoder.encode(["alg": key.algorithm.rawValue, "kid": key.id, "typ": "JWT"])
        signingInputPrefix = Array((header.base64URLEncoded() + ".").utf8)
    }

    func sign(_ payload: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let signingInput = signingInputPrefix + Array(try encoder.encode(payload).base64URLEncoded().utf8)
        let signature =
            switch key {
            case .rsa(let rsa): Data(try rsa.signSHA256(signingInput))
            // JWS wants the raw r || s, 64 bytes, not DER (RFC 7518 §3.4).
            case .p256(let p256): try p256.signature(for: signingInput).rawRepresentation
            }
        return String(decoding: signingInput, as: UTF8.self) + "." + signature.base64URLEncoded()
    }
}
