import HTTPTypes
import Hummingbird
import Logging

/// Logs each request with its path but never its query, because the emailed link carries its code there.
/// (Hummingbird's `LogRequestsMiddleware` logs the full URI.)
/// Each request is also timed into the metrics, by route pattern (never the concrete path, which could hold anything).
struct RequestLoggingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var context = context
        // One id per request in the logs, as `request.id`: a trusted proxy's, which ties our lines to its own (anything
        // odd is ignored rather than logged), else Hummingbird's; never both, and never one a client made up.
        let proxyID = request.headers[Self.requestID].flatMap { id in
            context.isFromTrustedProxy && (1...128).contains(id.utf8.count)
                && id.unicodeScalars.allSatisfy({ $0.isASCIIAlphanumeric || "-_.:".unicodeScalars.contains($0) }) ? id : nil
        }
        context.logger[metadataKey: "request.id"] = proxyID.map { "\($0)" } ?? context.logger[metadataKey: Self.hummingbirdRequestID]
        context.logger[metadataKey: Self.hummingbirdRequestID] = nil
        var metadata: Logger.Metadata = ["method": "\(request.method)", "path": "\(request.uri.path)", "ip": "\(context.clientIP ?? "-")"]
        do {
            let response = try await next(request, context)
            finish(request, context, status: response.status.code, since: start, metadata: &metadata)
            return response
        } catch {
            finish(request, context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start, metadata: &metadata)
            throw error
        }
    }

    static let requestID = HTTPField.Name("X-Request-Id")!
    /// Where Hummingbird puts the id it gives each request.
    static let hummingbirdRequestID = "hb.request.id"

    private func finish(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant, metadata: inout Logger.Metadata) {
        let elapsed = ContinuousClock.now - start
        metadata["status"] = "\(status)"
        metadata["duration_ms"] = "\(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)"
        context.logger.info("Request", metadata: metadata)
        metrics.record(request: request.method.rawValue, route: context.endpointPath ?? "NotFound", status: status, duration: elapsed)
    }
}
