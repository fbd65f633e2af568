import Foundation
import GRDB
import LatchkeyDomain

/// `StoreTransaction` over one GRDB transaction, one file per concern. Dates are stored as Unix seconds (REAL).
///
/// Its methods are `async` to fit the protocols but never suspend: they run on the connection's own thread
/// (`ConnectionExecutor`). Every statement is a cached one: compiled once per connection rather than once per request
/// (compiling, with GRDB's authorizer, cost more than running these single-row statements).
struct SQLiteStoreTransaction: StoreTransaction {
    let db: Database

    func execute(sql: String, arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    func row(sql: String, arguments: StatementArguments) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func rows(sql: String, arguments: StatementArguments) throws -> [Row] {
        try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// Runs a write, turning a unique violation into what it means (`conflict` of the violated column), so a clash is
    /// a domain error rather than a 500. SQLite undoes just the failed statement, so the transaction goes on.
    func executeGuarded(sql: String, arguments: StatementArguments, conflict: (String) -> AccountConflict?) throws {
        do {
            try execute(sql: sql, arguments: arguments)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
            || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
        {
            guard let conflict = conflict(error.message ?? "") else { throw error }
            throw conflict
        }
    }

    static func date(_ seconds: Double?) -> Date? {
        seconds.map(Date.init(timeIntervalSince1970:))
    }
}
