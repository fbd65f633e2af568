import Hummingbird
import HummingbirdCore
import NIOCore

/// Reads each request body in full, within `timeout` and up to the context's upload limit, before any handler
/// runs. The idle timeout alone would let a client keep a connection busy by trickling one byte at a time.
/// A body that cannot be read is the client's fault: 400 in the envelope, logged at `debug`.
///
/// A caller with a valid admin token (`AdminCredentialMiddleware` runs first) may send as much as the admin routes
/// accept (`AdminCaller.maxUploadSize`), so nobody else can make the server read more than the usual limit; each
/// route's context then holds its body to its own limit (`AdminRequestContext` for the admin routes).
struct RequestTimeoutMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        let limit = context.admin?.maxUploadSize ?? context.maxUploadSize
        // A declared length over the limit is refused before a byte of the body is read: waiting for a body that
        // will be refused anyway would only hold the connection until the timeout.
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw APIError.payloadTooLarge
        }
        let collected: ByteBuffer
        do {
            collected = try await collect(request.body, upTo: limit)
        } catch let error as APIError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            // The body fails only with its connection: broken chunked framing (NIO's `HTTPParserError`: a size that is
            // not hexadecimal or overflows), a client that closed or reset mid-body. The client's fault, not ours.
            context.logger.debug("Request body unreadable", metadata: ["error": "\(error)"])
            throw APIError.unreadableBody
        }
        var request = request
        request.body = .init(buffer: collected)
        return try await next(request, context)
    }

    private func collect(_ body: HummingbirdCore.RequestBody, upTo limit: Int) async throws -> ByteBuffer {
        let timeout = timeout
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask {
                do {
                    return try await body.collect(upTo: limit)
                } catch is NIOTooManyBytesError {
                    throw APIError.payloadTooLarge
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw APIError.requestTimeout }
            return buffer
        }
    }
}
