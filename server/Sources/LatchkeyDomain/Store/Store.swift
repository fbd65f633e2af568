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
    /// Runs `count`, which counts one attempt in the rate-counter rows `rows` and throws when a window is full, then
    /// `body`, the attempt's work. A store whose writers hold the rows they change until they commit counts first, in a
    /// short transaction of its own, when another request counts the same rows, so a row every request shares (one
    /// client address behind a NAT) is not locked across the work; an attempt counted so whose work then throws stays
    /// counted. A full window keeps none of the counts.
    func write<T: Sendable>(
        counting rows: [String], _ count: @escaping @Sendable (any StoreTransaction) async throws -> Void,
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T
    /// Runs `count` alone, as `write(counting:_:_:)` runs it.
    func count(_ rows: [String], _ count: @escaping @Sendable (any StoreTransaction) async throws -> Void) async throws
}

extension Store {
    package func confirmWritable() async throws {
        try await write { _ in }
    }

    /// One transaction: a store with one writer locks nothing another request waits for.
    package func write<T: Sendable>(
        counting rows: [String], _ count: @escaping @Sendable (any StoreTransaction) async throws -> Void,
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        try await write { transaction in
            try await count(transaction)
            return try await body(transaction)
        }
    }

    package func count(_ rows: [String], _ count: @escaping @Sendable (any StoreTransaction) async throws -> Void) async throws {
        try await write(count)
    }
}

/// Everything one transaction offers, by concern; one type may implement them all.
package protocol StoreTransaction: AccountStore, IdentityStore, PendingRequestStore, SessionStore, OutboxStore, AuditStore, RateCounterStore,
    RetentionStore, SigningKeyStore, RowCopyStore, ProviderFlowStore, ProviderConfigStore, SecondFactorStore, CoolOffStore,
    PhoneVerificationStore,
    AppReceiptStore
{}
