import PostgresNIO
import ServiceLifecycle

/// Runs the store's connection pools (one per host) and the route between them from the moment the store opens
/// (migrations need them before the server starts) for as long as any copy of the store is in use; the last one gone
/// stops them.
final class PostgresClientRun: Sendable {
    private let running: Task<Void, Never>

    init(clients: [PostgresClient], route: PrimaryRoute) {
        running = Task {
            await withDiscardingTaskGroup { group in
                for client in clients { group.addTask { await client.run() } }
                group.addTask { await route.run() }
            }
        }
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
