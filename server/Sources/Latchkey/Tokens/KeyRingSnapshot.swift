import Foundation
import JWTKit
import LatchkeyDomain

/// The keys one process signs and publishes with, as last read from the store: built whole by `SigningKeyRing` and
/// swapped whole, so a signature or a JWKS answer never sees half a reload.
///
/// Which key signs and which are published depends on the time as well as on the keys, so both are picked per call
/// from what is precomputed here: a pending key starts signing at its activation without waiting for a reload.
struct KeyRingSnapshot: Sendable {
    /// A key opened once, with what publishing and signing it needs.
    struct OpenedKey: Sendable {
        let key: SigningKey
        let publicKey: JSONWebKeySet.Key
        let signer: JWSSigner
    }

    /// One published key and its schedule.
    struct Entry: Sendable {
        let record: SigningKeyRecord
        let opened: OpenedKey
        /// When it stops being published; nil while no successor is scheduled.
        let publishedUntil: Date?
    }

    /// In turn order (`SigningKeySchedule`).
    let entries: [Entry]
    /// The ids of `entries`.
    let ids: Set<String>
    /// Verifies tokens signed by any key in `entries`.
    let verifier: JWTKeyCollection

    static let empty = KeyRingSnapshot(entries: [], verifier: JWTKeyCollection())

    init(entries: [Entry], verifier: JWTKeyCollection) {
        self.entries = entries
        self.ids = Set(entries.map(\.record.id))
        self.verifier = verifier
    }

    /// The signer of the latest key activated by `now` (`SigningKeySchedule.signingKey(at:)`, over the keys this
    /// process could open).
    func signer(at now: Date) -> JWSSigner? {
        entries.last { $0.record.activatesAt <= now }?.opened.signer
    }

    /// Every key published at `now`: pending, active, and retired ones whose tokens may still be valid.
    func publishedKeys(at now: Date) -> JSONWebKeySet {
        JSONWebKeySet(keys: entries.filter { entry in entry.publishedUntil.map { now < $0 } ?? true }.map(\.opened.publicKey))
    }
}
