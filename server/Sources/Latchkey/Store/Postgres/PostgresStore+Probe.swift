import Logging
import NIOPosix
import NIOSSL
import PostgresNIO

extension PostgresStore {
    /// One connection before the pool's first: a refusal no retry can change (the password refused, the role or the
    /// database missing) stops start-up at once with what to fix, where the pool would try again until its deadline
    /// and say only that no answer came. Any other failure (PostgreSQL not up yet, say) is left to the pool's retries.
    static func refusePermanentRefusals(_ settings: PostgresSettings, logger: Logger) async throws {
        let tls: PostgresConnection.Configuration.TLS
        if let configuration = tlsConfiguration(settings) {
            // Reading a CA file is blocking work.
            tls = .require(try await NIOThreadPool.singleton.runIfActive { try NIOSSLContext(configuration: configuration) })
        } else {
            tls = .disable
        }
        let configuration = PostgresConnection.Configuration(
            host: settings.host, port: settings.port, username: settings.user, password: settings.password, database: settings.database, tls: tls)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        } catch let error as PSQLError {
            if let refusal = PostgresRefusal(error, settings: settings) { throw StartupError(refusal.description) }
            return
        } catch {
            return
        }
        try? await connection.close()
    }
}

/// PostgreSQL's answer to a connection that the same settings will always get, said as what to change.
struct PostgresRefusal: CustomStringConvertible {
    let description: String

    /// Nil for any error but a refused login (SQLSTATE 28P01, 28000) or a database that does not exist (3D000).
    init?(_ error: PSQLError, settings: PostgresSettings) {
        guard let state = error.serverInfo?[.sqlState] else { return nil }
        let said = error.serverInfo?[.message].map { " (PostgreSQL: \($0))" } ?? ""
        let place = "\(settings.host):\(settings.port)"
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
