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
