import Foundation

/// How to reach PostgreSQL (`storage.postgres`).
///
/// - `url` (string): `postgres://user@host:port/database`; or the parts below. A password in the URL is refused:
///   passwords come from the environment.
/// - `host` (string, default `"127.0.0.1"`), `port` (integer, default 5432), `database` (string, default
///   `"latchkey"`), `user` (string, default `"latchkey"`).
/// - `passwordEnv` (string, optional): the environment variable holding the password.
/// - `tls` (`"disable"`, `"require"` or `"verify-full"`, default `"verify-full"`): `require` encrypts without checking
///   the server's certificate; `verify-full` checks it and its name against `caFile`.
/// - `caFile` (string): the CA certificate (PEM) `verify-full` trusts; required with it.
/// - `poolSize` (integer, 1 to 200, default 10): connections per instance.
/// - `connectTimeoutSeconds` (integer, 1 to 120, default 5).
package struct PostgresSettings: Sendable, Equatable {
    package enum TLSMode: String, Sendable, CaseIterable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

    package var host: String
    package var port: Int
    package var database: String
    package var user: String
    package var password: String?
    /// The environment variable the password came from, for a message when PostgreSQL refuses it.
    package var passwordEnv: String?
    package var tls: TLSMode
    package var caFile: String?
    package var poolSize: Int
    package var connectTimeoutSeconds: Int

    package init(
        host: String = "127.0.0.1", port: Int = 5432, database: String = "latchkey", user: String = "latchkey", password: String? = nil,
        passwordEnv: String? = nil, tls: TLSMode = .disable, caFile: String? = nil, poolSize: Int = 10, connectTimeoutSeconds: Int = 5
    ) {
        self.host = host
        self.port = port
        self.database = database
        self.user = user
        self.password = password
        self.passwordEnv = passwordEnv
        self.tls = tls
        self.caFile = caFile
        self.poolSize = poolSize
        self.connectTimeoutSeconds = connectTimeoutSeconds
    }

    /// Where the database is, without its password, for messages and the start-up line.
    package var displayName: String { "postgres://\(user)@\(host):\(port)/\(database)" }

    init(_ read: inout ConfigSectionReader, environment: [String: String]) {
        self.init()
        if let text = read.string("storage.postgres.url") {
            if let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme), let host = url.host, !host.isEmpty {
                self.host = host
                port = url.port ?? 5432
                if let name = url.path.split(separator: "/").first { database = String(name) }
                if let user = url.user { self.user = user }
                if url.password != nil { read.problems.add("storage.postgres.url", "must not hold a password: name its variable in passwordEnv") }
            } else {
                read.problems.add("storage.postgres.url", "expected postgres://user@host:port/database")
            }
        }
        host = read.string("storage.postgres.host") ?? host
        port = read.int("storage.postgres.port", default: port, in: 1...65_535)
        database = read.string("storage.postgres.database") ?? database
        user = read.string("storage.postgres.user") ?? user
        if let variable = read.string("storage.postgres.passwordEnv") {
            password = environment[variable]
            passwordEnv = variable
            if password == nil { read.problems.add("storage.postgres.passwordEnv", "environment variable \(variable) is not set") }
        }
        tls = read.choice("storage.postgres.tls", default: TLSMode.verifyFull)
        caFile = read.string("storage.postgres.caFile")
        if tls == .verifyFull, caFile == nil {
            read.problems.add("storage.postgres.caFile", "required with tls \"verify-full\" (or set tls to \"require\" or \"disable\")")
        }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            read.problems.add("storage.postgres.caFile", "cannot read \(caFile)")
        }
        poolSize = read.int("storage.postgres.poolSize", default: 10, in: 1...200)
        connectTimeoutSeconds = read.int("storage.postgres.connectTimeoutSeconds", default: 5, in: 1...120)
    }
}
