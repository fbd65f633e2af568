import Foundation

/// Durable state, reached one transaction at a time.
///
/// Domain rules run inside `write`, against a `StoreTransaction`, so each rule that must hold atomically (a code
/// consumed together with the account change it causes) commits or rolls back whole. Every invariant rests on a
/// constraint or a conditional statement, never on there being one writer. A body returns a verdict and leaves side
/// effects (signing, metrics, waking the outbox) to after the commit, so a store may run it again after a
/// serialization conflict.
package protocol Store: Sendable {
    /// Runs `body` in one write transaction; a thrown error rolls everything it wrote back.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Runs `body` on a read-only snapshot, concurrently with writes.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Runs `body` on one read-only snapshot with no time limit, for work that reads the whole store (`latchkey copy`).
    func readSnapshot<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Commits a write the way a sign-in's would, for readiness: throws when writes cannot commit now.
    func confirmWritable() async throws
}

extension Store {
    package func confirmWritable() async throws {
        try await write { _ in }
    }
}

/// Everything one transaction offers, by concern; one type may implement them all.
package protocol StoreTransaction: AccountStore, IdentityStore, PendingRequestStore, SessionStore, OutboxStore, AuditStore, RateCounterStore,
    RetentionStore, SigningKeyStore, RowCopyStore, ProviderFlowStore, ProviderConfigStore, SecondFactorStore, CoolOffStore,
    PhoneVerificationStore,
    AppReceiptStore
{}
