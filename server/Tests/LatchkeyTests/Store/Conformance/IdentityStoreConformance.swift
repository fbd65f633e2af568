import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct IdentityStoreConformance {
    static func identity(_ provider: String, _ uid: String, of account: String, email: String? = nil, at offset: Double = 0) -> Identity {
        Identity(
            providerID: provider, providerUserID: uid, accountID: account, email: email.flatMap(EmailAddress.init), isEmailVerified: email != nil,
            displayName: "Name of \(uid)", photoURL: nil, rawProfile: #"{"sub":"\#(uid)"}"#, createdAt: Fixture.now.addingTimeInterval(offset))
    }

    @Test(arguments: StoreKind.all) func identitiesAreListedInTheOrderTheyWereLinked(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let google = Self.identity("google.com", "g-1", of: "alice", email: "alice@gmail.com", at: 10)
            let email = Self.identity("password", "alice@example.com", of: "alice", email: "alice@example.com")
            try await store.write { tx in
                try await tx.insert(Fixture.account("alice", "alice@example.com"))
                try await tx.save(google)
                try await tx.save(email)
            }
            #expect(try await store.read { try await $0.identities(accountID: "alice") } == [email, google])
            #expect(try await store.read { try await $0.identity(providerID: "google.com", providerUserID: "g-1") } == google)
            #expect(try await store.read { try await $0.identity(providerID: "google.com", providerUserID: "g-2") } == nil)
        }
    }

    /// Saving again updates the same account's identity; another account's is a conflict, and deleting goes by provider.
    @Test(arguments: StoreKind.all) func anIdentitySignsInToOneAccountOnly(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var google = Self.identity("google.com", "g-1", of: "alice", email: "alice@gmail.com")
            let saved = google
            try await store.write { tx in
                try await tx.insert(Fixture.account("alice", "alice@example.com"))
                try await tx.insert(Fixture.account("bob", "bob@example.com"))
                try await tx.save(saved)
            }
            google.displayName = "Alice G."
            let renamed = google
            try await store.write { try await $0.save(renamed) }
            #expect(try await store.read { try await $0.identities(accountID: "alice") } == [google])
            let taken = try await conflict { try await store.write { try await $0.save(Self.identity("google.com", "g-1", of: "bob")) } }
            #expect(taken == .identityTaken)
            #expect(try await store.read { try await $0.identities(accountID: "bob") }.isEmpty)
            try await store.write { try await $0.deleteIdentities(accountID: "alice", providerID: "google.com") }
            #expect(try await store.read { try await $0.identities(accountID: "alice") }.isEmpty)
        }
    }
}
