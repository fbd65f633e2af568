import Foundation
import Hummingbird
import LatchkeyDomain
import Logging

/// The routes, with their middleware and controllers built from the services bundle (`AppServices`); tests reach them
/// through `buildApplication`, which makes the bundle.
///
/// Every Identity Toolkit method answers under each path family Firebase clients use: `/v1/…`, the
/// project-scoped `/v1/projects/{projectId}/…` of admin SDKs, the `/identitytoolkit.googleapis.com/…` and
/// `/securetoken.googleapis.com/…` prefixes SDKs put in front of an emulator host, and the legacy v3 names.
///
/// The admin-only methods are a group of their own under each family, with `AdminRequestContext`: after the API's
/// authentication, a request without an admin token is refused by that context's creation, and an admin's body may be
/// larger there. The methods that serve both a signed-in user and an admin on one path (`accounts:lookup`,
/// `accounts:update`, `accounts:delete`, `accounts:sendOobCode`, `accounts:signUp`, …) stay in the API group, where
/// `AppRequestContext.admin` says which caller it is, as `AdminCredentialMiddleware` decided once for the request.
func buildRouter(services: AppServices, metricsEndpoint: MetricsController?, logger: Logger) throws -> Router<AppRequestContext> {
    let configuration = services.configuration
    let (store, secret, clock, metrics, pages) = (services.store, services.secret, services.clock, services.metrics, services.pages)
    let (finisher, limiter, notices, lookup) = (services.finisher, services.limiter, services.notices, services.lookup)
    let recentLogin = configuration.recentLogin
    let secondFactorPolicy = configuration.secondFactors.policy
    let projectID = configuration.projectID
    let clientAddress = ClientAddressMiddleware(trustedProxies: configuration.server.trustedProxies, header: configuration.server.clientIPHeader)
    let cors = CORSMiddleware(allowedOrigins: configuration.cors.allowedOrigins, authorizedDomains: configuration.authorizedDomains)
    let adminCredential = AdminCredentialMiddleware(admin: services.admin)
    let requestTimeout = RequestTimeoutMiddleware(timeout: .seconds(configuration.server.requestTimeoutSeconds))
    let authentication = ClientAuthenticationMiddleware(apiKeys: configuration.apiKeys, quota: services.quota)
    let identityToolkit = IdentityToolkitController(
        issuer: services.issuer,
        completer: LinkCompleter(
            store: store, authentication: services.authentication, secret: secret, clock: clock, finisher: finisher, recentLogin: recentLogin,
            limiter: limiter, undos: services.actionIssuer, acceptsTypedCode: configuration.emailLink.typedCode, metrics: metrics.counters),
        actionIssuer: services.actionIssuer, actionCodes: services.actionCodes, authorizedDomains: configuration.authorizedDomains,
        apps: configuration.apps)
    let providerSignIn = ProviderSignInController(
        signIn: ProviderSignIn(
            store: store,
            assertion: ProviderAssertion(
                providers: services.providers, discovery: services.discovery, verifier: IDTokenVerifier(discovery: services.discovery, clock: clock),
                store: store, secret: secret, clock: clock),
            authentication: services.authentication, limiter: limiter, clock: clock, finisher: finisher, notices: notices, recentLogin: recentLogin,
            allowsDuplicateEmails: configuration.identityProviders.allowsDuplicateEmails,
            enumerationProtection: configuration.security.emailEnumerationProtection))
    let administration = AccountAdministration(
        store: store, authentication: services.authentication, actionCodes: services.actionCodes, hasher: services.hasher, clock: clock,
        finisher: finisher, notices: notices, recentLogin: recentLogin, passwordPolicy: configuration.passwordPolicy, metrics: metrics.counters)
    let accounts = AccountsController(
        passwords: services.passwords, administration: administration, lookup: lookup,
        authURIs: AuthURIs(authorization: services.authorization, lookup: lookup, authorizedDomains: configuration.authorizedDomains))
    let accountUpdates = AccountUpdatesController(
        administration: administration,
        undoCancellation: UndoCancellation(store: store, authentication: services.authentication, clock: clock, recentLogin: recentLogin))
    let accountImport = AccountImportController(
        batchCreate: FirebaseBatchCreate(importer: AccountImporter(store: store, hasher: services.hasher, clock: clock), clock: clock))
    let secondFactors = SecondFactorController(
        enrollments: SecondFactorEnrollments(
            store: store, authentication: services.authentication, secret: secret, clock: clock, finisher: finisher, notices: notices,
            policy: secondFactorPolicy, recentLogin: recentLogin, texting: services.texting),
        signIn: SecondFactorSignIn(
            store: store, secret: secret, clock: clock, finisher: finisher, policy: secondFactorPolicy, limiter: limiter, notices: notices,
            texting: services.texting))
    let providerConfigs = ProviderConfigController(
        administration: ProviderConfigAdministration(directory: services.providers, clock: clock), projectID: projectID)
    let projectConfig = ProjectConfigController(
        projectID: projectID, authorizedDomains: configuration.authorizedDomains, secondFactors: secondFactorPolicy,
        passwordPolicy: configuration.passwordPolicy, regions: configuration.sms.regions)
    let secureToken = SecureTokenController(
        refresher: SessionRefresher(store: store, secret: secret, clock: clock, minter: services.minter), projectID: projectID)
    let wellKnown = WellKnownController(
        tokens: services.tokens, store: store, clock: clock, publicURL: configuration.publicURL.absoluteString,
        openAPIDocument: openAPIDocument(configuration, logger: logger))
    let action = ActionController(
        inspector: LinkInspector(store: store, secret: secret, clock: clock), authorizedDomains: configuration.authorizedDomains,
        apps: configuration.apps, pages: pages, appName: configuration.appName, publicURL: configuration.publicURL)
    let report = SignInReportController(
        coolOffs: CoolOffs(
            store: store, secret: secret, clock: clock, duration: TimeInterval(configuration.emailLink.coolOffSeconds), limiter: limiter),
        pages: pages, appName: configuration.appName, coolOffHours: (configuration.emailLink.coolOffSeconds + 3_599) / 3_600)
    let providerHandler = ProviderHandlerController(
        authorization: services.authorization, secret: secret, apiKeys: configuration.apiKeys, quota: services.quota,
        apps: configuration.apps, authorizedDomains: configuration.authorizedDomains, pages: pages, appName: configuration.appName,
        publicURL: configuration.publicURL)
    let appLinks = AppLinksController(apps: configuration.apps)
    let customTokens = CustomTokenController(signIn: services.customTokens)
    let tokenRevocation = TokenRevocationController(
        revocation: AppleTokenRevocation(
            lookup: lookup, providers: services.providers, discovery: services.discovery, limiter: limiter, clock: clock))
    let sessionCookies = SessionCookieController(
        sessionCookies: SessionCookies(store: store, authentication: services.authentication, tokens: services.tokens, clock: clock))
    let appVerification = AppVerificationController(
        verification: services.appVerification, siteKey: configuration.appVerification.captcha?.siteKey)
    let phoneSignIn = PhoneSignInController(
        signIn: PhoneSignIn(
            store: store, authentication: services.authentication, finisher: finisher, texting: services.texting, limiter: limiter, clock: clock,
            recentLogin: recentLogin))
    let development = try developmentEndpoints(configuration, pages: pages, logger: logger)

    func addRoutes(to router: Router<AppRequestContext>) {
        router.addRoutes(wellKnown.endpoints)
        router.addRoutes(action.endpoints)
        router.addRoutes(report.endpoints)
        router.addRoutes(providerHandler.endpoints)
        router.addRoutes(appLinks.endpoints)
        development.forEach { router.addRoutes($0) }
        if let metricsEndpoint { router.addRoutes(metricsEndpoint.endpoints) }

        let methods = [
            identityToolkit.endpoints, providerSignIn.endpoints, accounts.endpoints, accountUpdates.endpoints, customTokens.endpoints,
            appVerification.endpoints, phoneSignIn.endpoints,
        ]
        for prefix in ["v1", "identitytoolkit.googleapis.com/v1"] {
            let group = router.group(RouterPath(prefix)).add(middleware: authentication)
            methods.forEach { group.addRoutes($0) }
            group.get("projects", use: projectConfig.projectConfig)
            group.get("recaptchaParams", use: appVerification.recaptchaParams)
            let admin = group.group(context: AdminRequestContext.self)
            [accounts.adminEndpoints, accountUpdates.adminEndpoints, accountImport.endpoints].forEach { admin.addRoutes($0) }
            let project = group.group("projects/{projectId}").add(middleware: ProjectScopeMiddleware(projectID: projectID))
            methods.forEach { project.addRoutes($0) }
            let projectAdmin = project.group(context: AdminRequestContext.self)
            [accounts.adminEndpoints, accountUpdates.adminEndpoints, accountImport.endpoints].forEach { projectAdmin.addRoutes($0) }
            projectAdmin.post("accounts", use: accountUpdates.createAccount)
            project.post("tenants/**") { _, _ -> HTTPResponse.Status in throw SignInError.tenantsNotSupported }
            // `projects/{projectId}:createSessionCookie`: the project is part of the method's segment, not a group of its own.
            group.group().add(middleware: ProjectScopeMiddleware(projectID: projectID)).group(context: AdminRequestContext.self)
                .addRoutes(sessionCookies.endpoints)
        }
        // Identity Toolkit v2: second factors, Apple's token revocation, reCAPTCHA's (absent) enforcement, the password
        // policy, and the admin API for identity providers and the project's configuration.
        for prefix in ["v2", "identitytoolkit.googleapis.com/v2"] {
            let group = router.group(RouterPath(prefix)).add(middleware: authentication)
            [secondFactors.endpoints, tokenRevocation.endpoints].forEach { group.addRoutes($0) }
            group.get("recaptchaConfig", use: projectConfig.recaptchaConfig)
            group.get("passwordPolicy", use: projectConfig.passwordPolicy)
            let project = group.group("projects/{projectId}").add(middleware: ProjectScopeMiddleware(projectID: projectID))
            [secondFactors.endpoints, tokenRevocation.endpoints].forEach { project.addRoutes($0) }
            project.get("recaptchaConfig", use: projectConfig.recaptchaConfig)
            project.get("passwordPolicy", use: projectConfig.passwordPolicy)
            let projectAdmin = project.group(context: AdminRequestContext.self)
            projectAdmin.addRoutes(providerConfigs.endpoints)
            projectAdmin.get("config", use: projectConfig.adminConfig)
            for method in [HTTPRequest.Method.get, .post, .patch, .delete] {
                project.on("tenants/**", method: method) { _, _ -> HTTPResponse.Status in throw SignInError.tenantsNotSupported }
            }
        }
        for prefix in ["v1", "securetoken.googleapis.com/v1"] {
            router.group(RouterPath(prefix)).add(middleware: authentication).addRoutes(secureToken.endpoints)
        }
        router.group("www.googleapis.com/identitytoolkit/v3/relyingparty").add(middleware: authentication)
            .post("getOobConfirmationCode", use: identityToolkit.sendOobCode)
            .post("emailLinkSignin", use: identityToolkit.signInWithEmailLink)
            .post("resetPassword", use: identityToolkit.resetPassword)
            .post("createAuthUri", use: accounts.createAuthUri)
            .post("getAccountInfo", use: accounts.lookupAccount)
            .post("setAccountInfo", use: accountUpdates.update)
            .post("deleteAccount", use: accountUpdates.delete)
            .post("signupNewUser", use: accounts.signUp)
            .post("verifyPassword", use: accounts.signInWithPassword)
            .post("verifyAssertion", use: providerSignIn.signInWithIdp)
            .post("verifyCustomToken", use: customTokens.signInWithCustomToken)
            .post("sendVerificationCode", use: phoneSignIn.sendVerificationCode)
            .post("verifyPhoneNumber", use: phoneSignIn.signInWithPhoneNumber)
            .get("getProjectConfig", use: projectConfig.projectConfig)
    }
    // Routes are registered twice: once to learn every path's methods, once for real behind the middleware.
    let catalogue = Router(context: AppRequestContext.self)
    addRoutes(to: catalogue)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.addMiddleware {
        clientAddress
        RequestLoggingMiddleware(metrics: metrics)
        CachePolicyMiddleware()
        HeadRequestMiddleware()
        cors
        // Inside CORS, cache policy and HEAD, so that errors get their headers like any answer.
        ErrorMiddleware(metrics: metrics.counters)
        MethodNotAllowedMiddleware(routes: catalogue.routes)
        // Who the caller is decides how large a body may be read.
        adminCredential
        requestTimeout
    }
    addRoutes(to: router)
    return router
}

/// Refuses project-scoped paths that name another project.
struct ProjectScopeMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let projectID: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard context.parameters.get("projectId") == projectID else {
            throw APIError(status: .notFound, message: "PROJECT_NOT_FOUND", reason: "notFound", rpcStatus: "NOT_FOUND")
        }
        return try await next(request, context)
    }
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
