import Foundation
import JWTKit
import LatchkeyDomain
import Logging
import Synchronization

/// The signing keys one process publishes and signs with, read from the store and kept current: a
/// `SigningKeyReloader` reloads them every few seconds, and a token naming a key this process does not know reloads
/// them at once (at most once a second), so a key rotated on any instance reaches every instance.
///
/// Signing and publishing read the current `KeyRingSnapshot` under a lock, never waiting on a reload or the actor; a
/// key is opened and parsed once, when it first appears.
package actor SigningKeyRing {
    /// The fewest seconds between two reloads asked for by unknown keys, so forged `kid`s cannot hammer the store.
    static let unknownKeyReloadInterval: TimeInterval = 1

    private let vault: SigningKeyVault
    private let clock: any WallClock
    private let logger: Logger
    private nonisolated let current = Mutex(KeyRingSnapshot.empty)
    /// Keys opened so far, by id, with their public halves and signers.
    private var opened: [String: KeyRingSnapshot.OpenedKey] = [:]
    /// Why each key that could not be opened could not, so each is reported once.
    private var unopenable: [String: String] = [:]
    /// Numbers reloads in the order they read the store, so a slow reload never replaces what a later one installed.
    private var reloadsStarted = 0
    private var reloadInstalled = 0
    /// The last reload an unknown key asked for: callers within a second of it wait for it rather than start another.
    private var unknownKeyReload: (at: Date, task: Task<Void, Never>)?
    /// Whether the last reload failed, so an outage is reported once rather than every few seconds.
    private var isFailing = false

    /// A ring over the keys of `vault`; it holds no key until the first `reload()`.
    package init(vault: SigningKeyVault, clock: any WallClock, logger: Logger) {
        self.vault = vault
        self.clock = clock
        self.logger = logger
    }

    /// The signer for a token issued at `now`, or nil when no key is active.
    nonisolated func signer(at now: Date) -> JWSSigner? {
        current.withLock { $0.signer(at: now) }
    }

    /// The keys to publish at `now`.
    nonisolated func publishedKeys(at now: Date) -> JSONWebKeySet {
        current.withLock { $0.publishedKeys(at: now) }
    }

    /// Whether the ring holds the key `id` names.
    nonisolated func holds(_ id: String) -> Bool {
        current.withLock { $0.ids.contains(id) }
    }

    /// Verifies tokens signed by any key of the ring.
    nonisolated var verifier: JWTKeyCollection {
        current.withLock { $0.verifier }
    }

    /// Reads the keys from the store and installs them. Keys that cannot be opened (sealed under another server
    /// secret) are left out and logged once each; the others still serve.
    package func reload() async throws {
        reloadsStarted += 1
        let generation = reloadsStarted
        let schedule = SigningKeySchedule(try await vault.records())
        let now = clock.now
        var entries: [KeyRingSnapshot.Entry] = []
        for record in schedule.keys where schedule.state(of: record, at: now) != .unpublished {
            guard let key = open(record) else { continue }
            entries.append(.init(record: record, opened: key, publishedUntil: schedule.publishedUntil(record)))
        }
        let previous = current.withLock { $0 }
        let ids = Set(entries.map(\.record.id))
        let verifier = ids == previous.ids ? previous.verifier : await Self.makeVerifier(entries)
        // Another reload may have read the store later and installed while this one built its verifier.
        guard generation > reloadInstalled else { return }
        reloadInstalled = generation
        current.withLock { $0 = KeyRingSnapshot(entries: entries, verifier: verifier) }
        if ids != previous.ids {
            let added = ids.subtracting(previous.ids).sorted()
            logger.info(
                "Signing keys loaded", metadata: ["keys": .array(entries.map { .string($0.record.id) }), "added": .array(added.map { .string($0) })])
        }
    }

    /// Reloads because a token names a key the ring does not hold; within a second of the last such reload, waits for
    /// that one instead. Failures are logged: the token is then refused as any unknown one is.
    package func reloadForUnknownKey() async {
        let now = clock.now
        if let last = unknownKeyReload, last.at <= now, now.timeIntervalSince(last.at) < Self.unknownKeyReloadInterval {
            return await last.task.value
        }
        let task = Task { await self.reloadReportingFailure() }
        unknownKeyReload = (now, task)
        await task.value
    }

    /// A reload whose failure is logged rather than thrown, for the periodic and on-demand reloads: at `warning` when
    /// reloads start failing (the database away), and once more when they work again.
    func reloadReportingFailure() async {
        do {
            try await reload()
            if isFailing { logger.info("Signing keys reloaded again") }
            isFailing = false
        } catch {
            if !isFailing { logger.warning("Signing keys could not be reloaded from the store", metadata: ["error": "\(error)"]) }
            isFailing = true
        }
    }

    /// Throws, naming the reason, unless a key signs now: start-up stops there rather than answer every sign-in with a
    /// 500.
    package func checkSigning() throws {
        guard signer(at: clock.now) == nil else { return }
        let reasons = unopenable.sorted { $0.key < $1.key }.map(\.value)
        throw StartupError(
            reasons.first ?? "no signing key is active in the store: run `latchkey init` once with the same --config")
    }

    private func open(_ record: SigningKeyRecord) -> KeyRingSnapshot.OpenedKey? {
        if let known = opened[record.id] { return known }
        guard unopenable[record.id] == nil else { return nil }
        do {
            let key = try SigningKey(opening: record, with: vault.secret)
            let ready = KeyRingSnapshot.OpenedKey(
                key: key, publicKey: try JSONWebKeySet.Key(publicHalfOf: key), signer: try JWSSigner(key))
            opened[record.id] = ready
            return ready
        } catch {
            unopenable[record.id] = "\(error)"
            logger.error("Signing key cannot be used", metadata: ["key.id": "\(record.id)", "error": "\(error)"])
            return nil
        }
    }

    private static func makeVerifier(_ entries: [KeyRingSnapshot.Entry]) async -> JWTKeyCollection {
        let verifier = JWTKeyCollection()
        for entry in entries {
            let kid = JWKIdentifier(string: entry.record.id)
            switch entry.opened.key.material {
            case .rsa(let rsa): await verifier.add(rsa: rsa.publicKey, digestAlgorithm: .sha256, kid: kid)
            case .p256(let p256): await verifier.add(ecdsa: p256.publicKey, kid: kid)
            }
        }
        return verifier
    }
}
