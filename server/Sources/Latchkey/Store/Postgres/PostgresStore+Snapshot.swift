import LatchkeyDomain
import PostgresNIO

extension PostgresStore {
    /// One REPEATABLE READ transaction on a connection of its own for as long as `body` runs. Unlike `read`, whose
    /// body must end within the connection timeout, this one has no time limit: a copy reads the whole database in it.
    package func readSnapshot<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await withPrimaryConnection { connection in
            try await run(body, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", on: connection)
        }
    }
}
