import HTTPTypes
import Hummingbird
import Logging

/// Logs each request with its path but never its query, because the emailed link carries its code there.
/// (Hummingbird's `LogRequestsMiddleware` logs the full URI.)
struct RequestLoggingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        // A proxy's request id ties our log lines to its own; anything odd is ignored rather than logged.
        if let id = request.headers[Self.requestID], (1...128).contains(id.utf8.count),
            id.unicodeScalars.allSatisfy({ $0.isASCIIAlphanumeric || "-_.:".unicodeScalars.contains($0) })
        {
            context.logger[metadataKey: "request.id"] = "\(id)"
        }
        var metadata: Logger.Metadata = ["method": "\(request.method)", "path": "\(request.uri.path)", "ip": "\(context.clientIP ?? "-")"]
        do {
            let response = try await next(request, context)
            metadata["status"] = "\(response.status.code)"
            metadata["duration_ms"] = "\(Self.milliseconds(since: start))"
            context.logger.info("Request", metadata: metadata)
            return response
        } catch {
            metadata["status"] = "\((error as? any HTTPResponseError)?.status.code ?? 500)"
            metadata["duration_ms"] = "\(Self.milliseconds(since: start))"
            context.logger.info("Request", metadata: metadata)
            throw error
        }
    }

    static let requestID = HTTPField.Name("X-Request-Id")!

    private static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
