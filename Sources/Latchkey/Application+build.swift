import Foundation
import Hummingbird
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
    let store = opened.store
    let (tokens, keyReloader) = try await makeTokens(
        configuration, store: store, secret: secret, creatingIfMissing: isDevelopment, clock: clock, logger: logger)
    let templates = if let compiled { compiled } else { try await TemplateLibrary(directory: configuration.templatesDirectory) }
    let renderer = try EmailRenderer(templates: templates, sender: configuration.sender, appName: configuration.appName)
    let pages = try PageRenderer(templates: templates, development: isDevelopment)
    let transport: any MailTransport
    var mailServices: [any Service] = []
    switch configuration.mail.transport {
    case .file:
        transport = try FileMailTransport(directory: configuration.mail.fileDirectory)
    case .smtp:
        guard let settings = configuration.mail.smtp else { throw StartupError("mail.smtp: missing for mail.transport \"smtp\"") }
        let smtp = try CurlSMTPTransport(settings: settings)
        transport = smtp
        mailServices.append(SMTPTransportService(transport: smtp))
    }
    let outbox = OutboxSignal()
    let metrics = ServiceMetrics()
    let observability = configuration.observability
    let metricsEndpoint = MetricsController(metrics: metrics, store: store, clock: clock)

    let hasher = PasswordHasher(cost: configuration.security.passwordHashCost, secret: secret, limits: configuration.security.passwordHashing)
    let minter = SessionMinter(tokens: tokens, secret: secret)
    let secondFactors = configuration.secondFactors.policy
    let finisher = SignInFinisher(minter: minter, secondFactors: secondFactors)
    let notices = SecurityNotices(secret: secret, outbox: outbox)
    let recentLogin = TimeInterval(configuration.security.recentLoginSeconds)
    let enumerationProtection = configuration.security.emailEnumerationProtection
    let authentication = Authentication(tokens: tokens)
    let lookup = AccountLookup(
        store: store, tokens: tokens, enumerationProtection: enumerationProtection,
        allowsDuplicateEmails: configuration.identityProviders.allowsDuplicateEmails)
    let admin = AdminAuthorization(tokens: configuration.adminTokens)
    let limiter = RateLimiter(limits: configuration.rateLimits.limits, secret: secret, store: store, clock: clock)
    let issuer = LinkIssuer(
        secret: secret, clock: clock, outbox: outbox, publicURL: configuration.publicURL,
        codeLifetime: TimeInterval(configuration.emailLink.codeLifetimeSeconds), showsTypedCode: configuration.emailLink.typedCode,
        isDevelopment: isDevelopment,
        enumerationProtection: enumerationProtection, limiter: limiter, metrics: metrics)
    let actionIssuer = ActionCodeIssuer(
        secret: secret, clock: clock, outbox: outbox, publicURL: configuration.publicURL, lifetimes: ActionLifetimes(configuration.emailActions.lifetimes),
        enumerationProtection: enumerationProtection, undoAPIKey: configuration.apiKeys.sorted().first ?? "", isDevelopment: isDevelopment,
        recentLogin: recentLogin, limiter: limiter, metrics: metrics)
    let actionCodes = ActionCodes(
        store: store, secret: secret, clock: clock, hasher: hasher, issuer: actionIssuer, limiter: limiter, metrics: metrics)
    let passwords = PasswordAccounts(
        store: store, hasher: hasher, clock: clock, finisher: finisher, enumerationProtection: enumerationProtection, limiter: limiter,
        notices: notices, recentLogin: recentLogin, metrics: metrics)
    let providers = ProviderDirectory(file: configuration.identityProviders, store: store, secret: secret)
    let discovery = ProviderDiscovery(clock: clock, allowsInsecureIssuers: configuration.identityProviders.allowsInsecureIssuers)
    let authorization = ProviderAuthorization(providers: providers, discovery: discovery, store: store, secret: secret, clock: clock)
    let quota = APIKeyQuota(requestsPerMinute: configuration.rateLimits.apiKeyRequestsPerMinute, clock: clock)
    let router = buildRouter(
        projectID: configuration.projectID,
        clientAddress: ClientAddressMiddleware(
            trustedProxies: configuration.server.trustedProxies, header: configuration.server.clientIPHeader),
        cors: CORSMiddleware(allowedOrigins: configuration.cors.allowedOrigins, authorizedDomains: configuration.authorizedDomains),
        requestTimeout: RequestTimeoutMiddleware(
            timeout: .seconds(configuration.server.requestTimeoutSeconds), admin: admin, adminImportLimit: configuration.server.maxAdminBodyBytes),
        authentication: ClientAuthenticationMiddleware(
            apiKeys: configuration.apiKeys, admin: admin,
            quota: quota),
        identityToolkit: IdentityToolkitController(
            issuer: issuer, completer: LinkCompleter(
                store: store, authentication: authentication, secret: secret, clock: clock, finisher: finisher, recentLogin: recentLogin,
                limiter: limiter, undos: actionIssuer, acceptsTypedCode: configuration.emailLink.typedCode, metrics: metrics),
            actionIssuer: actionIssuer, actionCodes: actionCodes, lookup: lookup, authorizedDomains: configuration.authorizedDomains, apps: configuration.apps),
        providerSignIn: ProviderSignInController(
            signIn: ProviderSignIn(
                store: store,
                assertion: ProviderAssertion(
                    providers: providers, discovery: discovery, verifier: IDTokenVerifier(discovery: discovery, clock: clock), store: store,
                    secret: secret, clock: clock),
                tokens: tokens, limiter: limiter, clock: clock, finisher: finisher, notices: notices, recentLogin: recentLogin,
                allowsDuplicateEmails: configuration.identityProviders.allowsDuplicateEmails,
                enumerationProtection: enumerationProtection)),
        accounts: AccountsController(
            passwords: passwords, lookup: lookup, authorization: authorization, authorizedDomains: configuration.authorizedDomains),
        accountUpdates: AccountUpdatesController(
            administration: AccountAdministration(
                store: store, hasher: hasher, clock: clock, finisher: finisher, notices: notices, recentLogin: recentLogin),
            undoCancellation: UndoCancellation(store: store, authentication: authentication, clock: clock, recentLogin: recentLogin),
            passwords: passwords, lookup: lookup, actionCodes: actionCodes),
        accountImport: AccountImportController(importer: AccountImporter(store: store, hasher: hasher, clock: clock), clock: clock),
        secondFactors: SecondFactorController(
            enrollments: SecondFactorEnrollments(
                store: store, authentication: authentication, secret: secret, clock: clock, finisher: finisher, notices: notices,
                policy: secondFactors, recentLogin: recentLogin),
            signIn: SecondFactorSignIn(
                store: store, secret: secret, clock: clock, finisher: finisher, policy: secondFactors, limiter: limiter, notices: notices)),
        providerConfigs: ProviderConfigController(
            administration: ProviderConfigAdministration(directory: providers, clock: clock), projectID: configuration.projectID),
        projectConfig: ProjectConfigController(
            projectID: configuration.projectID, authorizedDomains: configuration.authorizedDomains, secondFactors: secondFactors),
        secureToken: SecureTokenController(
            refresher: SessionRefresher(store: store, secret: secret, clock: clock, minter: minter), projectID: configuration.projectID),
        wellKnown: WellKnownController(
            tokens: tokens, store: store, clock: clock, publicURL: configuration.publicURL.absoluteString,
            openAPIDocument: openAPIDocument(configuration, logger: logger)),
        action: ActionController(
            inspector: LinkInspector(store: store, secret: secret, clock: clock), authorizedDomains: configuration.authorizedDomains,
            apps: configuration.apps, pages: pages, appName: configuration.appName, publicURL: configuration.publicURL),
        report: SignInReportController(
            coolOffs: CoolOffs(
                store: store, secret: secret, clock: clock, duration: TimeInterval(configuration.emailLink.coolOffSeconds), limiter: limiter),
            pages: pages, appName: configuration.appName, coolOffHours: (configuration.emailLink.coolOffSeconds + 3_599) / 3_600),
        providerHandler: ProviderHandlerController(
            authorization: authorization, store: store, secret: secret, clock: clock, apiKeys: configuration.apiKeys, quota: quota,
            apps: configuration.apps, authorizedDomains: configuration.authorizedDomains, pages: pages, appName: configuration.appName,
            publicURL: configuration.publicURL),
        appLinks: AppLinksController(apps: configuration.apps),
        development: try developmentEndpoints(configuration, pages: pages, logger: logger),
        metrics: metrics,
        metricsEndpoint: observability.metricsEnabled && observability.metricsPort == nil ? metricsEndpoint : nil)

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
        app.addServices(mailServices)
        app.addServices(
            OutboxDeliveryService(
                store: store, secret: secret, renderer: renderer, transport: transport, clock: clock, signal: outbox, policy: configuration.mail.delivery,
                logger: logger, metrics: metrics))
    }
    logger.info(
        "Latchkey starting",
        metadata: [
            "version": "\(Release.version)", "listen": "\(configuration.server.host):\(configuration.server.port)",
            "store": "\(opened.summary)",
            "mail": "\(configuration.mail.transport.rawValue) (\(configuration.mail.delivery.workers) workers)",
            "mode": "\(configuration.mode.rawValue)", "tokens": "\(configuration.tokens.algorithm.rawValue)",
        ])
    return app
}

/// The document `GET /openapi.json` serves, read once; without one the route answers 404, which the start-up log says
/// with the path looked for (a relative one resolves from the working directory, `/var/lib/latchkey` under systemd).
private func openAPIDocument(_ configuration: AppConfiguration, logger: Logger) -> ByteBuffer? {
    guard let document = FileManager.default.contents(atPath: configuration.openAPIDocument) else {
        logger.warning(
            "No OpenAPI document: GET /openapi.json answers 404",
            metadata: ["openAPIDocument": "\(URL(fileURLWithPath: configuration.openAPIDocument).path)"])
        return nil
    }
    return ByteBuffer(bytes: document)
}
