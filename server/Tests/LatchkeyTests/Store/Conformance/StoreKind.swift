import Foundation
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// The stores the conformance suites run against; each suite is parameterized over `StoreKind.all`.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite
    case postgres

    /// Every kind this run can reach: PostgreSQL when `scripts/test` started one (`LATCHKEY_TEST_POSTGRES`).
    static let all: [StoreKind] = PostgresTestServer.address == nil ? [.sqlite] : [.sqlite, .postgres]

    var testDescription: String { rawValue }

    /// The configuration of a fresh, empty store of this kind in `workspace` (a new database for PostgreSQL).
    func configuration(in workspace: TestWorkspace, _ overrides: [String: Any] = [:]) async throws -> AppConfiguration {
        switch self {
        case .sqlite: try await workspace.configuration(overrides)
        case .postgres: try await workspace.configuration(overrides.merging(try await PostgresTestServer.freshDatabase()) { $1 })
        }
    }
}

/// Runs `body` with a fresh store of `kind`, opened as `serve` opens it, and closed afterwards.
func withStore<T>(_ kind: StoreKind, _ body: (any Store) async throws -> T) async throws -> T {
    try await withWorkspace { workspace in
        let opened = try await makeStore(try await kind.configuration(in: workspace), logger: Logger(label: "test"))
        // Its services (PostgreSQL's connection pool) must live until the body is done.
        defer { withExtendedLifetime(opened) {} }
        return try await body(opened.store)
    }
}

/// The PostgreSQL server `scripts/test` starts for the run.
enum PostgresTestServer {
    /// Why a run without the server skips what needs it, as the skipped tests report it.
    static let skipReason: Comment = """
        LATCHKEY_TEST_POSTGRES is unset, so PostgreSQL is skipped: the store conformance suites run on SQLite alone. \
        scripts/test starts a throwaway server and sets it; or set it to the host:port of one that trusts the user latchkey
        """

    /// `host:port`, from `LATCHKEY_TEST_POSTGRES`.
    static let address: (host: String, port: Int)? = {
        guard let value = ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES"], let colon = value.lastIndex(of: ":"),
            let port = Int(value[value.index(after: colon)...])
        else { return nil }
        return (String(value[..<colon]), port)
    }()

    /// `sql` run in `database` on the test server by psql, as a session of its own (stopping at the first error).
    static func psql(_ sql: String, in database: String) throws -> ChildProcess {
        guard let (host, port) = address else { throw ChildProcessError(description: "LATCHKEY_TEST_POSTGRES is not set") }
        return try ChildProcess(["psql", "-h", host, "-p", "\(port)", "-U", "latchkey", "-d", database, "-v", "ON_ERROR_STOP=1", "-c", sql])
    }

    /// Settings for a new, empty database on the test server.
    static func freshDatabase() async throws -> [String: Any] {
        guard let (host, port) = address else { throw ChildProcessError(description: "LATCHKEY_TEST_POSTGRES is not set") }
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let psql = try ChildProcess(["psql", "-h", host, "-p", "\(port)", "-U", "latchkey", "-d", "postgres", "-c", "CREATE DATABASE \(name)"])
        guard try await psql.exitStatus() == 0 else { throw ChildProcessError(description: "psql could not create \(name)") }
        // A long connect timeout (and with it the opening deadline): with every suite starting at once, two cooperative
        // threads busy with other tests' file syncs can keep a store from opening within the default 10 s. Tests of a
        // database that does not answer set their own.
        return [
            "storage.kind": "postgres",
            "storage.postgres": [
                "host": host, "port": port, "database": name, "user": "latchkey", "tls": "disable", "poolSize": 8, "connectTimeoutSeconds": 30,
            ],
        ]
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only when the run has a PostgreSQL server, and says why otherwise: a plain `swift test`
    /// must show what it left out, not pass quietly on SQLite alone.
    static var needsPostgres: Self { .enabled(if: PostgresTestServer.address != nil, PostgresTestServer.skipReason) }
}
