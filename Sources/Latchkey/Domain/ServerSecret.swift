import Crypto
import Foundation

/// The one secret behind every keyed hash and sealed outbox message.
///
/// Each use gets its own key derived with HKDF, so a hash of a link code can never be replayed as a
/// refresh-token hash, and the sealing key is never used for hashing.
package struct ServerSecret: Sendable {
    /// What a stored hash is of.
    package enum HashPurpose: Sendable {
        case linkCode
        case refreshToken
        /// An email address or IP address counted by a rate limit: counters name no one in clear.
        case rateLimitSubject
    }

    /// The HKDF `info` of each derived key.
    private enum KeyInfo: String {
        case linkCode = "latchkey link code v1"
        case refreshToken = "latchkey refresh token v1"
        case outboxSealing = "latchkey outbox sealing v1"
        case rateLimitSubject = "latchkey rate limit subject v1"
    }

    private let linkCodeKey: SymmetricKey
    private let refreshTokenKey: SymmetricKey
    private let sealingKey: SymmetricKey
    private let rateLimitKey: SymmetricKey

    /// - Parameter material: at least 32 bytes of secret material.
    package init(material: some DataProtocol) {
        let master = SymmetricKey(data: Data(material))
        func derive(_ purpose: KeyInfo) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data(purpose.rawValue.utf8), outputByteCount: 32)
        }
        linkCodeKey = derive(.linkCode)
        refreshTokenKey = derive(.refreshToken)
        sealingKey = derive(.outboxSealing)
        rateLimitKey = derive(.rateLimitSubject)
    }

    /// The keyed hash stored in place of a code or token.
    package func hash(_ token: String, for purpose: HashPurpose) -> Data {
        let key =
            switch purpose {
            case .linkCode: linkCodeKey
            case .refreshToken: refreshTokenKey
            case .rateLimitSubject: rateLimitKey
            }
        return Data(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: key))
    }

    /// Encrypts a queued message, which holds a live sign-in link, for its time in the database.
    package func seal(_ plaintext: [UInt8]) throws -> Data {
        try ChaChaPoly.seal(plaintext, using: sealingKey).combined
    }

    /// Decrypts what `seal` produced; throws when it was tampered with or sealed under another secret.
    package func open(_ sealed: Data) throws -> Data {
        try ChaChaPoly.open(ChaChaPoly.SealedBox(combined: sealed), using: sealingKey)
    }

    /// A fresh URL-safe token carrying `bytes` bytes from the system CSPRNG (43 characters for 32 bytes).
    package static func makeToken(bytes: Int = 32) -> String {
        randomBytes(bytes).base64URLEncoded()
    }

    /// `count` bytes from the system CSPRNG, eight per draw (each draw is a `getrandom` call on Linux).
    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = Data(capacity: count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        return bytes.prefix(count)
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5), as used in links and JWTs.
    package func base64URLEncoded() -> String {
        var output: [UInt8] = []
        output.reserveCapacity(count * 4 / 3 + 3)
        for byte in base64EncodedData() {
            switch byte {
            case UInt8(ascii: "+"): output.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): output.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
