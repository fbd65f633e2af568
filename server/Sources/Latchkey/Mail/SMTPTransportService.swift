import ServiceLifecycle

/// Ties the SMTP workers to the server's lifecycle: registered before the outbox, it stops after it,
/// so connections close only once no message is in flight.
struct SMTPTransportService: Service, CustomStringConvertible {
    let transport: CurlSMTPTransport

    var description: String { "SMTPTransportService" }

    func run() async throws {
        try? await gracefulShutdown()
        await transport.shutdown()
    }
}
