/// Where the HTTP server listens.
///
/// - `server.host` (string, default `"127.0.0.1"`): the address to bind; behind a reverse proxy keep loopback.
/// - `server.port` (integer, default `8080`, 0 picks a free port).
/// - `server.trustedProxies` (list of CIDR blocks, default none): peers whose proxy header is believed.
/// - `server.clientIPHeader` (`"X-Forwarded-For"` or `"Forwarded"`, default `"X-Forwarded-For"`): the one header
///   the proxies append to.
package struct ServerConfiguration: Sendable {
    /// The header trusted proxies record the client in.
    package enum ClientIPHeader: String, Sendable, CaseIterable {
        case xForwardedFor = "X-Forwarded-For"
        case forwarded = "Forwarded"
    }

    package var host: String
    package var port: Int
    package var trustedProxies: [IPNetwork]
    package var clientIPHeader: ClientIPHeader

    init(_ read: inout ConfigSectionReader) {
        host = read.string("server.host") ?? "127.0.0.1"
        port = read.int("server.port", default: 8080, in: 0...65535)
        trustedProxies = (read.stringArray("server.trustedProxies") ?? []).compactMap { block in
            guard let network = IPNetwork(block) else {
                read.problems.add("server.trustedProxies", "\"\(block)\" is not an address or a CIDR block")
                return nil
            }
            return network
        }
        clientIPHeader = read.choice("server.clientIPHeader", default: ClientIPHeader.xForwardedFor)
    }
}
