import Logging

/// Passes every record to the wrapped handler, except ServiceLifecycle's own records below `info`, which it treats
/// as `trace`: shown only when the configured level is `trace`.
///
/// ServiceLifecycle logs each service it starts and stops at `debug`, described by `String(describing:)`, which for
/// our services is their whole state (loggers, the store's list of applied migrations) on lines of 1,000 characters.
/// Hummingbird runs its service group with the application's logger, which must keep the configured level because
/// requests log through it, so the group's records are told apart by their source instead.
struct QuietLifecycleLogHandler: LogHandler {
    private var wrapped: any LogHandler

    init(wrapping wrapped: any LogHandler) {
        self.wrapped = wrapped
    }

    func log(event: LogEvent) {
        if event.level < .info, wrapped.logLevel > .trace, event.source == "ServiceLifecycle" { return }
        wrapped.log(event: event)
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }
}
