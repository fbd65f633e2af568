import Crypto
import Foundation
import HummingbirdBcrypt

/// A password hash made by another system, kept until the user's first sign-in replaces it with this server's own:
/// the algorithm, its parameters, the hash and the user's salt.
///
/// The parameters are bounded by what Firebase produces, so that one check costs at most a few times a check of this
/// server's own bcrypt (about 0.2 s at the default cost 11) and a hostile configuration cannot make sign-ins eat the
/// server's memory or CPU: Firebase's `SCRYPT` within its own ranges (rounds 8 and memory cost 14, its projects'
/// parameters, mix 16 MiB); `STANDARD_SCRYPT` at most four times that (128 × N × r × p bytes mixed: 64 MiB, which
/// still takes scrypt's common N = 2^16, r = 8, p = 1); bcrypt at most cost 12, which frameworks choose at most by
/// default (each step doubles the time, and cost 14 took 1.5 s); PBKDF2 at most 120,000 HMAC blocks (iterations ×
/// output blocks; Firebase's own limit on iterations); digests at most 8,192 rounds (Firebase's limit); keys, salts
/// and hashes at most 1 KiB. A derived hash must be at least 16 bytes, so that a wrong password never matches by
/// chance. Decoding a stored record checks all of this again: a hash imported under looser bounds opens nothing, and
/// its owner resets the password.
package struct ImportedPasswordHash: Codable, Sendable, Equatable {
    package let algorithm: PasswordHashAlgorithm
    package let parameters: PasswordHashParameters
    package let hash: Data
    package let salt: Data

    private enum CodingKeys: String, CodingKey {
        case algorithm, parameters, hash, salt
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            algorithm: try container.decode(PasswordHashAlgorithm.self, forKey: .algorithm),
            parameters: try container.decode(PasswordHashParameters.self, forKey: .parameters),
            hash: try container.decode(Data.self, forKey: .hash), salt: try container.decode(Data.self, forKey: .salt))
    }

    /// Why a hash or its configuration cannot be imported, in words for the operator.
    package struct Invalid: Error, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    static let maximumBytes = 1024
    /// Bytes scrypt mixes in one check (128 × N × r × p): four times Firebase's own `SCRYPT` at its maximum.
    static let maximumScryptWork: UInt64 = 64 << 20
    static let maximumPBKDF2Iterations = 120_000
    static let maximumDigestRounds = 8192
    static let maximumBcryptCost = 12
    static let shortestDerivedHash = 16

    /// Checks the configuration and the user's hash and salt against the algorithm's rules and the bounds above.
    package init(algorithm: PasswordHashAlgorithm, parameters: PasswordHashParameters, hash: Data, salt: Data) throws(Invalid) {
        try Self.check(algorithm, parameters)
        guard !hash.isEmpty, hash.count <= Self.maximumBytes else { throw Invalid("passwordHash: 1 to \(Self.maximumBytes) bytes") }
        guard salt.count <= Self.maximumBytes else { throw Invalid("salt: at most \(Self.maximumBytes) bytes") }
        if algorithm != .bcrypt, Self.looksLikeBcrypt(hash) {
            throw Invalid(
                "passwordHash: looks like a BCRYPT hash ($2…), not \(algorithm.rawValue): one import takes one hash configuration, "
                    + "so import these users in a file of their own with hash algorithm BCRYPT")
        }
        var hash = hash
        switch algorithm {
        case .scrypt:
            // The hash is the signer key encrypted: as long as it.
            guard hash.count == parameters.signerKey?.count, hash.count >= Self.shortestDerivedHash else {
                throw Invalid("passwordHash: as long as signerKey, at least \(Self.shortestDerivedHash) bytes")
            }
        case .standardScrypt:
            guard hash.count == parameters.derivedKeyLength else { throw Invalid("passwordHash: dkLen bytes") }
        case .bcrypt:
            hash = try Self.bcrypt(hash)
        case .pbkdf2SHA256, .pbkdfSHA1:
            let blockSize = algorithm == .pbkdf2SHA256 ? 32 : 20
            guard hash.count >= Self.shortestDerivedHash else { throw Invalid("passwordHash: at least \(Self.shortestDerivedHash) bytes") }
            guard (parameters.rounds ?? 0) * ((hash.count + blockSize - 1) / blockSize) <= Self.maximumPBKDF2Iterations else {
                throw Invalid("rounds × hash blocks: at most \(Self.maximumPBKDF2Iterations)")
            }
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5, .sha512, .sha256, .sha1, .md5:
            break
        }
        self.algorithm = algorithm
        self.parameters = parameters
        self.hash = hash
        self.salt = salt
    }

    /// Whether `hash` is a complete bcrypt string (`$2a$`, `$2b$` or `$2y$`, cost, salt and hash: 60 characters),
    /// which no other algorithm's derived bytes are.
    static func looksLikeBcrypt(_ hash: Data) -> Bool {
        hash.count == 60 && ["$2a$", "$2b$", "$2y$"].contains { hash.starts(with: Data($0.utf8)) }
    }

    /// Checks an import's configuration alone, so that a hostile or mistaken one is refused before any user is read.
    package static func check(_ algorithm: PasswordHashAlgorithm, _ p: PasswordHashParameters) throws(Invalid) {
        switch algorithm {
        case .scrypt:
            try require(p.signerKey, "signerKey")
            guard (p.saltSeparator?.count ?? 0) <= maximumBytes else { throw Invalid("saltSeparator: at most \(maximumBytes) bytes") }
            try require(p.rounds, in: 1...8, "rounds")
            try require(p.memoryCost, in: 1...14, "memoryCost")
        case .standardScrypt:
            let n = try require(p.cpuMemCost, in: 2...(1 << 20), "cpuMemCost")
            guard n & (n - 1) == 0 else { throw Invalid("cpuMemCost: a power of two") }
            let r = try require(p.blockSize, in: 1...64, "blockSize")
            let parallel = try require(p.parallelization, in: 1...16, "parallelization")
            try require(p.derivedKeyLength, in: shortestDerivedHash...maximumBytes, "dkLen")
            guard 128 * UInt64(n) * UInt64(r) * UInt64(parallel) <= maximumScryptWork else {
                throw Invalid("cpuMemCost × blockSize × parallelization × 128 bytes: at most \(maximumScryptWork >> 20) MiB")
            }
            // OpenSSL's (and RFC 7914's) rule: N below 2^(16·r).
            guard r >= 4 || n < 1 << (16 * r) else { throw Invalid("cpuMemCost: below 2^(16 × blockSize)") }
        case .bcrypt:
            break
        case .pbkdf2SHA256, .pbkdfSHA1:
            try require(p.rounds, in: 1...maximumPBKDF2Iterations, "rounds")
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5:
            try require(p.signerKey, "signerKey")
        case .sha512, .sha256, .sha1, .md5:
            try require(p.rounds, in: 0...maximumDigestRounds, "rounds")
        }
    }

    /// Whether `password` is the one the hash was made from. CPU-bound by design: call it off the cooperative pool.
    package func matches(_ password: String) -> Bool {
        let password = Array(password.utf8)
        let salt = Array(salt)
        switch algorithm {
        case .bcrypt:
            // bcrypt reads up to a NUL and 72 bytes: a longer password could open with its prefix, so it opens nothing.
            guard password.count <= 72, !password.contains(0) else { return false }
            return Bcrypt.verify(String(decoding: password, as: UTF8.self), hash: String(decoding: hash, as: UTF8.self))
        case .scrypt, .standardScrypt, .pbkdf2SHA256, .pbkdfSHA1:
            return Self.equal(derive(password, salt: salt), hash)
        case .hmacSHA512, .hmacSHA256, .hmacSHA1, .hmacMD5, .sha512, .sha256, .sha1, .md5:
            // Unset, Firebase's default order is undocumented: either opens (a password that ends with the salt then has
            // a twin that starts with it; the hash is replaced at the first sign-in anyway). Both are always computed,
            // so that the time says nothing of which matched.
            let orders: [PasswordHashOrder] = parameters.order.map { [$0] } ?? [.saltAndPassword, .passwordAndSalt]
            return orders.map { order in Self.equal(digest(order == .saltAndPassword ? salt + password : password + salt), hash) }
                .contains(true)
        }
    }

    /// The key-derivation algorithms' output for `password`.
    private func derive(_ password: [UInt8], salt: [UInt8]) -> [UInt8]? {
        let p = parameters
        switch algorithm {
        case .scrypt:
            let memoryCost = UInt64(clamping: p.memoryCost ?? 0), rounds = UInt64(clamping: p.rounds ?? 0)
            let key = KeyDerivation.scrypt(
                password, salt: salt + Array(p.saltSeparator ?? Data()), n: 1 << memoryCost, r: rounds, p: 1, length: 32,
                maximumMemory: Self.maximumScryptWork * 2)
            return key.flatMap { KeyDerivation.aes256CTR(Array(p.signerKey ?? Data()), key: $0) }
        case .standardScrypt:
            return KeyDerivation.scrypt(
                password, salt: salt, n: UInt64(clamping: p.cpuMemCost ?? 0), r: UInt64(clamping: p.blockSize ?? 0),
                p: UInt64(clamping: p.parallelization ?? 0),
                length: p.derivedKeyLength ?? 0, maximumMemory: Self.maximumScryptWork * 2)
        case .pbkdf2SHA256:
            return KeyDerivation.pbkdf2(password, salt: salt, iterations: p.rounds ?? 0, digest: .sha256, length: hash.count)
        case .pbkdfSHA1:
            return KeyDerivation.pbkdf2(password, salt: salt, iterations: p.rounds ?? 0, digest: .sha1, length: hash.count)
        default:
            return nil
        }
    }

    /// The HMAC or digest algorithms' output for one input.
    private func digest(_ input: [UInt8]) -> [UInt8] {
        let key = SymmetricKey(data: parameters.signerKey ?? Data())
        switch algorithm {
        case .hmacSHA512: return Array(HMAC<SHA512>.authenticationCode(for: input, using: key))
        case .hmacSHA256: return Array(HMAC<SHA256>.authenticationCode(for: input, using: key))
        case .hmacSHA1: return Array(HMAC<Insecure.SHA1>.authenticationCode(for: input, using: key))
        case .hmacMD5: return Array(HMAC<Insecure.MD5>.authenticationCode(for: input, using: key))
        case .sha512: return Self.repeated(input, rounds: parameters.rounds) { Array(SHA512.hash(data: $0)) }
        case .sha256: return Self.repeated(input, rounds: parameters.rounds) { Array(SHA256.hash(data: $0)) }
        case .sha1: return Self.repeated(input, rounds: parameters.rounds) { Array(Insecure.SHA1.hash(data: $0)) }
        case .md5: return Self.repeated(input, rounds: parameters.rounds) { Array(Insecure.MD5.hash(data: $0)) }
        default: return []
        }
    }

    /// `hash` applied `rounds` times (at least once), each time to the previous output.
    private static func repeated(_ input: [UInt8], rounds: Int?, _ hash: ([UInt8]) -> [UInt8]) -> [UInt8] {
        var output = hash(input)
        for _ in 1..<max(rounds ?? 1, 1) { output = hash(output) }
        return output
    }

    /// Constant-time in the contents; a failed derivation, or nothing, matches nothing.
    private static func equal(_ computed: [UInt8]?, _ stored: Data) -> Bool {
        guard let computed, !stored.isEmpty, computed.count == stored.count else { return false }
        return zip(computed, stored).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A bcrypt string as the bcrypt library reads it: `$2a$` or `$2b$` (`$2y$`, PHP's name for `$2b$`, renamed), a
    /// two-digit cost from 04 to `maximumBcryptCost`, 60 ASCII bytes.
    private static func bcrypt(_ hash: Data) throws(Invalid) -> Data {
        let bytes = Array(hash)
        guard bytes.count == 60, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }),
              let prefix = String(bytes: bytes.prefix(4), encoding: .ascii), ["$2a$", "$2b$", "$2y$"].contains(prefix),
              bytes[6] == UInt8(ascii: "$"), let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
              bytes[4..<6].allSatisfy({ (0x30...0x39).contains($0) })
        else { throw Invalid("passwordHash: not a bcrypt hash ($2a$, $2b$ or $2y$)") }
        guard (4...maximumBcryptCost).contains(cost) else {
            throw Invalid("bcrypt cost \(cost): 4 to \(maximumBcryptCost) here, so that a check stays cheap")
        }
        return prefix == "$2y$" ? Data("$2b$".utf8) + hash.dropFirst(4) : hash
    }

    private static func require(_ bytes: Data?, _ name: String) throws(Invalid) {
        guard let bytes, (1...maximumBytes).contains(bytes.count) else { throw Invalid("\(name): required, 1 to \(maximumBytes) bytes") }
    }

    @discardableResult
    private static func require(_ value: Int?, in range: ClosedRange<Int>, _ name: String) throws(Invalid) -> Int {
        guard let value, range.contains(value) else { throw Invalid("\(name): required, \(range.lowerBound) to \(range.upperBound)") }
        return value
    }
}
