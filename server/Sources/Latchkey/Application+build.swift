import Foundation
import Hummingbird
import LatchkeyDomain
import Logging
import ServiceLifecycle

/// Builds the whole service from its configuration: the one place real dependencies are created.
///
/// `main` and the tests call this same function; tests change the configuration (a temp directory,
/// port 0) and may pass a fixed clock, and the templates of `configuration.templatesDirectory` compiled once for the
/// hundreds of apps a test run builds (compiling them takes a tenth of a second of CPU in a debug build).
package func buildApplication(
    _ configuration: AppConfiguration, clock: any WallClock = SystemWallClock(), logger: Logger? = nil,
    templates compiled: TemplateLibrary? = nil
) async throws -> some ApplicationProtocol {
    var logger = logger ?? Logger(label: "latchkey")
    logger.logLevel = configuration.logLevel
    // The service groups log every service's whole state at debug; that is trace for us.
    logger.handler = QuietLifecycleLogHandler(wrapping: logger.handler)

    let isDevelopment = configuration.mode == .development
    let secret = try ServerSecret.load(configuration.security, creatingIfMissing: isDevelopment)
    let opened = try await makeStore(configuration, clock: clock, logger: logger)
    let (tokens, keyReloader, signing) = try await makeTokens(
        configuration, store: opened.store, secret: secret, creatingIfMissing: isDevelopment, clock: clock, logger: logger)
    let templates = if let compiled { compiled } else { try await TemplateLibrary(directory: configuration.templatesDirectory) }
    let renderer = try EmailRenderer(templates: templates, sender: configuration.sender, appName: configuration.appName)
    let mail = try makeMail(configuration)
    let texts = try makeTexts(configuration, templates: templates, clock: clock)
    let outbox = OutboxSignal()
    let discovery = ProviderDiscovery(clock: clock, allowsInsecureIssuers: configuration.identityProviders.allowsInsecureIssuers)
    let serviceAccounts = await ServiceAccountTokens(
        configuration.serviceAccounts, projectID: configuration.projectID, acceptsUnsigned: isDevelopment, discovery: discovery, clock: clock)
    let services = AppServices(
        configuration: configuration, clock: clock, store: opened.store, secret: secret, tokens: tokens,
        pages: try PageRenderer(templates: templates, development: isDevelopment), metrics: ServiceMetrics(), outbox: outbox, discovery: discovery,
        serviceAccounts: serviceAccounts, appVerifiers: AppVerifiers(configuration, clock: clock, logger: logger))
    let metrics = services.metrics
    let observability = configuration.observability
    let metricsEndpoint = MetricsController(metrics: metrics, store: opened.store, clock: clock)
    let router = try buildRouter(
        services: services, metricsEndpoint: observability.metricsEnabled && observability.metricsPort == nil ? metricsEndpoint : nil, logger: logger)

    var app = Application(
        router: router, server: .http1(configuration: configuration.server.http1),
        configuration: .init(address: .hostname(configuration.server.host, port: configuration.server.port), serverName: "Latchkey"),
        logger: logger)
    app.addServices(opened.services)
    app.addServices(keyReloader)
    if observability.metricsEnabled, let port = observability.metricsPort {
        let metricsRouter = Router(context: AppRequestContext.self)
        metricsRouter.addRoutes(metricsEndpoint.endpoints)
        app.addServices(
            Application(
                router: metricsRouter, configuration: .init(address: .hostname(configuration.server.host, port: port), serverName: "Latchkey"),
                logger: logger))
    }
    if configuration.mail.delivery.workers > 0 {
        app.addServices(mail.services)
        app.addServices(
            OutboxDeliveryService(
                store: opened.store, secret: secret, renderer: renderer, transport: mail.transport, texts: texts, clock: clock,
                signal: outbox,
                policy: configuration.mail.delivery, logger: logger, metrics: metrics.counters))
    }
    // Its own line: the start-up line is kept within what an operator reads in a terminal (300 characters).
    logger.info("Texts go through the outbox", metadata: ["sms": "\(configuration.sms.summary)"])
    logger.info(
        "Latchkey starting",
        metadata: [
            "version": "\(Release.version)", "listen": "\(configuration.server.host):\(configuration.server.port)",
            "store": "\(opened.summary)",
            "mail": "\(configuration.mail.transport.rawValue) (\(configuration.mail.delivery.workers) workers)",
            "mode": "\(configuration.mode.rawValue)", "tokens": "\(signing)",
            "customTokens": "\(serviceAccounts.summary)",
        ])
    configuration.appVerification.logSummary(logger)
    return app
}
