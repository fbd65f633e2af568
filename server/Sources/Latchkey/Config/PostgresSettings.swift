import Foundation

/// How to reach PostgreSQL (`storage.postgres`).
///
/// - `url` (string): `postgres://user@host:port/database`, or with several hosts in libpq's form
///   `postgres://user@host1:port1,host2:port2/database?target_session_attrs=read-write`; or the parts below. A password
///   in the URL is refused: passwords come from the environment.
/// - `host` (string, default `"127.0.0.1"`), `port` (integer, default 5432), `database` (string, default
///   `"latchkey"`), `user` (string, default `"latchkey"`).
/// - `hosts` (list of `"host:port"` strings, the port 5432 when left out): a primary and its standbys, instead of
///   `host` and `port`; transactions go to the one that takes writes, found again after a failover.
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

    /// The servers, in the order given: with several, whichever is the primary takes the transactions.
    package var hosts: [PostgresHost]
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
        hosts: [PostgresHost] = [PostgresHost("127.0.0.1")], database: String = "latchkey", user: String = "latchkey", password: String? = nil,
        passwordEnv: String? = nil, tls: TLSMode = .disable, caFile: String? = nil, poolSize: Int = 10, connectTimeoutSeconds: Int = 5
    ) {
        self.hosts = hosts
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
    package var displayName: String { "postgres://\(user)@\(hosts.map(\.description).joined(separator: ","))/\(database)" }

    init(_ read: inout ConfigSectionReader, environment: [String: String]) {
        self.init()
        if let text = read.string("storage.postgres.url") {
            do {
                let url = try PostgresURL(text)
                hosts = url.hosts
                database = url.database ?? database
                user = url.user ?? user
            } catch {
                read.problems.add("storage.postgres.url", error.description)
            }
        }
        let host = read.string("storage.postgres.host")
        let port = read.int("storage.postgres.port")
        if host != nil || port != nil, hosts.count > 1 {
            read.problems.add("storage.postgres.url", "names several hosts: give their ports in it, not host or port")
        }
        if let port {
            if !(1...65_535).contains(port) { read.problems.add("storage.postgres.port", "must be between 1 and 65535, got \(port)") }
            hosts[0].port = port
        }
        if let host { hosts[0].name = host }
        if let list = read.stringArray("storage.postgres.hosts") {
            if read.isPresent("storage.postgres.url") || host != nil || port != nil {
                read.problems.add("storage.postgres.hosts", "give the hosts in one place: hosts, or url, or host and port")
            }
            let parsed = list.map { PostgresHost(listed: $0) }
            if list.isEmpty || parsed.contains(nil) {
                read.problems.add("storage.postgres.hosts", "expected a list of \"host:port\" (the port 5432 when left out)")
            } else {
                hosts = parsed.compactMap { $0 }
            }
        }
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
