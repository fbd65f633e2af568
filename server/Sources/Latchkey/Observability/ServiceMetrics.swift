import Foundation
import LatchkeyDomain
import Metrics
import Prometheus
import Synchronization

/// What `GET /metrics` reports, through swift-metrics onto a Prometheus registry of this service's own: the request
/// timers and outbox gauges kept here, and the domain's `counters`.
///
/// Nothing is bootstrapped process-wide (swift-metrics allows that once per process), so every application
/// and every test builds its own and no number leaks from one into another.
package final class ServiceMetrics: Sendable {
    private struct RouteKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// The domain's counters, on this registry.
    package let counters: SignInMetrics
    private let requestTimers = Mutex<[RouteKey: Metrics.Timer]>([:])
    private let outboxDepth: Metrics.Gauge
    private let outboxOldestAge: Metrics.Gauge

    package init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000].map { .milliseconds($0) }
        self.factory = factory
        counters = SignInMetrics(factory: factory)
        outboxDepth = Metrics.Gauge(label: "latchkey_outbox_depth", factory: factory)
        outboxOldestAge = Metrics.Gauge(label: "latchkey_outbox_oldest_age_seconds", factory: factory)
    }

    package func record(request method: String, route: String, status: Int, duration: Duration) {
        let key = RouteKey(method: method, route: route, status: status)
        // The registry looks series up under a lock with string keys; a cached timer per series is cheaper.
        let timer = requestTimers.withLock { timers in
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(
                label: "latchkey_http_request_duration_seconds",
                dimensions: [("method", method), ("route", route), ("status", String(status))], factory: factory)
            timers[key] = timer
            return timer
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    /// The Prometheus text, with the outbox gauges set from `backlog` first.
    package func exposition(backlog: OutboxBacklog) -> [UInt8] {
        outboxDepth.record(backlog.count)
        outboxOldestAge.record(backlog.oldestAge)
        return registry.emitToBuffer()
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
