import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct SecondFactorStoreConformance {
    static let account = Account(id: "acct", email: EmailAddress("ann@example.com"), isEmailVerified: true, validSince: Fixture.now, createdAt: Fixture.now)

    static func factor(_ id: String, step: Int64 = 100, at offset: TimeInterval = 0) -> SecondFactor {
        SecondFactor(
            id: id, accountID: account.id, displayName: "Phone \(id)", enrolledAt: Fixture.now.addingTimeInterval(offset),
            method: .totp(sealedSecret: Data(repeating: 9, count: 60), lastUsedStep: step))
    }

    static func phoneFactor(_ id: String, _ number: String, at offset: TimeInterval = 0) throws -> SecondFactor {
        SecondFactor(
            id: id, accountID: account.id, displayName: nil, enrolledAt: Fixture.now.addingTimeInterval(offset),
            method: .phone(try #require(PhoneNumber(number))))
    }

    /// Factors of both kinds are listed oldest first, removed one by one or all at once, and go with their account.
    @Test(arguments: StoreKind.all) func factorsAreListedRemovedAndGoWithTheirAccount(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                try await tx.insert(Self.account)
                for (index, id) in ["b", "a"].enumerated() { try await tx.insert(Self.factor(id, at: TimeInterval(index))) }
                try await tx.insert(try Self.phoneFactor("c", "+16505550101", at: 2))
            }
            #expect(
                try await store.read { try await $0.secondFactors(accountID: "acct") } == [
                    Self.factor("b"), Self.factor("a", at: 1), try Self.phoneFactor("c", "+16505550101", at: 2),
                ])
            #expect(try await store.write { try await $0.deleteSecondFactor(id: "a", accountID: "acct") })
            #expect(try await !store.write { try await $0.deleteSecondFactor(id: "a", accountID: "acct") })
            #expect(try await !store.write { try await $0.deleteSecondFactor(id: "b", accountID: "other") })
            #expect(try await store.write { try await $0.deleteSecondFactors(accountID: "acct") } == 2)
            try await store.write { tx in try await tx.insert(Self.factor("d")) }
            try await store.write { tx in try await tx.deleteAccount(id: "acct", at: Fixture.now) }
            #expect(try await store.read { try await $0.secondFactors(accountID: "acct") }.isEmpty)
        }
    }

    /// A step is used only when later than the last: of concurrent uses of one step, one wins.
    @Test(arguments: StoreKind.all) func aStepIsUsedOnceAndNeverAnEarlierOne(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                try await tx.insert(Self.account)
                try await tx.insert(Self.factor("f", step: 100))
            }
            #expect(try await !store.write { try await $0.useSecondFactorStep(100, factorID: "f", accountID: "acct") })
            #expect(try await !store.write { try await $0.useSecondFactorStep(99, factorID: "f", accountID: "acct") })
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { try await store.write { try await $0.useSecondFactorStep(101, factorID: "f", accountID: "acct") } } }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            #expect(try await store.read { try await $0.secondFactors(accountID: "acct") }.first?.method == .totp(sealedSecret: Data(repeating: 9, count: 60), lastUsedStep: 101))
        }
    }

    /// Pending enrollments and challenges are found by their hash and removed once.
    @Test(arguments: StoreKind.all) func enrollmentsAndChallengesAreFoundByHashAndRemovedOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let enrollment = PendingEnrollment(
                sessionHash: Data(repeating: 1, count: 32), accountID: "acct", sealedSecret: Data(repeating: 2, count: 60),
                expiresAt: Fixture.now.addingTimeInterval(600))
            let challenge = SecondFactorChallenge(
                credentialHash: Data(repeating: 3, count: 32), accountID: "acct", signInProvider: SignInProvider(id: "oidc.corp"),
                expiresAt: Fixture.now.addingTimeInterval(600))
            try await store.write { tx in
                try await tx.insert(Self.account)
                try await tx.insert(enrollment)
                try await tx.insert(challenge)
            }
            #expect(try await store.read { try await $0.pendingEnrollment(sessionHash: enrollment.sessionHash) } == enrollment)
            #expect(try await store.read { try await $0.pendingEnrollment(sessionHash: Data(repeating: 4, count: 32)) } == nil)
            #expect(try await store.write { try await $0.deletePendingEnrollment(sessionHash: enrollment.sessionHash) })
            #expect(try await !store.write { try await $0.deletePendingEnrollment(sessionHash: enrollment.sessionHash) })

            #expect(try await store.read { try await $0.secondFactorChallenge(credentialHash: challenge.credentialHash) } == challenge)
            #expect(try await store.write { try await $0.deleteSecondFactorChallenge(credentialHash: challenge.credentialHash) })
            #expect(try await !store.write { try await $0.deleteSecondFactorChallenge(credentialHash: challenge.credentialHash) })
        }
    }

    /// Of many concurrent tries on one challenge, exactly `maximumAttempts` get an attempt; none does once it expired.
    @Test(arguments: StoreKind.all) func aChallengeGivesOutItsAttemptsOnceEvenToConcurrentTries(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let challenge = SecondFactorChallenge(
                credentialHash: Data(repeating: 5, count: 32), accountID: "acct", signInProvider: .password, expiresAt: Fixture.now.addingTimeInterval(600))
            try await store.write { tx in
                try await tx.insert(Self.account)
                try await tx.insert(challenge)
            }
            let claimed = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<12 {
                    group.addTask { try await store.write { try await $0.claimSecondFactorAttempt(credentialHash: challenge.credentialHash, at: Fixture.now) }?.attempts }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(claimed.compactMap { $0 }.sorted() == [1, 2, 3, 4, 5])
            let other = SecondFactorChallenge(
                credentialHash: Data(repeating: 6, count: 32), accountID: "acct", signInProvider: .password, expiresAt: Fixture.now)
            try await store.write { try await $0.insert(other) }
            #expect(try await store.write { try await $0.claimSecondFactorAttempt(credentialHash: other.credentialHash, at: Fixture.now) } == nil)
        }
    }

    /// Revoking an account's sessions ends the sign-ins waiting for its second factor too.
    @Test(arguments: StoreKind.all) func revokingSessionsEndsChallenges(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let challenge = SecondFactorChallenge(
                credentialHash: Data(repeating: 7, count: 32), accountID: "acct", signInProvider: .password, expiresAt: Fixture.now.addingTimeInterval(600))
            try await store.write { tx in
                try await tx.insert(Self.account)
                try await tx.insert(challenge)
                try await tx.revokeSessions(accountID: "acct", at: Fixture.now)
            }
            #expect(try await store.read { try await $0.secondFactorChallenge(credentialHash: challenge.credentialHash) } == nil)
        }
    }
}
