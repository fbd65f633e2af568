import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct OutboxStoreConformance {
    static func claim(_ store: any Store, at seconds: Double, lease: Double = 60, limit: Int = 10) async throws -> [ClaimedMessage] {
        let now = Fixture.now.addingTimeInterval(seconds)
        return try await store.write { try await $0.claimOutboxMessages(now: now, leaseUntil: now.addingTimeInterval(lease), limit: limit) }
    }

    /// Texts share the outbox with mail: one table, one claim. The `recipient` column keeps the plain number, read back
    /// as a phone number because the row's format is a text's, and listed for operators in the same redacted form.
    @Test(arguments: StoreKind.all) func textsShareTheOutboxWithMail(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let number = try #require(PhoneNumber("+44 7700 900123"))
            let text = OutboxMessage(recipient: .phone(number), format: .verificationText, sealedContent: Data([2]), createdAt: Fixture.now)
            try await store.write { transaction in
                try await transaction.enqueue(Fixture.message(1))
                try await transaction.enqueue(text)
            }
            let claimed = try await Self.claim(store, at: 0)
            #expect(Set(claimed.map(\.message.recipient)) == [.email(Fixture.alice), .phone(number)])
            let claimedText = try #require(claimed.first { $0.message.format == .verificationText })
            #expect(claimedText.message.sealedContent == Data([2]) && claimedText.message.attempts == 1)
            let failure = "webhook unavailable: HTTP 500"
            #expect(try await store.write { try await $0.recordDeliveryFailure(claimedText.claim, error: failure, retryAt: nil) })
            let listed = try await store.read { try await $0.undeliveredMessages(limit: 10) }
            #expect(Set(listed.map(\.recipient)) == [.email(Fixture.alice), .phone(number)])
            #expect(listed.first { $0.isFailed }?.recipient.redacted == "+44********23")
            let backlog = try await store.read { try await $0.outboxBacklog(now: Fixture.now) }
            #expect(backlog.count == 1)
        }
    }

    @Test(arguments: StoreKind.all) func messagesAreLeasedToOneWorkerAndRetriedAfterTheLease(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { try await $0.enqueue(Fixture.message(1)) }
            let claimed = try await Self.claim(store, at: 0)
            #expect(claimed.count == 1 && claimed.first?.message.attempts == 1 && claimed.first?.message.sealedContent == Data([1]))
            #expect(claimed.first?.message.format == .mime && claimed.first?.message.recipient == .email(Fixture.alice))
            #expect(try await Self.claim(store, at: 30).isEmpty)
            let again = try await Self.claim(store, at: 61)
            #expect(again.first?.message.attempts == 2)
            let claim = try #require(again.first?.claim)
            #expect(claim != claimed.first?.claim)

            let retryAt = Fixture.now.addingTimeInterval(200)
            #expect(try await store.write { try await $0.recordDeliveryFailure(claim, error: "451 try later", retryAt: retryAt) })
            #expect(try await Self.claim(store, at: 199).isEmpty)
            let third = try #require(try await Self.claim(store, at: 200).first?.claim)
            let delivered = Fixture.now.addingTimeInterval(201)
            #expect(try await store.write { try await $0.markDelivered(third, at: delivered) })
            #expect(try await Self.claim(store, at: 10_000).isEmpty)
            #expect(try await store.read { try await $0.undeliveredMessages(limit: 10) }.isEmpty)
        }
    }

    /// A worker whose lease ran out and was claimed again can no longer change the message: every update names its claim.
    @Test(arguments: StoreKind.all) func aLostClaimChangesNothing(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { try await $0.enqueue(Fixture.message(1)) }
            let stale = try #require(try await Self.claim(store, at: 0).first?.claim)
            let current = try #require(try await Self.claim(store, at: 61).first?.claim)
            let now = Fixture.now.addingTimeInterval(62)
            let staleOutcomes = try await store.write { tx in
                [
                    try await tx.markDelivered(stale, at: now),
                    try await tx.recordDeliveryFailure(stale, error: "late", retryAt: nil),
                ]
            }
            try await store.write { try await $0.releaseOutboxMessages([stale]) }
            #expect(staleOutcomes == [false, false])
            let status = try #require(try await store.read { try await $0.undeliveredMessages(limit: 10) }.first)
            #expect(!status.isFailed && status.attempts == 2 && status.lastError == nil)
            #expect(try await Self.claim(store, at: 62).isEmpty)
            #expect(try await store.write { try await $0.markDelivered(current, at: now) })
        }
    }

    @Test(arguments: StoreKind.all) func releasedMessagesAreDueAgainAtOnceWithoutCountingTheAttempt(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { try await $0.enqueue(Fixture.message(1)) }
            let claims = try await Self.claim(store, at: 0).map(\.claim)
            try await store.write { try await $0.releaseOutboxMessages(claims) }
            #expect(try await Self.claim(store, at: 1).first?.message.attempts == 1)
        }
    }

    @Test(arguments: StoreKind.all) func givenUpMessagesAreListedAndQueuedAgainOnRequest(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.write { tx in
                try await tx.enqueue(Fixture.message(1))
                try await tx.enqueue(Fixture.message(2, at: Fixture.now.addingTimeInterval(1)))
            }
            let claims = try await Self.claim(store, at: 5)
            let first = try #require(claims.first { $0.message.sealedContent == Data([1]) }?.claim)
            #expect(try await store.write { try await $0.recordDeliveryFailure(first, error: "550 no such user", retryAt: nil) })
            let backlog = try await store.read { try await $0.outboxBacklog(now: Fixture.now.addingTimeInterval(10)) }
            #expect(backlog == OutboxBacklog(count: 1, oldestAge: 9))
            let listed = try await store.read { try await $0.undeliveredMessages(limit: 10) }
            #expect(listed.map(\.isFailed) == [true, false] && listed.first?.lastError == "550 no such user")
            #expect(try await store.write { try await $0.retryFailedMessages(now: Fixture.now.addingTimeInterval(20)) } == 1)
            #expect(try await Self.claim(store, at: 20).count == 1)
        }
    }
}
