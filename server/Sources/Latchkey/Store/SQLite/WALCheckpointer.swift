import GRDB
import Logging
import ServiceLifecycle

/// Copies committed pages from the write-ahead log back into the database file, off the request path.
///
/// SQLite's automatic checkpoint runs inside the commit that crosses its threshold (1,000 pages), on the one
/// writing connection, so every request of that batch waited while it copied and synced the log. This service
/// checkpoints from a connection of its own every 50 ms, `PASSIVE` (it never blocks the writer or readers), so
/// when the writer's own checkpoint comes due there is little left for it to copy. The writer keeps that automatic
/// checkpoint: it bounds the log (about 4 MB) and restarts it, which a checkpoint running beside the writer cannot.
package struct WALCheckpointer: Service {
    private let connection: DatabaseQueue
    private let interval: Duration
    private let logger: Logger

    package init(path: String, interval: Duration = .milliseconds(50), logger: Logger) throws {
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
