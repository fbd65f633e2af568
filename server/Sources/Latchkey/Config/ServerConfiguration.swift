import HummingbirdCore
import LatchkeyDomain
import NIOCore

/// Where the HTTP server listens, and how long and how much it lets a client take.
///
/// - `server.host` (string, default `"127.0.0.1"`): the address to bind; behind a reverse proxy keep loopback.
/// - `server.port` (integer, default `8080`, 0 picks a free port).
/// - `server.trustedProxies` (list of CIDR blocks, default none): peers whose proxy header is believed.
/// - `server.clientIPHeader` (`"X-Forwarded-For"` or `"Forwarded"`, default `"X-Forwarded-For"`): the one header
///   the proxies append to.
/// - `server.idleTimeoutSeconds` (integer, default `60`, 1 to 3600): a connection that sends no request (or no part
///   of one) for this long is closed, so slow or silent clients cannot hold connections open.
/// - `server.headerTimeoutSeconds` (integer, default `10`, 1 to 300): the request line and headers must arrive
///   within this time once their first bytes have; a client trickling them in is disconnected.
/// - `server.requestTimeoutSeconds` (integer, default `10`, 1 to 300): the whole request body must arrive within
///   this time; a client trickling it in is answered 408.
/// - `server.maxHeaderBytes` (integer, default `16384`, 1024 to 81920): the most the request line and headers may
///   take; a larger request is refused before it reaches a handler.
/// - `server.maxAdminBodyBytes` (integer, default `4194304`, 65536 to 67108864): how large a body an admin may send
///   to the admin-only methods (`accounts:batchCreate`'s 1,000 users with their hashes, the others alike); every
///   other request body, an admin's to a method apps also use among them, is limited to 64 KiB.
/// - `server.shutdownTimeoutSeconds` (integer, default `20`, 1 to 300): on SIGTERM or SIGINT, how long in-flight
///   requests and the mail worker's current message may take before they are cancelled.
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
    package var idleTimeoutSeconds: Int
    package var headerTimeoutSeconds: Int
    package var requestTimeoutSeconds: Int
    package var maxHeaderBytes: Int
    package var maxAdminBodyBytes: Int
    package var shutdownTimeoutSeconds: Int

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
        idleTimeoutSeconds = read.int("server.idleTimeoutSeconds", default: 60, in: 1...3600)
        headerTimeoutSeconds = read.int("server.headerTimeoutSeconds", default: 10, in: 1...300)
        requestTimeoutSeconds = read.int("server.requestTimeoutSeconds", default: 10, in: 1...300)
        maxHeaderBytes = read.int("server.maxHeaderBytes", default: 16 * 1024, in: 1024...80 * 1024)
        maxAdminBodyBytes = read.int("server.maxAdminBodyBytes", default: 4 << 20, in: 64 << 10...64 << 20)
        shutdownTimeoutSeconds = read.int("server.shutdownTimeoutSeconds", default: 20, in: 1...300)
    }
}

extension ServerConfiguration {
    /// The HTTP/1.1 channel with this section's timeouts and header limits.
    var http1: HTTP1Channel.Configuration {
        let headerTimeout = TimeAmount.seconds(Int64(headerTimeoutSeconds))
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: [RequestHeadTimeoutHandler(timeout: headerTimeout), ConnectionCloseHandler()],
            idleTimeout: .seconds(Int64(idleTimeoutSeconds)),
            httpDecoderConfiguration: .init(maxHeaderFieldSize: maxHeaderBytes, maxHeaderListSize: maxHeaderBytes, maxHeaderFieldCount: 100))
    }
}
