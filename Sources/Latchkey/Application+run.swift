import Hummingbird
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs until SIGTERM or SIGINT, then stops gracefully: the server stops accepting, in-flight requests finish,
    /// the mail workers finish the message in hand and the database closes. Whatever is still running after
    /// `shutdownTimeout` is cancelled, so a stuck client cannot hold the process (the run then throws). The stop is
    /// logged at `info`, as the start is, so that the log says when the service was down.
    package func runUntilStopped(shutdownTimeout: Duration) async throws {
        var configuration = ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownTimeout
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            logger.error("Server stopped", metadata: ["error": "\(error)"])
            throw error
        }
        logger.info("Server stopped")
    }
}
