import Crypto
import Foundation
import Latchkey
import LatchkeyDomain
import Testing

/// Imports on both stores: each user whole or not at all, the bulk statements, and what an existing account means.
@Suite(.outsideProcesses) struct AccountImporterTests {
    static let hasher = PasswordHasher(cost: 4, secret: ServerSecret(material: Data(repeating: 3, count: 32)))

    static func user(_ id: String, _ email: String?, google: String? = nil, name: String? = nil) -> ImportedUser {
        var account = Fixture.account(id, email, verified: true)
        account.displayName = name
        let identities = google.map {
            [Identity(providerID: "google.com", providerUserID: $0, accountID: id, email: nil, isEmailVerified: false, createdAt: Fixture.now)]
        }
        return ImportedUser(account: account, password: nil, federatedIdentities: identities ?? [])
    }

    static func importer(_ store: any Store) -> AccountImporter {
        AccountImporter(store: store, hasher: hasher, clock: FixedClock(Fixture.now))
    }

    @Test(arguments: StoreKind.all) func usersArriveWholeWithTheirIdentitiesAndSealedHashes(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // More users than one insert statement takes, so the pages join up.
            var users = (0..<1_200).map { Self.user(String(format: "u%04d", $0), "u\($0)@example.com", google: "g\($0)") }
            let hash = try ImportedPasswordHash(
                algorithm: .sha256, parameters: PasswordHashParameters(rounds: 1), hash: Data(SHA256Digest.of("saltpw")), salt: Data("salt".utf8))
            users[7].password = hash
            users[7].account.customClaims = try CustomClaims.parse(#"{"plan": "pro", "seats": 5}"#)
            let outcomes = try await Self.importer(store).importUsers(users, existing: .refuse)
            #expect(outcomes == Array(repeating: .imported, count: 1_200))
            let stored = try #require(try await store.read { try await $0.account(id: "u0007") })
            #expect(stored.email?.value == "u7@example.com" && stored.isEmailVerified && stored.createdAt == Fixture.now)
            #expect(stored.customClaims?.json == #"{"plan": "pro", "seats": 5}"#)
            let sealed = try #require(stored.passwordHash)
            #expect(sealed.hasPrefix("imported-v1:") && Self.hasher.needsRehash(sealed, password: "pw"))
            #expect(try await Self.hasher.verify("pw", against: sealed))
            let identities = try await store.read { try await $0.identities(accountID: "u1199") }
            #expect(identities.map(\.providerID).sorted() == ["google.com", "password"])
            let found = try await store.read { try await $0.identities(keys: [IdentityKey(providerID: "google.com", providerUserID: "g600")]) }
            #expect(found.map(\.accountID) == ["u0600"])
            let byKey = try await store.read { try await $0.accounts(ids: ["u0001", "nobody"], emails: [EmailAddress("u2@example.com")!], phoneNumbers: []) }
            #expect(Set(byKey.map(\.id)) == ["u0001", "u0002"])
        }
    }

    @Test(arguments: StoreKind.all) func aTakenIdAddressOrIdentityRefusesThatUserAlone(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await Self.importer(store).importUsers([Self.user("old", "old@example.com", google: "g-old")], existing: .refuse)
            let outcomes = try await Self.importer(store).importUsers(
                [
                    Self.user("old", "new@example.com"), Self.user("a", "old@example.com"), Self.user("b", nil, google: "g-old"),
                    Self.user("c", "c@example.com", google: "g-c"), Self.user("c", "c2@example.com"), Self.user("d", "c@example.com"),
                    Self.user("e", nil, google: "g-c"),
                ], existing: .refuse)
            #expect(
                outcomes == [
                    .refused(.idTaken), .refused(.emailTaken), .refused(.identityTaken), .imported, .refused(.invalid("localId appears twice")),
                    .refused(.emailTaken), .refused(.identityTaken),
                ])
            let ids = try await store.read { try await $0.accounts(after: nil, limit: 10) }.map(\.id)
            #expect(ids == ["c", "old"])
            #expect(try await store.read { try await $0.account(id: "old") }?.email?.value == "old@example.com")
        }
    }

    /// An address another account left by a change whose undo is still live stays that account's owner's.
    @Test(arguments: StoreKind.all) func anAddressAwaitingItsOwnersUndoIsNotImported(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await Self.importer(store).importUsers([Self.user("owner", "new@example.com")], existing: .refuse)
            var undo = Fixture.pending(9, email: EmailAddress("old@example.com")!)
            (undo.action, undo.accountID) = (.recoverEmail, "owner")
            let pending = undo
            try await store.write { try await $0.insert(pending) }
            let outcomes = try await Self.importer(store).importUsers(
                [Self.user("squatter", "old@example.com"), Self.user("other", "other@example.com")], existing: .refuse)
            #expect(outcomes == [.refused(.emailTaken), .imported])
            let expired = try await AccountImporter(store: store, hasher: Self.hasher, clock: FixedClock(Fixture.now.addingTimeInterval(601)))
                .importUsers([Self.user("squatter", "old@example.com")], existing: .refuse)
            #expect(expired == [.imported])
        }
    }

    @Test(arguments: StoreKind.all) func aSecondImportOfTheSameUsersChangesNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let users = [Self.user("a", "a@example.com", google: "g-a", name: "A"), Self.user("b", nil)]
            let first = try await Self.importer(store).importUsers(users, existing: .keepIfImported)
            let second = try await Self.importer(store).importUsers(users, existing: .keepIfImported)
            #expect(first == [.imported, .imported] && second == [.unchanged, .unchanged])
            let renamed = [Self.user("a", "a@example.com", google: "g-a", name: "Changed"), Self.user("b", nil, google: "g-b")]
            let changed = try await Self.importer(store).importUsers(renamed, existing: .keepIfImported)
            #expect(changed == [.refused(.idTakenWithOtherData), .refused(.idTakenWithOtherData)])
            #expect(try await store.read { try await $0.account(id: "a") }?.displayName == "A")
        }
    }

    @Test(arguments: StoreKind.all) func overwritingReplacesTheAccountAndEndsItsSessions(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await Self.importer(store).importUsers([Self.user("a", "a@example.com", google: "g-a")], existing: .refuse)
            let session = SessionRecord(id: "s1", accountID: "a", signInProvider: .password, authTime: Fixture.now, createdAt: Fixture.now)
            try await store.write { try await $0.insert(session) }
            // Once replaced, the account's old address and identity are free for the users after it.
            let outcomes = try await Self.importer(store).importUsers(
                [Self.user("a", "other@example.com", name: "New"), Self.user("b", "a@example.com", google: "g-a")], existing: .overwrite)
            #expect(outcomes == [.imported, .imported])
            let account = try #require(try await store.read { try await $0.account(id: "a") })
            #expect(account.email?.value == "other@example.com" && account.displayName == "New")
            #expect(try await store.read { try await $0.identities(accountID: "a") }.map(\.providerID) == ["password"])
            #expect(try await store.read { try await $0.session(id: "s1") }?.revokedAt != nil)
            let audit = try await store.read { try await $0.auditEvents(email: EmailAddress("a@example.com")!, limit: 10) }
            #expect(audit.map(\.kind) == [.accountDeleted] && audit.first?.detail == "replaced by an import")
        }
    }
}

/// SHA-256 of a string, for a digest-algorithm import.
enum SHA256Digest {
    static func of(_ text: String) -> [UInt8] {
        Array(Crypto.SHA256.hash(data: Data(text.utf8)))
    }
}
