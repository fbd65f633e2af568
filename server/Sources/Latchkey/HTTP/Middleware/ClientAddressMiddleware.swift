import Foundation
import HTTPTypes
import Hummingbird
import LatchkeyDomain

/// Decides who the client is: the TCP peer, unless the peer is a trusted proxy, in which case the right-most
/// address in the proxy header that is not itself a trusted proxy (earlier entries are whatever the client wrote).
///
/// Only one header is read (`server.clientIPHeader`): a proxy appends to one of them, so honouring the other
/// would let a client name any address it likes.
package struct ClientAddressMiddleware: RouterMiddleware {
    package typealias Context = AppRequestContext

    let trustedProxies: [IPNetwork]
    let header: ServerConfiguration.ClientIPHeader

    package init(trustedProxies: [IPNetwork], header: ServerConfiguration.ClientIPHeader) {
        self.trustedProxies = trustedProxies
        self.header = header
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !trustedProxies.isEmpty, let peer = context.remoteAddress?.ipAddress.flatMap(IPAddress.init), isTrusted(peer) else {
            return try await next(request, context)
        }
        var context = context
        context.isFromTrustedProxy = true
        context.clientIP = client(behind: peer, hops: hops(in: request.headers)).description
        return try await next(request, context)
    }

    /// The addresses the proxies recorded, left to right; nil where an entry is not an address.
    package func hops(in headers: HTTPFields) -> [IPAddress?] {
        switch header {
        case .xForwardedFor:
            return headers[values: Self.xForwardedFor].flatMap { $0.split(separator: ",") }.map { IPAddress($0) }
        case .forwarded:
            // `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::1]:4711"` (RFC 7239).
            return headers[values: Self.forwarded].flatMap { $0.split(separator: ",") }.map { element in
                let pairs = element.split(separator: ";").map { $0.split(separator: "=", maxSplits: 1) }
                guard let value = pairs.first(where: { $0.count == 2 && $0[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" })
                else { return nil }
                return IPAddress(value[1])
            }
        }
    }

    package func client(behind peer: IPAddress, hops: [IPAddress?]) -> IPAddress {
        var client = peer
        for hop in hops.reversed() {
            guard let hop else { break }  // garbage ends the chain we can trust
            client = hop
            if !isTrusted(hop) { break }
        }
        return client
    }

    private func isTrusted(_ address: IPAddress) -> Bool {
        trustedProxies.contains { $0.contains(address) }
    }

    package static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    package static let forwarded = HTTPField.Name("Forwarded")!
}
