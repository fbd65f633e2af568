import Foundation
import LatchkeyDomain
import Logging
import PostgresNIO

/// `StoreTransaction` over one PostgreSQL transaction on one pooled connection, one file per concern. Times are Unix
/// seconds, as in the SQLite store.
///
/// A statement that fails aborts the whole transaction in PostgreSQL: a unique violation is thrown as the
/// `AccountConflict` it means and the caller's transaction rolls back.
struct PostgresStoreTransaction: StoreTransaction {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows of `query`, for reading columns by name.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRandomAccessRow] {
        try await connection.checkedQuery(query, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    func row(_ query: PostgresQuery) async throws -> PostgresRandomAccessRow? {
        try await rows(query).first
    }

    func execute(_ query: PostgresQuery) async throws {
        try await connection.checkedQuery(query, logger: logger)
    }

    /// Runs a write, turning a unique violation into what it means (`conflict` of the violated constraint's name).
    func executeGuarded(_ query: PostgresQuery, conflict: (String) -> AccountConflict?) async throws {
        do {
            try await execute(query)
        } catch let error as PSQLError where error.sqlState == "23505" {
            guard let conflict = conflict(error.serverInfo?[.constraintName] ?? "") else { throw error }
            throw conflict
        }
    }

    static func date(_ seconds: Double?) -> Date? {
        seconds.map(Date.init(timeIntervalSince1970:))
    }
}
