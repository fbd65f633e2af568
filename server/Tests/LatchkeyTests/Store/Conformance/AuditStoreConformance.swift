import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct AuditStoreConformance {
    /// An address's events are those naming it and those of any account that had it, newest first.
    @Test(arguments: StoreKind.all) func anAddressesEventsIncludeItsAccounts(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let bob = try #require(EmailAddress("bob@example.com"))
            let requester = RequesterSummary(ipAddress: "203.0.113.9", userAgent: "Test/1.0")
            try await store.write { tx in
                try await tx.insert(Fixture.account("alice", "alice@example.com"))
                try await tx.record(AuditEvent(.codeIssued, at: Fixture.now, email: Fixture.alice, requester: requester))
                try await tx.record(AuditEvent(.accountDisabled, at: Fixture.now.addingTimeInterval(1), accountID: "alice", detail: "an admin"))
                try await tx.record(AuditEvent(.codeIssued, at: Fixture.now.addingTimeInterval(2), email: bob))
            }
            let events = try await store.read { try await $0.auditEvents(email: Fixture.alice, limit: 10) }
            #expect(events.map(\.kind) == [.accountDisabled, .codeIssued])
            #expect(events.last == AuditEvent(.codeIssued, at: Fixture.now, email: Fixture.alice, requester: requester))
            #expect(try await store.read { try await $0.auditEvents(email: Fixture.alice, limit: 1) }.count == 1)
        }
    }
}
