import Foundation
import LatchkeyDomain

/// When each signing key signs and how long it is published: rotation's rules, as a function of the stored keys alone,
/// so that every instance (and `latchkey keys list`) reaches the same answer without talking to the others.
///
/// Keys take turns in the order of their activation, whatever their algorithm: the latest one activated signs, on every
/// instance at the same moment, so that a rotation from RS256 to ES256 (or back) is a rotation like any other and
/// needs no instance's configuration to change in step. A key is published from the moment it is stored (pending until
/// it activates), and after its successor activates (retired) for as long as a token or session cookie it signed may
/// live, then no more. A key whose successor has not activated, or which has none, stays published.
///
/// `tokens.algorithm` only says what `latchkey init` and `latchkey keys rotate` create; an instance whose setting
/// differs from the newest key's algorithm says so at start-up (`newestKey(unlike:)`), and signs as the others do.
package struct SigningKeySchedule: Sendable {
    /// How long a retired key stays published after its successor activates: as long as anything it signed may live,
    /// the longest session cookie (fourteen days, `SessionCookies.validDurations`) or the longest ID token lifetime
    /// `tokens.idTokenLifetimeSeconds` allows (not the configured one, which each instance reads for itself and may have
    /// been longer when the key signed), whichever is longer.
    package static let retirementGrace = TimeInterval(
        max(TokenConfiguration.longestIDTokenLifetimeSeconds, Int(SessionCookies.validDurations.upperBound)))

    /// Where one key stands at a moment.
    package enum State: String, Sendable {
        /// Published, not signing yet.
        case pending
        /// Signing.
        case active
        /// Superseded by the next key to activate; published until its tokens and session cookies have expired.
        case retired
        /// Retired and past that: no token it signed is still valid, so it is no longer published.
        case unpublished
    }

    /// The keys in turn order: by activation, then creation, then id, so that every instance orders them alike.
    package let keys: [SigningKeyRecord]

    package init(_ keys: [SigningKeyRecord]) {
        self.keys = keys.sorted { ($0.activatesAt, $0.createdAt, $0.id) < ($1.activatesAt, $1.createdAt, $1.id) }
    }

    /// The key that signs at `now`: the latest activated.
    package func signingKey(at now: Date) -> SigningKeyRecord? {
        keys.last { $0.activatesAt <= now }
    }

    /// The key that takes over from `key`: the next to activate.
    func successor(of key: SigningKeyRecord) -> SigningKeyRecord? {
        guard let index = keys.firstIndex(where: { $0.id == key.id }), index + 1 < keys.count else { return nil }
        return keys[index + 1]
    }

    /// The newest key, the one that signs once every pending key has activated, when it is not of `algorithm`
    /// (`tokens.algorithm`): start-up and `check-config` say so, since `init` and `keys rotate` would add another kind.
    package func newestKey(unlike algorithm: SigningAlgorithm) -> SigningKeyRecord? {
        keys.last.flatMap { $0.algorithm == algorithm ? nil : $0 }
    }

    /// When `key` stops being published; nil while no successor is scheduled.
    package func publishedUntil(_ key: SigningKeyRecord) -> Date? {
        successor(of: key).map { $0.activatesAt.addingTimeInterval(Self.retirementGrace) }
    }

    package func state(of key: SigningKeyRecord, at now: Date) -> State {
        if now < key.activatesAt { return .pending }
        guard let successor = successor(of: key), successor.activatesAt <= now else { return .active }
        return now < successor.activatesAt.addingTimeInterval(Self.retirementGrace) ? .retired : .unpublished
    }
}
