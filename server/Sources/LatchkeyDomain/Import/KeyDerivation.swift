import COpenSSL
import Foundation

/// The key-derivation functions imported password hashes need, from the system's OpenSSL 3: never hand-written.
/// Each answers `nil` when OpenSSL refuses its parameters (callers bound them first).
enum KeyDerivation {
    /// RFC 7914 scrypt; `maximumMemory` bounds what OpenSSL may allocate.
    static func scrypt(_ password: [UInt8], salt: [UInt8], n: UInt64, r: UInt64, p: UInt64, length: Int, maximumMemory: UInt64) -> [UInt8]? {
        guard length > 0 else { return nil }
        var key = [UInt8](repeating: 0, count: length)
        let done = EVP_PBE_scrypt(
            password.map { CChar(bitPattern: $0) }, password.count, salt, salt.count, n, r, p, maximumMemory, &key, length)
        return done == 1 ? key : nil
    }

    enum Digest {
        case sha1, sha256

        var evp: OpaquePointer? {
            switch self {
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            }
        }
    }

    /// RFC 8018 PBKDF2 with HMAC over `digest`.
    static func pbkdf2(_ password: [UInt8], salt: [UInt8], iterations: Int, digest: Digest, length: Int) -> [UInt8]? {
        guard length > 0, let passwordLength = Int32(exactly: password.count), let saltLength = Int32(exactly: salt.count),
              let iterationCount = Int32(exactly: iterations), iterationCount > 0, let keyLength = Int32(exactly: length)
        else { return nil }
        var key = [UInt8](repeating: 0, count: length)
        let done = PKCS5_PBKDF2_HMAC(
            password.map { CChar(bitPattern: $0) }, passwordLength, salt, saltLength, iterationCount, digest.evp, keyLength, &key)
        return done == 1 ? key : nil
    }

    /// AES-256 in counter mode from a zero counter block, as Firebase's scrypt encrypts its signer key.
    static func aes256CTR(_ plaintext: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard key.count == 32, let plaintextLength = Int32(exactly: plaintext.count), let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        let counter = [UInt8](repeating: 0, count: 16)
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var final: Int32 = 0
        guard EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, key, counter) == 1,
              EVP_EncryptUpdate(context, &output, &written, plaintext, plaintextLength) == 1,
              output.withUnsafeMutableBufferPointer({ EVP_EncryptFinal_ex(context, $0.baseAddress.map { $0 + Int(written) }, &final) }) == 1
        else { return nil }
        return Array(output.prefix(Int(written + final)))
    }
}
