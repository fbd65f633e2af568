import Foundation
import Logging
import Synchronization

/// Writes each log event as one JSON object per line on standard error, for log shippers:
/// `{"time":…,"level":"info","label":"latchkey","message":"Request","path":…,"status":"200",…}`.
///
/// Metadata keys sit at the top level next to the fixed fields (a metadata key never replaces them).
package struct JSONLogHandler: LogHandler {
    package var metadata: Logger.Metadata = [:]
    package var logLevel: Logger.Level = .info
    private let label: String

    package init(label: String) {
        self.label = label
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var fields: [String: Any] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { fields[key] = Self.plain(value) }
        fields["time"] = Self.timestamp.withLock { $0.string(from: Date()) }
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = event.message.description
        guard var data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        data.append(0x0A)
        FileHandle.standardError.write(data)
    }

    private static func plain(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }

    private static let timestamp = Mutex(ISO8601DateFormatter.withFractionalSeconds)
}

extension ISO8601DateFormatter {
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
