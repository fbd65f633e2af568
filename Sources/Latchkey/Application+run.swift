import Hummingbird
import ServiceLifecycle

extension ApplicationProtocol {
    /// Runs until SIGTERM or SIGINT, then stops gracefully: the server stops accepting, in-flight requests finish,
    /// the mail workers finish the message in hand and the database closes. Whatever is still running after
    /// `shutdownTimeout` is cancelled, so a stuck client cannot hold the process (the run then throws).
    package func runUntilStopped(shutdownTimeout: Duration) async throws {
        var configuration = ServiceGroupConfiguration(services: [self], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownTimeout
        try await ServiceGroup(configuration: configuration).run()
    }
}
