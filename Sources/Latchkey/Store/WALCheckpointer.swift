import GRDB
import Logging
import ServiceLifecycle

/// Copies committed pages from the write-ahead log back into the database file, off the request path.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold, on the one writing connection,
/// so every request of that batch waited for it to copy and sync the log. This service checkpoints from a
/// connection of its own, `PASSIVE` (it never blocks the writer or readers); the writer keeps SQLite's automatic
/// checkpoint only as a backstop for when this service falls behind or is not running (the `latchkey` tools).
package struct WALCheckpointer: Service {
    /// The writer's automatic checkpoint threshold, in pages (about 40 MB of log).
    static let backstopPages = 10_000

    private let connection: DatabaseQueue
    private let interval: Duration
    private let logger: Logger

    package init(path: String, interval: Duration = .milliseconds(200), logger: Logger) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        connection = try DatabaseQueue(path: path, configuration: configuration)
        self.interval = interval
        self.logger = logger
    }

    package func run() async {
        // Shutdown cancels the sleep; closing the store's last connection checkpoints what is left.
        await cancelWhenGracefulShutdown {
            while (try? await Task.sleep(for: interval)) != nil {
                do {
                    _ = try await connection.writeWithoutTransaction { try $0.checkpoint(.passive) }
                } catch {
                    logger.warning("WAL checkpoint failed; SQLite's own checkpoint takes over", metadata: ["error": "\(error)"])
                }
            }
        }
        try? connection.close()
    }
}
