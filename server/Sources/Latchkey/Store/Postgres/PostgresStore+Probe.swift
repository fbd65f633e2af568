import Logging
import NIOPosix
import NIOSSL
import PostgresNIO

extension PostgresStore {
    /// What the store's own probing connections (not the pools') use for TLS: made once, off the cooperative pool,
    /// since reading a CA file is blocking work.
    static func probeTLS(_ settings: PostgresSettings) async throws -> PostgresConnection.Configuration.TLS {
        guard let configuration = tlsConfiguration(settings) else { return .disable }
        return .require(try await NIOThreadPool.singleton.runIfActive { try NIOSSLContext(configuration: configuration) })
    }

    /// Asks every host before the pools' first connection, and stops start-up at once with what to fix when no retry
    /// can help: a refusal (the password refused, the role or the database missing), where the pool would try again
    /// until its deadline and say only that no answer came; or hosts that all answered as standbys, since Latchkey
    /// writes. Any other failure (PostgreSQL not up yet, a failover under way) is left to the pools' retries.
    static func refuseUnusableHosts(_ settings: PostgresSettings, tls: PostgresConnection.Configuration.TLS, logger: Logger) async throws {
        let roles = try await withThrowingTaskGroup(of: PrimaryRoute.Role.self) { group in
            for host in settings.hosts {
                group.addTask {
                    do {
                        return try await withDeadline(seconds: settings.connectTimeoutSeconds) {
                            try await ask(host, settings: settings, tls: tls, logger: logger)
                        }
                    } catch let error as PSQLError {
                        if let refusal = PostgresRefusal(error, settings: settings, host: host) { throw StartupError(refusal.description) }
                        return .unreachable
                    } catch {
                        return .unreachable
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        if roles.allSatisfy({ $0 == .standby }) {
            let hosts = settings.hosts.map(\.description).joined(separator: ", ")
            throw StartupError(
                "storage.postgres: \(hosts) \(settings.hosts.count == 1 ? "is a standby" : "are all standbys") (in recovery or read-only), "
                    + "and Latchkey writes: name the primary too")
        }
    }

    /// One host's role, for `PrimaryRoute`: unreachable when it does not answer within the connect timeout.
    static func role(of host: PostgresHost, settings: PostgresSettings, tls: PostgresConnection.Configuration.TLS, logger: Logger) async
        -> PrimaryRoute.Role
    {
        (try? await withDeadline(seconds: settings.connectTimeoutSeconds) { try await ask(host, settings: settings, tls: tls, logger: logger) })
            ?? .unreachable
    }

    /// Connects to `host` alone and asks whether its server takes writes (`takesNoWrites`).
    private static func ask(
        _ host: PostgresHost, settings: PostgresSettings, tls: PostgresConnection.Configuration.TLS, logger: Logger
    ) async throws -> PrimaryRoute.Role {
        let configuration = PostgresConnection.Configuration(
            host: host.name, port: host.port, username: settings.user, password: settings.password, database: settings.database, tls: tls)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            var isReadOnly = false
            let query = PostgresQuery(unsafeSQL: "SELECT \(Self.takesNoWrites)")
            for try await value in try await connection.checkedQuery(query, logger: logger).decode(Bool.self) { isReadOnly = value }
            try? await connection.close()
            return isReadOnly ? .standby : .primary
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// How the primary replicates, for the start-up line when several hosts are named: a failover keeps what was
    /// answered only when every commit waited for a standby.
    func replication() async throws -> String {
        guard route.canMove else { return "" }
        let (commit, standbys) = try await withPrimaryConnection { [logger] connection in
            var settings = ("", "")
            let query: PostgresQuery = "SELECT current_setting('synchronous_commit'), current_setting('synchronous_standby_names')"
            for try await row in try await connection.checkedQuery(query, logger: logger).decode((String, String).self) { settings = row }
            return settings
        }
        guard !standbys.isEmpty, !["off", "local"].contains(commit) else {
            logger.warning(
                "PostgreSQL commits do not wait for a standby: a failover may lose sign-ins already answered",
                metadata: ["synchronous_commit": "\(commit)", "synchronous_standby_names": "\(standbys)"])
            return "; asynchronous replication (synchronous_commit \(commit), synchronous_standby_names '\(standbys)'): "
                + "a failover may lose answered writes"
        }
        return "; synchronous replication (synchronous_commit \(commit), synchronous_standby_names '\(standbys)'; that only a synchronous "
            + "standby is promoted is the failover manager's to keep)"
    }
}

/// PostgreSQL's answer to a connection that the same settings will always get, said as what to change.
struct PostgresRefusal: CustomStringConvertible {
    let description: String

    /// Nil for any error but a refused login (SQLSTATE 28P01, 28000) or a database that does not exist (3D000).
    init?(_ error: PSQLError, settings: PostgresSettings, host: PostgresHost) {
        guard let state = error.serverInfo?[.sqlState] else { return nil }
        let said = error.serverInfo?[.message].map { " (PostgreSQL: \($0))" } ?? ""
        let place = host.description
        switch state {
        case "28P01", "28000":
            let source =
                settings.passwordEnv.map { "the password in \($0) (storage.postgres.passwordEnv)" }
                ?? "no password (storage.postgres.passwordEnv names the environment variable that holds it)"
            description = "storage.postgres: PostgreSQL at \(place) refused user \"\(settings.user)\" with \(source)\(said)"
        case "3D000":
            description =
                "storage.postgres.database: PostgreSQL at \(place) has no database \"\(settings.database)\"\(said); "
                + "create it (docs/scaling.md: CREATE DATABASE … OWNER …)"
        default:
            return nil
        }
    }
}
