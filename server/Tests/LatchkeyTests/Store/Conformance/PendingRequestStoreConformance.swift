import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct PendingRequestStoreConformance {
    @Test(arguments: StoreKind.all) func aRequestIsStoredWithEverythingItAskedFor(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var request = Fixture.pending(1)
            request.iOSBundleID = "com.example.ios"
            request.androidPackageName = "com.example.android"
            request.androidInstallApp = true
            request.handlesCodeInApp = true
            let inserted = request
            try await store.write { try await $0.insert(inserted) }
            let found = try #require(try await store.read { try await $0.pendingRequest(codeHash: inserted.codeHash) })
            #expect(found.id != nil && found.email == Fixture.alice && found.expiresAt == request.expiresAt && found.language == .english)
            #expect(found.continueURL == "https://app.example.com" && found.iOSBundleID == "com.example.ios")
            #expect(found.androidPackageName == "com.example.android" && found.androidInstallApp && found.handlesCodeInApp)
            #expect(found.usedAt == nil && found.mismatchCount == 0)
        }
    }

    /// An email action's request keeps its action, account and new address; spending the outstanding requests of one
    /// action for an address leaves its other actions' and other addresses' alone.
    @Test(arguments: StoreKind.all) func actionRequestsKeepTheirAccountAndAreSpentByAction(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var change = Fixture.pending(1)
            (change.action, change.accountID, change.newEmail) = (.verifyAndChangeEmail, "account-1", EmailAddress("alice@example.net"))
            var reset = Fixture.pending(2)
            (reset.action, reset.accountID) = (.resetPassword, "account-1")
            let (signIn, other) = (Fixture.pending(3), Fixture.pending(4, email: try #require(EmailAddress("bob@example.com"))))
            var otherReset = other
            otherReset.action = .resetPassword
            let requests = [change, reset, signIn, otherReset]
            try await store.write { tx in for request in requests { try await tx.insert(request) } }
            let changeHash = change.codeHash
            let found = try #require(try await store.read { try await $0.pendingRequest(codeHash: changeHash) })
            #expect(found.action == .verifyAndChangeEmail && found.accountID == "account-1" && found.newEmail?.value == "alice@example.net")
            try await store.write { try await $0.spendOutstandingRequests(for: Fixture.alice, action: .resetPassword, at: Fixture.now) }
            let spent = try await store.read { tx in
                var spent: [Bool] = []
                for request in requests { spent.append(try await tx.pendingRequest(codeHash: request.codeHash)?.usedAt != nil) }
                return spent
            }
            #expect(spent == [false, true, false, false])
        }
    }

    @Test(arguments: StoreKind.all) func consumingIsAConditionalUpdateThatSucceedsOnce(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let request = Fixture.pending(1)
            let id = try await store.write { tx in
                try await tx.insert(request)
                return try #require(try await tx.pendingRequest(codeHash: request.codeHash)?.id)
            }
            let first = try await store.write { try await $0.consumePendingRequest(id: id, at: Fixture.now) }
            let second = try await store.write { try await $0.consumePendingRequest(id: id, at: Fixture.now) }
            #expect(first && !second)
            #expect(try await store.read { try await $0.pendingRequest(codeHash: request.codeHash)?.isSpent } == true)
        }
    }

    @Test(arguments: StoreKind.all) func expiredOrMismatchKilledRequestsCannotBeConsumed(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let (expired, killed) = (Fixture.pending(1, minutesAgo: 10), Fixture.pending(2))
            let ids = try await store.write { tx in
                try await tx.insert(expired)
                try await tx.insert(killed)
                let killedID = try #require(try await tx.pendingRequest(codeHash: killed.codeHash)?.id)
                for _ in 0..<PendingRequest.maximumMismatches { try await tx.recordMismatch(pendingRequestID: killedID) }
                return (try #require(try await tx.pendingRequest(codeHash: expired.codeHash)?.id), killedID)
            }
            #expect(try await store.write { try await $0.consumePendingRequest(id: ids.0, at: Fixture.now) } == false)
            #expect(try await store.write { try await $0.consumePendingRequest(id: ids.1, at: Fixture.now) } == false)
        }
    }

    @Test(arguments: StoreKind.all) func onlyTheNewestOutstandingRequestsAreKept(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let bob = try #require(EmailAddress("bob@example.com"))
            try await store.write { tx in
                for index in 0..<7 { try await tx.insert(Fixture.pending(UInt8(index), minutesAgo: Double(7 - index))) }
                try await tx.insert(Fixture.pending(99, email: bob, minutesAgo: 60))
                try await tx.dropOutstandingRequests(for: Fixture.alice, action: .signIn, keepingNewest: 5)
            }
            let kept = try await store.read { tx in
                var kept: [Bool] = []
                for index in [0, 1, 2, 3, 4, 5, 6, 99] as [UInt8] {
                    kept.append(try await tx.pendingRequest(codeHash: Data(repeating: index, count: 32)) != nil)
                }
                return kept
            }
            #expect(kept == [false, false, true, true, true, true, true, true])
        }
    }
}
