import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection after an answer that says `Connection: close`, as HTTP/1.1 asks of the server that sends it
/// (RFC 9112 §9.6).
///
/// Hummingbird keeps a connection open unless the request asked to close it. Our answers given before the whole
/// request was read (413 for a declared length over the limit, 408, 400 for a broken body) say `close` because what
/// follows on the connection is the rest of that body, not a request; without this the connection would wait for it.
/// The close is staged as §9.6 advises: the sending side first, so the client reads the answer to its end, while
/// Hummingbird goes on reading and dropping what the client still sends; the whole connection `linger` later, so a
/// client that keeps sending cannot hold it. Closing at once could reset the connection before the client has read
/// the answer.
final class ConnectionCloseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let linger: TimeAmount
    /// Whether the answer being written says `Connection: close`.
    private var isClosing = false

    init(linger: TimeAmount = .seconds(2)) {
        self.linger = linger
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            isClosing = head.headerFields[.connection].map(Self.saysClose) ?? false
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard isClosing else { return context.write(data, promise: promise) }
            isClosing = false
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            let linger = linger
            written.futureResult.assumeIsolated().whenComplete { _ in
                context.close(mode: .output, promise: nil)
                context.eventLoop.assumeIsolated().scheduleTask(in: linger) { context.close(promise: nil) }
            }
        }
    }

    /// `Connection` is a comma-separated list of case-insensitive options.
    private static func saysClose(_ value: String) -> Bool {
        value.split(separator: ",").contains { $0.filter { $0 != " " && $0 != "\t" }.lowercased() == "close" }
    }
}
