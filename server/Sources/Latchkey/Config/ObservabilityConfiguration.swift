/// Metrics and log format.
///
/// - `metrics.enabled` (boolean, default `true`): serve Prometheus metrics at `GET /metrics`.
/// - `metrics.port` (integer, default none): serve them on this port of `server.host` instead of the main
///   port, so the public listener never exposes them.
/// - `logFormat` (`"text"` or `"json"`, default `"text"`): `json` writes one JSON object per line.
/// - `audit.retentionDays` (integer, default `90`, 1 to 3650): how long audit events are kept.
package struct ObservabilityConfiguration: Sendable {
    /// How log lines are written.
    package enum LogFormat: String, Sendable, CaseIterable {
        case text
        case json
    }

    package var metricsEnabled: Bool
    package var metricsPort: Int?
    package var logFormat: LogFormat
    package var auditRetentionDays: Int

    init(_ read: inout ConfigSectionReader) {
        metricsEnabled = read.bool("metrics.enabled") ?? true
        metricsPort = read.int("metrics.port").map { port in
            if !(1...65535).contains(port) { read.problems.add("metrics.port", "must be between 1 and 65535, got \(port)") }
            return port
        }
        logFormat = read.choice("logFormat", default: LogFormat.text)
        auditRetentionDays = read.int("audit.retentionDays", default: 90, in: 1...3650)
    }
}
