import PostgresNIO
import ServiceLifecycle

/// Runs a `PostgresClient`'s connection pool from the moment the store opens (migrations need it before the server
/// starts) until the application shuts down, as one of its services.
final class PostgresClientService: Service, Sendable {
    private let running: Task<Void, Never>

    init(client: PostgresClient) {
        running = Task { await client.run() }
    }

    func run() async {
        try? await gracefulShutdown()
        running.cancel()
        await running.value
    }

    deinit {
        running.cancel()
    }
}
