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
    /// A pool per host of `storage.postgres`; only the primary's is used (`route`).
    let clients: [PostgresClient]
    let route: PrimaryRoute
    /// Keeps the pools running while the store is in use (a command may hold the store alone).
    let pool: PostgresClientRun
    let logger: Logger
    /// How long a transaction may take, from waiting for a connection to its commit, before the store counts as
    /// unavailable.
    let connectionWait: Int
    /// Where this instance's counting transactions wait for the rows they share.
    let counterTurns = CounterTurns()
    /// How many times a transaction is tried when PostgreSQL aborts it for a conflict with another.
    static let attempts = 3

    /// `probeTLS` is what the connections asking hosts for their role use (`probeTLS(_:)`).
    package init(settings: PostgresSettings, probeTLS: PostgresConnection.Configuration.TLS, logger: Logger) throws {
        let tls = try Self.tls(settings)
        clients = settings.hosts.map { host in
            var configuration = PostgresClient.Configuration(
                host: host.name, port: host.port, username: settings.user, password: settings.password, database: settings.database, tls: tls)
            configuration.options.maximumConnections = settings.poolSize
            configuration.options.minimumConnections = 0
            configuration.options.connectTimeout = .seconds(Int64(settings.connectTimeoutSeconds))
            return PostgresClient(configuration: configuration, backgroundLogger: logger)
        }
        route = PrimaryRoute(hosts: settings.hosts, logger: logger) { host in
            await Self.role(of: host, settings: settings, tls: probeTLS, logger: logger)
        }
        pool = PostgresClientRun(clients: clients, route: route)
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

    /// Counts inside the work's own transaction while no other request of this instance counts the same rows, and
    /// otherwise first, in a transaction of its own: a counter row stays locked from its update to the commit, and one
    /// every request shares (one client address) would queue every sign-in behind the others' whole work.
    package func write<T: Sendable>(
        counting rows: [String], _ count: @escaping @Sendable (any StoreTransaction) async throws -> Void,
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        let inline = try await counterTurns.whileQuiet(rows) {
            try await write { transaction in
                try await count(transaction)
                return try await body(transaction)
            }
        }
        if let inline { return inline }
        try await self.count(rows, count)
        return try await write(body)
    }

    /// A transaction of counters whose commit does not wait for the disk or the standby (`synchronous_commit` off), so
    /// its locks go at once: the attempt's own work commits after it, and flushing the log up to that commit makes the
    /// counts durable with it. A crash may forget the counts of attempts whose work never committed, from the last
    /// moment (a fraction of a second). This instance's counting transactions take turns on their rows (`CounterTurns`).
    package func count(_ rows: [String], _ count: @escaping @Sendable (any StoreTransaction) async throws -> Void) async throws {
        try await transaction(begin: "BEGIN", holdsLocks: true, commitsLazily: true, turns: rows, count)
    }

    /// A write that takes a transaction id, so that its commit waits for the synchronous standby as a sign-in's does:
    /// an empty transaction commits without a commit record, and would call writable a primary whose commits stall.
    package func confirmWritable() async throws {
        try await write { transaction in try await (transaction as? PostgresStoreTransaction)?.execute("SELECT txid_current()") }
    }

    package func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T: Sendable>(
        begin: PostgresQuery, holdsLocks: Bool = false, commitsLazily: Bool = false, turns rows: [String] = [],
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T
    ) async throws -> T {
        // A write waits for a row another holds no longer than the whole transaction may take: past that it gives up
        // rather than commit after its caller was answered.
        let lockTimeout = holdsLocks ? max(connectionWait - 1, 1) : nil
        return try await withinDeadline {
            try await counterTurns.withTurns(rows) {
                try await runToTheEnd(body, begin: begin, lockTimeout: lockTimeout, commitsLazily: commitsLazily)
            }
        }
    }

    /// Runs `body` in a transaction on the primary until it commits, again after a conflict (a few times) or a lost
    /// primary (until the deadline).
    private func runToTheEnd<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T, begin: PostgresQuery, lockTimeout: Int?, commitsLazily: Bool
    ) async throws -> T {
        var attempt = 1
        var lostTries = 0
        while true {
            try Task.checkCancellation()
            let primary = try await route.primary()
            do {
                return try await withConnection(to: primary.host) { connection in
                    try await run(body, begin: begin, lockTimeout: lockTimeout, commitsLazily: commitsLazily, on: connection)
                }
            } catch let error as PSQLError where error.isConflictWithAnotherTransaction {
                guard attempt < Self.attempts else { throw StoreUnavailable("PostgreSQL: in conflict with other transactions \(attempt) times") }
                attempt += 1
            } catch let error as PSQLError where error.sqlState == "55P03" {
                throw StoreUnavailable("PostgreSQL: a row stayed locked longer than \(lockTimeout ?? 0) s")
            } catch let error where error.primaryIsLost && !Task.isCancelled {
                // Nothing was committed: the transaction runs again, on the new primary once there is one, until
                // the deadline. A pool may still hold several connections the failover ended, each failing at
                // once, so a lost primary is not counted as a conflict is; past a few tries, they are paced.
                route.lost(primary)
                lostTries += 1
                if lostTries >= Self.attempts { try await Task.sleep(for: .milliseconds(100)) }
            } catch let error as CommitOutcomeUnknown {
                route.lost(primary)
                throw StoreUnavailable("PostgreSQL: \(error)")
            }
        }
    }

    /// Runs `body` in one transaction on `connection`, begun with `begin`, committed when it returns; with
    /// `lockTimeout`, a wait for a locked row longer than that many seconds fails the transaction, and with
    /// `commitsLazily` its commit does not wait for the disk (`count`). The first statement confirms that the server
    /// takes writes when the primary can move (and always when it sets the lock timeout, as it costs no extra round
    /// trip). A transaction whose caller was answered already (its deadline passed) rolls back rather than commit.
    func run<T: Sendable>(
        _ body: @escaping @Sendable (any StoreTransaction) async throws -> T, begin: PostgresQuery, lockTimeout: Int? = nil,
        commitsLazily: Bool = false, on connection: PostgresConnection
    ) async throws -> T {
        try await connection.checkedQuery(begin, logger: logger)
        do {
            if let lockTimeout {
                let lazily = commitsLazily ? ", set_config('synchronous_commit', 'off', true)" : ""
                let confirm = "SELECT \(Self.takesNoWrites), set_config('lock_timeout', '\(lockTimeout)s', true)\(lazily)"
                try await Self.confirmPrimary(PostgresQuery(unsafeSQL: confirm), on: connection, logger: logger)
            } else if route.canMove {
                try await Self.confirmPrimary("SELECT pg_is_in_recovery()", on: connection, logger: logger)
            }
            let value = try await body(PostgresStoreTransaction(connection: connection, logger: logger))
            try Task.checkCancellation()
            do {
                try await connection.checkedQuery("COMMIT", logger: logger)
            } catch let error as PSQLError where error.isConnectionFailure {
                throw CommitOutcomeUnknown(error: error)
            }
            return value
        } catch {
            // A broken connection rolls back by itself; the body's own error is the one to report.
            _ = try? await connection.checkedQuery("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Runs `body` within the transaction deadline: a database that gives no connection in time, or no primary, is
    /// unavailable rather than a hang or a 500.
    private func withinDeadline<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        do {
            return try await withDeadline(seconds: connectionWait, body)
        } catch let error as DeadlineExceeded {
            route.doubt()
            throw StoreUnavailable("PostgreSQL: \(error)")
        }
    }

    /// A pooled connection to the primary for `body`, confirmed to take writes, within the transaction deadline.
    func withPrimaryConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let primary = try await withinDeadline { try await route.primary() }
        return try await withConnection(to: primary.host) { connection in
            try await Self.confirmPrimary(PostgresQuery(unsafeSQL: "SELECT \(Self.takesNoWrites)"), on: connection, logger: logger)
            return try await body(connection)
        }
    }

    /// A connection from the pool of `hosts[host]` for `body`. A pool that gives none fails as `NoConnection`, whatever
    /// its error: postgres-nio's pool, once its host has refused connections for a minute, fails every request at
    /// once with an error of its own module rather than a `PSQLError`. A wait given up (cancelled) is not that.
    private func withConnection<T: Sendable>(to host: Int, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        var leased = false
        do {
            return try await clients[host].withConnection { connection in
                leased = true
                return try await body(connection)
            }
        } catch where !leased && !Task.isCancelled {
            throw NoConnection(error: error)
        }
    }

    /// True on a server that takes no writes: in recovery (a standby), or read-only (`default_transaction_read_only`,
    /// as some failover managers fence a demoted primary), as libpq's `target_session_attrs=read-write` checks. Not for
    /// reads, whose transactions are read-only by design: they check `pg_is_in_recovery()` alone.
    static let takesNoWrites = "pg_is_in_recovery() OR current_setting('transaction_read_only')::bool"

    /// Runs `query`, whose first column says whether the server takes no writes, and refuses such a server.
    static func confirmPrimary(_ query: PostgresQuery, on connection: PostgresConnection, logger: Logger) async throws {
        for try await row in try await connection.checkedQuery(query, logger: logger) {
            if let takesNoWrites = row.first, try takesNoWrites.decode(Bool.self) { throw ServerIsStandby() }
        }
    }
}
