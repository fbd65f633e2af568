import Foundation
import LatchkeyDomain
import Logging
import NIOSSL
import PostgresNIO
import ServiceLifecycle

/// The store several instances share: PostgreSQL through postgres-nio's `PostgresClient`.
///
/// Each transaction runs on a pooled connection. No rule relies on a single writer: unique keys and conditional
/// statements hold the invariants, and a transaction that PostgreSQL aborts for a serialization failure or a deadlock
/// is run again, a bounded number of times (bodies leave their side effects to after the commit, so they may be).
package struct PostgresStore: Store {
    let client: PostgresClient
    /// Keeps the pool running while the store is in use (a command may hold the store alone).
    let pool: PostgresClientRun
    let logger: Logger
    /// How long a transaction may wait for a connection before the store counts as unavailable.
    let connectionWait: Int
    /// How many times a transaction is tried when PostgreSQL aborts it for a conflict with another.
    static let attempts = 3

    package init(settings: PostgresSettings, logger: Logger) throws {
        var configuration = PostgresClient.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password, database: settings.database,
            tls: try Self.tls(settings))
        configuration.options.maximumConnections = settings.poolSize
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeoutSeconds))
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        pool = PostgresClientRun(client: client)
        self.logger = logger
        connectionWait = settings.connectTimeoutSeconds
    }

    private static func tls(_ settings: PostgresSettings) throws -> PostgresClient.Configuration.TLS {
        tlsConfiguration(settings).map { .require($0) } ?? .disable
    }

    /// What `storage.postgres.tls` asks of the connection, or nil for none.
    static func tlsConfiguration(_ settings: PostgresSettings) -> TLSConfiguration? {
        switch settings.tls {
        case .disable:
            return nil
        case .require:
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .none
            return tls
        case .verifyFull:
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.certificateVerification = .fullVerification
            if let caFile = settings.caFile { tls.trustRoots = .file(caFile) }
            return tls
        }
    }

    package func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN", holdsLocks: true, body)
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T: Sendable>(
        begin: PostgresQuery, holdsLocks: Bool = false, _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        // A write waits for a row another holds no longer than the whole transaction may take: past that it gives up
        // rather than commit after its caller was answered.
        let lockTimeout = holdsLocks ? max(connectionWait - 1, 1) : nil
        var attempt = 1
        while true {
            do {
                return try await withConnection { connection in try await run(body, begin: begin, lockTimeout: lockTimeout, on: connection) }
            } catch let error as PSQLError where error.isConflictWithAnotherTransaction && attempt < Self.attempts {
                attempt += 1
            } catch let error as PSQLError where error.sqlState == "55P03" {
                throw StoreUnavailable("PostgreSQL: a row stayed locked longer than \(lockTimeout ?? 0) s")
            }
        }
    }

    /// Runs `body` in one transaction on `connection`, begun with `begin`, committed when it returns; with
    /// `lockTimeout`, a wait for a locked row longer than that many seconds fails the transaction.
    func run<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T, begin: PostgresQuery, lockTimeout: Int? = nil,
        on connection: PostgresConnection
    ) async throws -> T {
        try await connection.query(begin, logger: logger)
        if let lockTimeout { try await connection.query(PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = '\(lockTimeout)s'"), logger: logger) }
        do {
            let value = try await body(PostgresStoreTransaction(connection: connection, logger: logger))
            try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            // A broken connection rolls back by itself; the body's own error is the one to report.
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// A pooled connection for `body`; a database that gives none in time, or drops the connection, is unavailable
    /// rather than a hang or a 500.
    private func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let client = client
        do {
            return try await withDeadline(seconds: connectionWait) { try await client.withConnection(body) }
        } catch let error as DeadlineExceeded {
            throw StoreUnavailable("PostgreSQL: \(error)")
        } catch let error as PSQLError where error.isConnectionFailure {
            throw StoreUnavailable("PostgreSQL: \(error.code)")
        }
    }
}

extension PSQLError {
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
