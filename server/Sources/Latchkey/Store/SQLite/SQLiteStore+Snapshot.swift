import LatchkeyDomain

extension SQLiteStore {
    /// A read transaction of the pool is a snapshot already, and has no time limit.
    package func readSnapshot<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await read(body)
    }
}
