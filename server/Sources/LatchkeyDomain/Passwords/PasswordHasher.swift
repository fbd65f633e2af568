import Crypto
import Foundation
import HummingbirdBcrypt
import Synchronization

/// Hashes and checks passwords with bcrypt, off the event loops and the cooperative pool (a hash takes
/// tens of milliseconds by design), through a bounded line (`PasswordHashingQueue`): when it is full, or one address
/// already has its share of checks, the request is refused with `PasswordHashingBusy` before anything is changed.
///
/// bcrypt reads its input up to the first NUL byte and at most 72 bytes. A password it reads whole (at most 72 UTF-8
/// bytes; new passwords have no control characters) is hashed as it is: standard bcrypt, which any other system, Firebase's
/// `BCRYPT` import among them, can check, so `latchkey export` hands passwords on intact. A longer one is hashed as the
/// base64 SHA-256 of its exact bytes, marked with `prehashedPrefix`, so that every byte counts. A check compares
/// exactly: a password bcrypt would cut never opens a plain hash. Hashes imported from another system
/// (`ImportedPasswordHash`, sealed under the server secret with their parameters), pre-hashes of passwords that fit, and
/// hashes of a lower cost are replaced at the next sign-in (`needsRehash`).
package final class PasswordHasher: Sendable {
    /// Firebase's rule, and its message.
    package static let minimumLength = 6
    /// Firebase's longest password policy; the pre-hash makes every byte count, however many.
    package static let maximumLength = 4096
    /// The most bcrypt reads of a password.
    static let directBcryptLimit = 72
    static let prehashedPrefix = "sha256-bcrypt:"
    static let importedPrefix = "imported-v1:"

    let cost: UInt8
    let secret: ServerSecret
    private let queue: PasswordHashingQueue
    /// A hash of a random password at the same cost, made on first use.
    private let decoy = Mutex<String?>(nil)

    package init(cost: Int, secret: ServerSecret, limits: PasswordHashingLimits = PasswordHashingLimits()) {
        self.cost = UInt8(clamping: cost)
        self.secret = secret
        self.queue = PasswordHashingQueue(limits: limits)
    }

    /// Spends the time of one real check, so that "no such account" cannot be told from "wrong password" by timing, and
    /// takes the same place in the line as a check of `address`'s password would.
    package func verifyDecoy(_ password: String, for address: EmailAddress? = nil) async throws {
        _ = try await queue.run(for: address?.value) { self.check(password, against: self.decoyHash()) }
    }

    package func hash(_ password: String) async throws -> String {
        let cost = cost
        guard Self.fitsBcrypt(password) else {
            let input = Self.prehashed(password)
            return try await queue.run(for: nil) { Self.prehashedPrefix + Bcrypt.hash(input, cost: cost) }
        }
        return try await queue.run(for: nil) { Bcrypt.hash(password, cost: cost) }
    }

    /// What the store keeps for an imported hash: sealed, so that its signer key is never readable at rest.
    package func stored(_ imported: ImportedPasswordHash) throws -> String {
        Self.importedPrefix + (try secret.seal(Array(try JSONEncoder().encode(imported)), for: .importedPassword)).base64EncodedString()
    }

    /// Whether `password` is exactly the one `hash` was made from; `address`, the account's, bounds how many checks of
    /// one account's password take places in the line at once.
    package func verify(_ password: String, against hash: String, for address: EmailAddress? = nil) async throws -> Bool {
        try await queue.run(for: address?.value) { self.check(password, against: hash) }
    }

    /// The check itself, on a thread of the pool.
    private func check(_ password: String, against hash: String) -> Bool {
        if hash.hasPrefix(Self.importedPrefix) {
            // A hash this server cannot open (another server secret) opens nothing; the user resets the password.
            let imported = Data(base64Encoded: String(hash.dropFirst(Self.importedPrefix.count)))
                .flatMap { try? secret.open($0, for: .importedPassword) }
                .flatMap { try? JSONDecoder().decode(ImportedPasswordHash.self, from: $0) }
            let matched = imported?.matches(password) ?? false
            // A digest takes microseconds: with the decoy's bcrypt an imported account answers no sooner than any other,
            // so that enumeration protection does not give away which accounts were imported.
            _ = check(password, against: decoyHash())
            return matched
        }
        if hash.hasPrefix(Self.prehashedPrefix) {
            return Bcrypt.verify(Self.prehashed(password), hash: String(hash.dropFirst(Self.prehashedPrefix.count)))
        }
        guard Self.fitsBcrypt(password) else {
            // A plain hash cannot tell this password from its truncation: refuse it, after the same work as a check.
            _ = Bcrypt.verify(Self.prehashed(password), hash: hash)
            return false
        }
        return Bcrypt.verify(password, hash: hash)
    }

    /// The decoy's hash, made on the pool's thread the first time (two first checks at once may each make one).
    private func decoyHash() -> String {
        if let cached = decoy.withLock({ $0 }) { return cached }
        let made = Bcrypt.hash(ServerSecret.makeToken(), cost: cost)
        return decoy.withLock { cached in
            if cached == nil { cached = made }
            return cached ?? made
        }
    }

    /// Whether `hash`, just opened by `password`, should be replaced by a hash made now: an imported one (used at most
    /// once), a pre-hash of a password plain bcrypt reads whole, or one of a lower cost than this server's.
    package func needsRehash(_ hash: String, password: String) -> Bool {
        if hash.hasPrefix(Self.importedPrefix) { return true }
        if hash.hasPrefix(Self.prehashedPrefix), Self.fitsBcrypt(password) { return true }
        let bcrypt = hash.hasPrefix(Self.prehashedPrefix) ? Substring(hash.dropFirst(Self.prehashedPrefix.count)) : Substring(hash)
        // `$2b$11$…`: the cost is the two digits after the version.
        guard let hashCost = Int(bcrypt.dropFirst(4).prefix(2)) else { return true }
        return hashCost < Int(cost)
    }

    /// Whether bcrypt reads all of `password`: no NUL, at most 72 bytes.
    static func fitsBcrypt(_ password: String) -> Bool {
        password.utf8.count <= directBcryptLimit && !password.utf8.contains(0)
    }

    /// 44 base64 characters: never a NUL, always under bcrypt's 72 bytes.
    private static func prehashed(_ password: String) -> String {
        Data(SHA256.hash(data: Data(password.utf8))).base64EncodedString()
    }

    /// Checks a new password before any hashing work is spent: against `policy` when it is enforced (which answers as
    /// Firebase does, with every requirement missed, before the rules every password keeps), then against those.
    package static func validate(_ password: String?, policy: PasswordPolicy) throws(SignInError) -> String {
        guard let password, !password.isEmpty else { throw .missingPassword }
        try policy.check(password)
        guard password.count >= minimumLength else { throw .weakPassword }
        guard password.utf8.count <= maximumLength else { throw .passwordTooLong }
        // A NUL or a line break in a password is a mistake or an attack, and some clients could never type it again.
        guard !password.containsControlCharacters else { throw .passwordHasControlCharacters }
        return password
    }
}
