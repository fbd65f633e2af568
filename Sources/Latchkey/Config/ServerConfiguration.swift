/// Where the HTTP server listens.
///
/// - `server.host` (string, default `"127.0.0.1"`): the address to bind; behind a reverse proxy keep loopback.
/// - `server.port` (integer, default `8080`, 0 picks a free port).
package struct ServerConfiguration: Sendable {
    package var host: String
    package var port: Int

    init(_ read: inout ConfigSectionReader) {
        host = read.string("server.host") ?? "127.0.0.1"
        port = read.int("server.port", default: 8080, in: 0...65535)
    }
}

/// Where state is kept.
///
/// - `storage.sqlite.path` (string, default `"data/latchkey.sqlite"`): the SQLite database file; its
///   directory is created when missing.
package struct StorageConfiguration: Sendable {
    package var sqlitePath: String

    init(_ read: inout ConfigSectionReader) {
        sqlitePath = read.string("storage.sqlite.path") ?? "data/latchkey.sqlite"
    }
}

/// The server secret that keys every stored hash and seals queued mail.
///
/// - `security.serverSecret` (string, secret, optional): at least 32 bytes, base64 or plain text; give it
///   through `LATCHKEY_SECURITY_SERVER_SECRET`, never in the JSON file.
/// - `security.serverSecretFile` (string, default `"data/server-secret"`): used when no secret is given;
///   created with a fresh random secret on first start, read after.
package struct SecurityConfiguration: Sendable {
    package var serverSecret: String?
    package var serverSecretFile: String

    init(_ read: inout ConfigSectionReader) {
        serverSecret = read.string("security.serverSecret", isSecret: true)
        serverSecretFile = read.string("security.serverSecretFile") ?? "data/server-secret"
        if let secret = serverSecret, secret.utf8.count < 32 {
            read.problems.add("security.serverSecret", "must be at least 32 bytes long")
        }
    }
}

/// How sign-in links behave.
///
/// - `emailLink.codeLifetimeSeconds` (integer, default `600`, 1 to 86400): how long a link stays valid.
package struct EmailLinkConfiguration: Sendable {
    package var codeLifetimeSeconds: Int

    init(_ read: inout ConfigSectionReader) {
        codeLifetimeSeconds = read.int("emailLink.codeLifetimeSeconds", default: 600, in: 1...86_400)
    }
}
