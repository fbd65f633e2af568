import COpenSSL

/// An RSA private key in the system's OpenSSL, which signs RS256 about twice as fast as the BoringSSL bundled
/// with swift-crypto on the machines Latchkey is measured on (see BENCHMARKS.md).
///
/// `@unchecked Sendable`: the key is never changed after loading, and OpenSSL 3 allows concurrent signing with
/// one `EVP_PKEY`; each signature gets its own digest context.
final class OpenSSLRSAKey: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String

        /// `what`, with OpenSSL's own reason; empties this thread's error queue, which libcurl shares.
        init(_ what: String) {
            let code = ERR_get_error()
            var reason = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &reason, reason.count)
            ERR_clear_error()
            let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            description = code == 0 ? what : "\(what): \(text)"
        }
    }

    private let key: OpaquePointer

    /// Reads a PEM private key; throws unless it is an RSA key.
    init(pem: String) throws {
        let loaded = pem.withCString { text -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(text, -1) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let loaded else { throw Failure("OpenSSL could not read the private key") }
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_RSA else {
            EVP_PKEY_free(loaded)
            throw Failure("the private key is not an RSA key")
        }
        key = loaded
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// RSASSA-PKCS1-v1_5 with SHA-256 of `message`: the signature of a JWS with `alg` RS256 (RFC 7518 §3.3).
    func signSHA256(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw Failure("OpenSSL could not allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1,
            EVP_DigestSign(context, nil, &length, message, message.count) == 1
        else { throw Failure("OpenSSL could not start an RS256 signature") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw Failure("OpenSSL could not sign")
        }
        return Array(signature.prefix(length))
    }
}
