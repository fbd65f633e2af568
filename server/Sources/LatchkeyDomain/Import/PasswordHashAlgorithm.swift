import Foundation

/// The hash algorithms of Firebase's `accounts:batchCreate` (`hashAlgorithm`) that this server can check, each with
/// the parameters Firebase takes for it. `ARGON2` is refused: the system's OpenSSL 3.0 has no Argon2.
package enum PasswordHashAlgorithm: String, Codable, Sendable, CaseIterable {
    /// Firebase's own modified scrypt (`signerKey`, `saltSeparator`, `rounds`, `memoryCost`).
    case scrypt = "SCRYPT"
    /// RFC 7914 scrypt (`cpuMemCost`, `blockSize`, `parallelization`, `dkLen`).
    case standardScrypt = "STANDARD_SCRYPT"
    /// A complete `$2a$`/`$2b$`/`$2y$` bcrypt string as the hash.
    case bcrypt = "BCRYPT"
    /// PBKDF2 with HMAC-SHA256 or HMAC-SHA1 (`rounds` iterations, the hash's length).
    case pbkdf2SHA256 = "PBKDF2_SHA256"
    case pbkdfSHA1 = "PBKDF_SHA1"
    /// HMAC keyed with `signerKey` over the salt and the password.
    case hmacSHA512 = "HMAC_SHA512"
    case hmacSHA256 = "HMAC_SHA256"
    case hmacSHA1 = "HMAC_SHA1"
    case hmacMD5 = "HMAC_MD5"
    /// A digest of the salt and the password, applied `rounds` times.
    case sha512 = "SHA512"
    case sha256 = "SHA256"
    case sha1 = "SHA1"
    case md5 = "MD5"
}

/// Which comes first in the input of the HMAC and digest algorithms (Firebase's `passwordHashOrder`).
package enum PasswordHashOrder: String, Codable, Sendable {
    case saltAndPassword = "SALT_AND_PASSWORD"
    case passwordAndSalt = "PASSWORD_AND_SALT"
}

/// The parameters of one import's hash algorithm, as `accounts:batchCreate` takes them (byte fields decoded).
package struct PasswordHashParameters: Codable, Sendable, Equatable {
    package var signerKey: Data?
    package var saltSeparator: Data?
    package var rounds: Int?
    package var memoryCost: Int?
    package var cpuMemCost: Int?
    package var blockSize: Int?
    package var parallelization: Int?
    package var derivedKeyLength: Int?
    /// Unset, a password matching in either order is accepted: Firebase does not document its default.
    package var order: PasswordHashOrder?

    package init(
        signerKey: Data? = nil, saltSeparator: Data? = nil, rounds: Int? = nil, memoryCost: Int? = nil, cpuMemCost: Int? = nil,
        blockSize: Int? = nil, parallelization: Int? = nil, derivedKeyLength: Int? = nil, order: PasswordHashOrder? = nil
    ) {
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.cpuMemCost = cpuMemCost
        self.blockSize = blockSize
        self.parallelization = parallelization
        self.derivedKeyLength = derivedKeyLength
        self.order = order
    }
}

/// An import's hash algorithm with its parameters, checked against the bounds of `ImportedPasswordHash`.
package struct PasswordHashConfig: Sendable, Equatable {
    package let algorithm: PasswordHashAlgorithm
    package let parameters: PasswordHashParameters

    package init(algorithm: PasswordHashAlgorithm, parameters: PasswordHashParameters) throws(ImportedPasswordHash.Invalid) {
        try ImportedPasswordHash.check(algorithm, parameters)
        self.algorithm = algorithm
        self.parameters = parameters
    }
}
