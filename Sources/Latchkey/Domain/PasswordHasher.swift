import HummingbirdBcrypt
import NIOPosix
import Synchronization

/// Hashes and checks passwords with bcrypt, off the event loops and the cooperative pool (a hash takes
/// tens of milliseconds by design).
package final class PasswordHasher: Sendable {
    /// Firebase's rule, and its message.
    package static let minimumLength = 6
    /// bcrypt reads at most 72 bytes; longer passwords would silently share a hash with their prefix.
    package static let maximumLength = 72

    let cost: UInt8
    /// A hash of a random password at the same cost, made on first use.
    private let decoy = Mutex<String?>(nil)

    package init(cost: Int) {
        self.cost = UInt8(clamping: cost)
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
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    package func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }

    /// Checks length rules before any hashing work is spent.
    package static func validate(_ password: String?) throws(SignInError) -> String {
        guard let password, !password.isEmpty else { throw .missingPassword }
        guard password.count >= minimumLength else { throw .weakPassword }
        guard password.utf8.count <= maximumLength else { throw .passwordTooLong }
        return password
    }
}
