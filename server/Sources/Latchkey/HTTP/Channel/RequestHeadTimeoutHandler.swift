import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request head (request line and headers) does not arrive whole within `timeout`.
///
/// Hummingbird's idle timeout counts from the last decoded part, so a client sending a header line now and then
/// would hold the connection for the whole idle timeout (a minute by default, up to an hour), and a few hundred such
/// clients hold every connection. This handler sits after the HTTP decoder: a read that decoded no part delivered
/// bytes of a head still incomplete, so the clock starts there and stops when the head is decoded. Between requests
/// nothing is read, so an idle keep-alive connection is left to the idle timeout; once the head is in, a body
/// trickled in is left to the request timeout (`RequestTimeoutMiddleware`).
final class RequestHeadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    /// Whether a head has arrived and its request has not ended.
    private var isReadingRequest = false
    /// Whether the current read decoded any part.
    private var hasDecodedPart = false
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        hasDecodedPart = true
        switch unwrapInboundIn(data) {
        case .head:
            isReadingRequest = true
            cancelDeadline()
        case .body:
            break
        case .end:
            isReadingRequest = false
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if !hasDecodedPart, !isReadingRequest, deadline == nil {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                // Nothing has been answered on this request, and nothing can be: it has no head to answer.
                context.close(promise: nil)
            }
        }
        hasDecodedPart = false
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadline()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadline()
    }

    private func cancelDeadline() {
        deadline?.cancel()
        deadline = nil
    }
}
