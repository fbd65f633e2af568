import Hummingbird
import NIOCore

/// Reads each request body in full, within `timeout` and up to the context's upload limit, before any handler
/// runs. The idle timeout alone would let a client keep a connection busy by trickling one byte at a time.
struct RequestTimeoutMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post else { return try await next(request, context) }
        let body = request.body
        let limit = context.maxUploadSize
        let timeout = timeout
        let collected = try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
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
        var request = request
        request.body = .init(buffer: collected)
        return try await next(request, context)
    }
}
