import Hummingbird
import LatchkeyDomain

/// `GET /metrics`: Prometheus text exposition of `ServiceMetrics`, with the outbox gauges read fresh.
struct MetricsController {
    let metrics: ServiceMetrics
    let store: any Store
    let clock: any WallClock

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self).get("metrics", use: exposition)
    }

    @Sendable func exposition(_ request: Request, context: AppRequestContext) async throws -> Response {
        let backlog = try await store.read { [hostNow = clock.now] tx in try await tx.outboxBacklog(now: try await tx.outboxNow(hostNow: hostNow)) }
        let text = metrics.exposition(backlog: backlog)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }
}
