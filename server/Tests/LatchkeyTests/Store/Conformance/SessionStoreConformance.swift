import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct SessionStoreConformance {
    static func session(_ id: String, of account: String = "alice", provider: SignInProvider = .password) -> SessionRecord {
        SessionRecord(id: id, accountID: account, signInProvider: provider, authTime: Fixture.now, createdAt: Fixture.now)
    }

    @Test(arguments: StoreKind.all) func aSessionKeepsItsProviderAndFactorAndIsRevokedOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var google = Self.session("s1", provider: SignInProvider(id: "google.com"))
            google.secondFactor = PassedSecondFactor(id: "f1", kind: .phone)
            let inserted = google
            try await store.write { tx in
                try await tx.insert(inserted)
                try await tx.insert(Self.session("s2"))
                try await tx.insert(Self.session("s3", of: "bob"))
                try await tx.revokeSession(id: "s1", at: Fixture.now)
                try await tx.revokeSession(id: "s1", at: Fixture.now.addingTimeInterval(60))
            }
            #expect(try await store.read { try await $0.session(id: "s1") }?.revokedAt == Fixture.now)
            google.revokedAt = Fixture.now
            #expect(try await store.read { try await $0.session(id: "s1") } == google)
            try await store.write { try await $0.revokeSessions(accountID: "alice", at: Fixture.now.addingTimeInterval(120)) }
            let (first, second, bobs) = try await store.read { tx in
                (try await tx.session(id: "s1"), try await tx.session(id: "s2"), try await tx.session(id: "s3"))
            }
            #expect(first?.revokedAt == Fixture.now && first?.isRevokedWithAccount == false)
            #expect(second?.revokedAt == Fixture.now.addingTimeInterval(120) && second?.isRevokedWithAccount == true)
            #expect(bobs?.revokedAt == nil)
        }
    }

    @Test(arguments: StoreKind.all) func aRefreshTokenRotatesOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let token = RefreshToken(tokenHash: Data([7, 7]), sessionID: "s1", createdAt: Fixture.now)
            try await store.write { tx in
                try await tx.insert(Self.session("s1"))
                try await tx.insert(token)
            }
            let stored = try #require(try await store.read { try await $0.refreshToken(hash: Data([7, 7])) })
            #expect(stored.sessionID == "s1" && stored.rotatedAt == nil && stored.createdAt == Fixture.now)
            let id = try #require(stored.id)
            #expect(try await store.write { try await $0.markRotated(refreshTokenID: id, at: Fixture.now) })
            #expect(try await store.write { try await $0.markRotated(refreshTokenID: id, at: Fixture.now) } == false)
            #expect(try await store.read { try await $0.refreshToken(hash: Data([7, 7])) }?.rotatedAt == Fixture.now)
            #expect(try await store.read { try await $0.refreshToken(hash: Data([8])) } == nil)
        }
    }
}
