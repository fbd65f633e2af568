import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct AccountStoreConformance {
    @Test(arguments: StoreKind.all) func accountsAreFoundByIdAndAddressAndUpdated(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var alice = Fixture.account("alice", "alice@example.com")
            alice.passwordHash = "hash"
            alice.displayName = "Alice"
            alice.lastSignInAt = Fixture.now
            alice.customClaims = try CustomClaims.parse(#"{"role":"admin"}"#)
            let inserted = alice
            try await store.write { try await $0.insert(inserted) }
            #expect(try await store.read { try await $0.account(id: "alice") } == alice)
            #expect(try await store.read { try await $0.account(email: Fixture.alice) } == alice)
            alice.isEmailVerified = true
            alice.isDisabled = true
            alice.photoURL = "https://example.com/a.png"
            alice.customClaims = nil
            let updated = alice
            try await store.write { try await $0.update(updated) }
            #expect(try await store.read { try await $0.account(id: "alice") } == alice)
            #expect(try await store.read { try await $0.account(id: "nobody") } == nil)
        }
    }

    /// `validSince` only moves forward: a write built from an older read never brings revoked tokens back; the targeted
    /// writes touch their one column.
    /// The admin listing's pages: id order as bytes compare (capitals before small letters), after the last id seen.
    @Test(arguments: StoreKind.all) func accountsArePagedInIdOrder(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let ids = ["b", "a", "C", "ab", "z-1", "Z"]
            for id in ids { try await store.write { try await $0.insert(Fixture.account(id, "\(id.lowercased())-\(id.utf8.first ?? 0)@example.com")) } }
            var seen: [String] = []
            var after: String?
            while true {
                let from = after
                let page = try await store.read { try await $0.accounts(after: from, limit: 4) }
                seen += page.map(\.id)
                guard page.count == 4, let last = page.last?.id else { break }
                after = last
            }
            #expect(seen == ids.sorted())
            #expect(try await store.read { try await $0.accounts(after: "zz", limit: 4) }.isEmpty)
        }
    }

    @Test(arguments: StoreKind.all) func validSinceNeverMovesBack(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let stale = Fixture.account("alice", "alice@example.com")
            try await store.write { try await $0.insert(stale) }
            let later = Fixture.now.addingTimeInterval(60)
            try await store.write { try await $0.raiseValidSince(accountID: "alice", to: later) }
            try await store.write { try await $0.update(stale) }
            #expect(try await store.read { try await $0.account(id: "alice") }?.validSince == later)
            try await store.write { try await $0.raiseValidSince(accountID: "alice", to: Fixture.now) }
            try await store.write { try await $0.recordSignIn(accountID: "alice", at: later) }
            let stored = try await store.read { try await $0.account(id: "alice") }
            #expect(stored?.validSince == later && stored?.lastSignInAt == later && stored?.email == stale.email)
        }
    }

    /// The unique keys keep uids and addresses unique whatever order writers come in: a clash is the conflict it means,
    /// and the transaction that met it writes nothing (PostgreSQL aborts it; the conflict is thrown out of it).
    @Test(arguments: StoreKind.all) func aTakenUidOrAddressIsAnAccountConflict(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                try await tx.insert(Fixture.account("alice", "alice@example.com"))
                try await tx.insert(Fixture.account("bob", "bob@example.com"))
            }
            let attempts: [@Sendable (any StoreTransaction) async throws -> Void] = [
                { try await $0.insert(Fixture.account("alice", "carol@example.com")) },
                { try await $0.insert(Fixture.account("carol", "alice@example.com")) },
                { try await $0.update(Fixture.account("bob", "alice@example.com")) },
                { try await $0.insert(Fixture.account("dave", nil)) },
            ]
            var outcomes: [AccountConflict?] = []
            for attempt in attempts {
                outcomes.append(try await conflict { try await store.write { try await attempt($0) } })
            }
            #expect(outcomes == [.idTaken, .emailTaken, .emailTaken, nil])
            let emails = try await store.read { tx in
                var emails: [String?] = []
                for id in ["alice", "bob", "carol", "dave"] { emails.append(try await tx.account(id: id)?.email?.value) }
                return emails
            }
            #expect(emails == ["alice@example.com", "bob@example.com", nil, nil])
        }
    }

    @Test(arguments: StoreKind.all) func deletingAnAccountTakesItsIdentitiesAndRevokesItsSessions(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                try await tx.insert(Fixture.account("alice", "alice@example.com"))
                try await tx.save(
                    Identity(providerID: "password", providerUserID: "alice@example.com", accountID: "alice", email: Fixture.alice, isEmailVerified: false,
                        createdAt: Fixture.now))
                try await tx.insert(SessionRecord(id: "s1", accountID: "alice", signInProvider: .password, authTime: Fixture.now, createdAt: Fixture.now))
                try await tx.deleteAccount(id: "alice", at: Fixture.now)
            }
            let (account, identities, session) = try await store.read { tx in
                (try await tx.account(id: "alice"), try await tx.identities(accountID: "alice"), try await tx.session(id: "s1"))
            }
            #expect(account == nil && identities.isEmpty)
            #expect(session?.revokedAt == Fixture.now && session?.isRevokedWithAccount == true)
        }
    }

    @Test(arguments: StoreKind.all) func aWriteThatThrowsLeavesNothingBehind(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await store.write { tx in
                    try await tx.insert(Fixture.account("alice", "alice@example.com"))
                    try await tx.insert(Fixture.pending(9))
                    throw Abort()
                }
            }
            let left = try await store.read { tx in
                (try await tx.account(id: "alice"), try await tx.pendingRequest(codeHash: Data(repeating: 9, count: 32)))
            }
            #expect(left.0 == nil && left.1 == nil)
        }
    }
}
