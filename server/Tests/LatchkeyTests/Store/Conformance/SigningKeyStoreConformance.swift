import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct SigningKeyStoreConformance {
    static let secret = ServerSecret(material: Data(repeating: 4, count: 32))


    @Test(arguments: StoreKind.all) func keysAreListedOldestFirstAndEachIDIsAddedOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let older = try await TestSigningKey.rs256().sealed(
                with: Self.secret, createdAt: Fixture.now, activatesAt: Fixture.now.addingTimeInterval(10))
            let newer = try await SigningKey.generate(.es256).sealed(
                with: Self.secret, createdAt: Fixture.now.addingTimeInterval(5), activatesAt: Fixture.now.addingTimeInterval(5))
            #expect(try await store.read { try await $0.signingKeys() }.isEmpty)
            #expect(try await store.write { try await $0.addSigningKey(newer) })
            #expect(try await store.write { try await $0.addSigningKey(older) })
            var changed = older
            changed.activatesAt = Fixture.now
            let again = changed
            #expect(try await store.write { try await $0.addSigningKey(again) } == false)
            #expect(try await store.read { try await $0.signingKeys() } == [older, newer])
        }
    }

    /// The store holds the private half only sealed: the PEM is nowhere in it, and another secret cannot open it.
    @Test(arguments: StoreKind.all) func aStoredKeyOpensOnlyWithTheSecretThatSealedIt(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let key = try await TestSigningKey.rs256()
            let sealed = try key.sealed(with: Self.secret, createdAt: Fixture.now, activatesAt: Fixture.now)
            #expect(sealed.sealedPrivateKey.range(of: Data("PRIVATE KEY".utf8)) == nil)
            _ = try await store.write { try await $0.addSigningKey(sealed) }
            let stored = try #require(try await store.read { try await $0.signingKeys() }.first)
            #expect(try SigningKey(opening: stored, with: Self.secret).pem == key.pem)
            let other = ServerSecret(material: Data(repeating: 5, count: 32))
            #expect(throws: SigningKey.Failure.self) { try SigningKey(opening: stored, with: other) }
        }
    }

    /// Instances starting together on an empty database, each finding no key, agree on one.
    @Test(arguments: StoreKind.all) func instancesPreparingTogetherAddOneKey(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let vault = SigningKeyVault(store: store, secret: Self.secret)
            let outcomes = await StoreRaceConformance.race(8) { _ in
                try await vault.prepare(.es256, keyDirectory: "/nonexistent", creatingIfMissing: true, now: Fixture.now).created
            }
            let created = try outcomes.compactMap { try $0.get() }
            let stored = try await vault.records()
            #expect(stored.count == 1)
            #expect(created.map(\.id) == stored.map(\.id))
        }
    }
}
