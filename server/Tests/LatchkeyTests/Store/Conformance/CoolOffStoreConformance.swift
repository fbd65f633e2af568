import Foundation
import Latchkey
import LatchkeyDomain
import Testing

@Suite(.outsideProcesses) struct CoolOffStoreConformance {
    /// A cool-off is on until its end, a new one moves the end, lifting ends it once, and listing shows the ones on.
    @Test(arguments: StoreKind.all) func aCoolOffRunsUntilItsEndOrItsLifting(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let bob = try #require(EmailAddress("bob@example.com"))
            let (soon, later) = (Fixture.now.addingTimeInterval(60), Fixture.now.addingTimeInterval(3_600))
            try await store.write { tx in
                try await tx.startCoolOff(for: Fixture.alice, until: soon)
                try await tx.startCoolOff(for: bob, until: soon)
                try await tx.startCoolOff(for: bob, until: later)
            }
            #expect(try await store.read { try await $0.coolOff(for: Fixture.alice, at: Fixture.now) } == soon)
            #expect(try await store.read { try await $0.coolOff(for: Fixture.alice, at: soon) } == nil)
            #expect(try await store.read { try await $0.coolOffs(at: Fixture.now) }.map(\.email) == [Fixture.alice, bob])
            #expect(try await store.read { try await $0.coolOffs(at: soon) }.map(\.until) == [later])
            #expect(try await store.write { try await $0.liftCoolOff(for: bob, at: Fixture.now) })
            #expect(!(try await store.write { try await $0.liftCoolOff(for: bob, at: Fixture.now) }))
            #expect(!(try await store.write { try await $0.liftCoolOff(for: Fixture.alice, at: soon) }))
            #expect(try await store.read { try await $0.coolOff(for: bob, at: Fixture.now) } == nil)
        }
    }
}
