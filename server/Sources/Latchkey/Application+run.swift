import Hummingbird
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs until SIGTERM or SIGINT, then stops gracefully: the server stops accepting, in-flight requests finish,
    /// the mail workers finish the message in hand and the database closes. Whatever is still running after
    /// `shutdownTimeout` is cancelled, so a stuck client cannot hold the process (the run then throws). The stop is
    /// logged at `info`, as the start is, so that the log says when the service was down. A run that fails is logged at
    /// `error` and thrown as `explaining` puts it for an operator (a port in use: `ServerConfiguration.listenFailure`).
    package func runUntilStopped(shutdownTimeout: Duration, explaining: (any Error) -> StartupError? = { _ in nil }) async throws {
        var configuration = ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownTimeout
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            let explained: any Error = explaining(error) ?? error
            logger.error("Server stopped", metadata: ["error": "\(explained)"])
            throw explained
        }
        logger.info("Server stopped")
    }
}
