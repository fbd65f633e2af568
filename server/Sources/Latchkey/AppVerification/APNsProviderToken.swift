import Crypto
import Foundation
import LatchkeyDomain
import Synchronization

/// The provider authentication token APNs asks of every push (token-based connection trust): an ES256 JWT whose header
/// names the key (`kid`) and whose claims are the team (`iss`) and the time it was made (`iat`).
///
/// APNs refuses a token older than an hour and one renewed more often than every 20 minutes
/// (`TooManyProviderTokenUpdates`), so one token serves every push for 50 minutes, then the next push makes another.
final class APNsProviderToken: Sendable {
    static let lifetime: TimeInterval = 50 * 60

    private let keyID: String
    private let teamID: String
    private let key: P256.Signing.PrivateKey
    private let clock: any WallClock
    private let current = Mutex<(token: String, madeAt: Date)?>(nil)

    init(keyID: String, teamID: String, key: P256.Signing.PrivateKey, clock: any WallClock) {
        self.keyID = keyID
        self.teamID = teamID
        self.key = key
        self.clock = clock
    }

    /// The token to send now: the current one while it is younger than `lifetime`, else a new one.
    func token() throws -> String {
        let now = clock.now
        if let current = current.withLock({ $0 }), now.timeIntervalSince(current.madeAt) < Self.lifetime, now >= current.madeAt {
            return current.token
        }
        let token = try make(at: now)
        current.withLock { $0 = (token, now) }
        return token
    }

    /// Drops the current token, which APNs refused (`ExpiredProviderToken`, `InvalidProviderToken`), so that the next
    /// push makes another rather than sending it until its time is up.
    func discard() {
        current.withLock { $0 = nil }
    }

    private func make(at now: Date) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "kid": keyID], options: [.sortedKeys])
        let claims = try JSONSerialization.data(withJSONObject: ["iss": teamID, "iat": Int(now.timeIntervalSince1970)], options: [.sortedKeys])
        let signingInput = header.base64URLEncoded() + "." + claims.base64URLEncoded()
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncoded()
    }
}
