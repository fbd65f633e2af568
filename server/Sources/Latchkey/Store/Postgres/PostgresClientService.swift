import PostgresNIO
import ServiceLifecycle

/// Runs a `PostgresClient`'s connection pool from the moment the store opens (migrations need it before the server
/// starts) for as long as any copy of the store is in use; the last one gone stops it.
final class PostgresClientRun: Sendable {
    private let running: Task<Void, Never>

    init(client: PostgresClient) {
        running = Task { await client.run() }
    }

    func stop() async {
        running.cancel()
        await running.value
    }

    deinit {
        running.cancel()
    }
}

/// The pool as one of the application's services: it stops the pool when the application shuts down.
struct PostgresClientService: Service {
    let pool: PostgresClientRun

    func run() async {
        try? await gracefulShutdown()
        await pool.stop()
    }
}
