import Logging
import PostgresNIO

/// A COMMIT whose answer was lost with its connection: it may have committed or not, so it is reported as failed.
struct CommitOutcomeUnknown: Error, CustomStringConvertible {
    let error: PSQLError
    var description: String { "the connection was lost during COMMIT (\(error.summary)); whether it committed is unknown" }
}

/// The server a transaction ran on takes no writes: a standby, a read-only server, or a primary being demoted.
struct ServerIsStandby: Error, CustomStringConvertible {
    var description: String { "the server takes no writes (in recovery or read-only)" }
}

/// A pool that gave no connection: its host is down, or has been for long enough that the pool stopped trying.
struct NoConnection: Error, CustomStringConvertible {
    let error: any Error
    var description: String { "no connection (\((error as? PSQLError)?.summary ?? "\(error)"))" }
}

extension Error {
    /// The primary went away or stopped taking writes before a COMMIT was sent: nothing of the transaction stays.
    var primaryIsLost: Bool {
        if self is ServerIsStandby || self is NoConnection || self is ConnectionClosed { return true }
        guard let error = self as? PSQLError else { return false }
        return error.isConnectionFailure || error.sqlState == "25006"
    }
}

extension PSQLError {
    /// What went wrong, for a message: the kind and the SQLSTATE (a `PSQLError` describes itself only generically,
    /// to keep the query's values out of logs).
    var summary: String { sqlState.map { "\(code) (SQLSTATE \($0))" } ?? "\(code)" }

    /// The SQLSTATE of a server error.
    var sqlState: String? { serverInfo?[.sqlState] }

    /// A serialization failure or a deadlock: the transaction may succeed when run again.
    var isConflictWithAnotherTransaction: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// The connection failed or went away, rather than a statement: the database is unavailable.
    var isConnectionFailure: Bool {
        [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed].contains(code)
            || sqlState?.hasPrefix("08") == true || sqlState?.hasPrefix("57P") == true
    }
}

/// A connection already closed when a statement was to be sent on it: nothing was sent.
struct ConnectionClosed: Error, CustomStringConvertible {
    var description: String { "the connection was closed" }
}

extension PostgresConnection {
    /// `query`, refused at once on a closed connection: postgres-nio drops a statement written to a closed channel
    /// without failing it, so its caller would wait for an answer that never comes (a transaction cut by a failover
    /// would then hang until its deadline, holding its pooled connection's lease).
    @discardableResult
    func checkedQuery(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        guard !isClosed else { throw ConnectionClosed() }
        return try await self.query(query, logger: logger)
    }
}
