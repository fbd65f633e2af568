import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct ProviderFlowStoreConformance {
    static func session(_ byte: UInt8, handoff: String? = nil) -> ProviderSession {
        ProviderSession(
            stateHash: Data(repeating: byte, count: 32), sessionID: "session-\(byte)", providerID: "oidc.corp",
            redirectURI: "https://app.example.com/__/auth/handler?x=1", context: "ctx", handoff: handoff, createdAt: Fixture.now,
            expiresAt: Fixture.now.addingTimeInterval(600))
    }

    /// A session is read as often as wanted but taken once: concurrent takers, one winner.
    @Test(arguments: StoreKind.all) func aSessionIsTakenOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let started = Self.session(1, handoff: #"{"kind":"web"}"#)
            try await store.write { tx in
                try await tx.insert(started)
                try await tx.insert(Self.session(2))
            }
            #expect(try await store.read { try await $0.providerSession(stateHash: started.stateHash) } == started)
            let taken = try await withThrowingTaskGroup(of: ProviderSession?.self) { group in
                for _ in 0..<8 { group.addTask { try await store.write { try await $0.takeProviderSession(stateHash: started.stateHash) } } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(taken.compactMap { $0 } == [started])
            #expect(try await store.read { try await $0.providerSession(stateHash: started.stateHash) } == nil)
            #expect(try await store.read { try await $0.providerSession(stateHash: Self.session(2).stateHash) } == Self.session(2))
        }
    }

    /// A pending credential keeps every field of the identity but the provider's ID token, and its binding; taking it
    /// removes it, so only one caller ever gets it.
    @Test(arguments: StoreKind.all) func aPendingCredentialKeepsTheIdentityWithoutTheProvidersToken(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let identity = VerifiedIdentity(
                providerID: "oidc.corp", subject: "sub-1", email: EmailAddress("ann@example.com"), isEmailVerified: true, displayName: "Ann",
                firstName: "Ann", lastName: "Lee", photoURL: "https://example.com/a.png", screenName: "ann", rawUserInfo: #"{"sub":"sub-1"}"#,
                idToken: "eyJ.provider.token")
            let credential = PendingCredential(
                tokenHash: Data(repeating: 7, count: 32), identity: identity, context: "ctx", expiresAt: Fixture.now.addingTimeInterval(3600),
                accountID: "account-1", isLinked: true, keptAt: Fixture.now)
            try await store.write { try await $0.insert(credential) }
            var expected = credential
            expected.identity.idToken = nil
            #expect(try await store.write { try await $0.takePendingCredential(tokenHash: credential.tokenHash) } == expected)
            #expect(try await store.write { try await $0.takePendingCredential(tokenHash: credential.tokenHash) } == nil)
            #expect(try await store.write { try await $0.takePendingCredential(tokenHash: Data(repeating: 8, count: 32)) } == nil)
        }
    }
}
