import Crypto
import Foundation
import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// Hashes and checks passwords with bcrypt, off the event loops and the cooperative pool (a hash takes
/// tens of milliseconds by design).
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
    /// A hash of a random password at the same cost, made on first use.
    private let decoy = Mutex<String?>(nil)

    package init(cost: Int, secret: ServerSecret) {
        self.cost = UInt8(clamping: cost)
        self.secret = secret
    }

    /// Spends the time of one real check, so that "no such account" cannot be told from "wrong password" by timing.
    package func verifyDecoy(_ password: String) async throws {
        let hash: String
        if let cached = decoy.withLock({ $0 }) {
            hash = cached
        } else {
            hash = try await self.hash(ServerSecret.makeToken())
            decoy.withLock { $0 = hash }
        }
        _ = try await verify(password, against: hash)
    }

    package func hash(_ password: String) async throws -> String {
        let cost = cost
        guard Self.fitsBcrypt(password) else {
            let input = Self.prehashed(password)
            return try await NIOThreadPool.singleton.runIfActive { Self.prehashedPrefix + Bcrypt.hash(input, cost: cost) }
        }
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// What the store keeps for an imported hash: sealed, so that its signer key is never readable at rest.
    package func stored(_ imported: ImportedPasswordHash) throws -> String {
        Self.importedPrefix + (try secret.seal(Array(try JSONEncoder().encode(imported)), for: .importedPassword)).base64EncodedString()
    }

    /// Whether `password` is exactly the one `hash` was made from.
    package func verify(_ password: String, against hash: String) async throws -> Bool {
        if hash.hasPrefix(Self.importedPrefix) {
            // A hash this server cannot open (another server secret) opens nothing; the user resets the password.
            let imported = Data(base64Encoded: String(hash.dropFirst(Self.importedPrefix.count)))
                .flatMap { try? secret.open($0, for: .importedPassword) }
                .flatMap { try? JSONDecoder().decode(ImportedPasswordHash.self, from: $0) }
            var matched = false
            if let imported { matched = try await NIOThreadPool.singleton.runIfActive { imported.matches(password) } }
            // A digest takes microseconds: with the decoy's bcrypt an imported account answers no sooner than any other,
            // so that enumeration protection does not give away which accounts were imported.
            try await verifyDecoy(password)
            return matched
        }
        let (input, stored): (String, String)
        if hash.hasPrefix(Self.prehashedPrefix) {
            (input, stored) = (Self.prehashed(password), String(hash.dropFirst(Self.prehashedPrefix.count)))
        } else if Self.fitsBcrypt(password) {
            (input, stored) = (password, hash)
        } else {
            // A plain hash cannot tell this password from its truncation: refuse it, after the same work as a check.
            (input, stored) = (Self.prehashed(password), hash)
            _ = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: stored) }
            return false
        }
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(input, hash: stored) }
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

    /// Checks a new password before any hashing work is spent.
    package static func validate(_ password: String?) throws(SignInError) -> String {
        guard let password, !password.isEmpty else { throw .missingPassword }
        guard password.count >= minimumLength else { throw .weakPassword }
        guard password.utf8.count <= maximumLength else { throw .passwordTooLong }
        // A NUL or a line break in a password is a mistake or an attack, and some clients could never type it again.
        guard !password.containsControlCharacters else { throw .passwordHasControlCharacters }
        return password
    }
}
