import Hummingbird

/// The routes, with their controllers passed in so tests can swap any dependency.
///
/// Every Identity Toolkit method answers under each path family Firebase clients use: `/v1/…`, the
/// project-scoped `/v1/projects/{projectId}/…` of admin SDKs, the `/identitytoolkit.googleapis.com/…` and
/// `/securetoken.googleapis.com/…` prefixes SDKs put in front of an emulator host, and the legacy v3 names.
func buildRouter(
    projectID: String, clientAddress: ClientAddressMiddleware, cors: CORSMiddleware, requestTimeout: RequestTimeoutMiddleware,
    authentication: ClientAuthenticationMiddleware, identityToolkit: IdentityToolkitController, providerSignIn: ProviderSignInController,
    accounts: AccountsController, accountUpdates: AccountUpdatesController, accountImport: AccountImportController, secondFactors: SecondFactorController,
    providerConfigs: ProviderConfigController,
    projectConfig: ProjectConfigController, secureToken: SecureTokenController, wellKnown: WellKnownController,
    action: ActionController, report: SignInReportController, providerHandler: ProviderHandlerController, appLinks: AppLinksController, development: [RouteCollection<AppRequestContext>], metrics: ServiceMetrics,
    metricsEndpoint: MetricsController?
) -> Router<AppRequestContext> {
    func addRoutes(to router: Router<AppRequestContext>) {
        router.addRoutes(wellKnown.endpoints)
        router.addRoutes(action.endpoints)
        router.addRoutes(report.endpoints)
        router.addRoutes(providerHandler.endpoints)
        router.addRoutes(appLinks.endpoints)
        development.forEach { router.addRoutes($0) }
        if let metricsEndpoint { router.addRoutes(metricsEndpoint.endpoints) }

        let methods = [identityToolkit.endpoints, providerSignIn.endpoints, accounts.endpoints, accountUpdates.endpoints, accountImport.endpoints]
        for prefix in ["v1", "identitytoolkit.googleapis.com/v1"] {
            let group = router.group(RouterPath(prefix)).add(middleware: authentication)
            methods.forEach { group.addRoutes($0) }
            group.get("projects", use: projectConfig.projectConfig)
            let project = group.group("projects/{projectId}").add(middleware: ProjectScopeMiddleware(projectID: projectID))
            methods.forEach { project.addRoutes($0) }
            project.post("accounts", use: accountUpdates.createAccount)
            project.post("tenants/**") { _, _ -> HTTPResponse.Status in throw SignInError.tenantsNotSupported }
        }
        // Identity Toolkit v2: second factors, and the admin API for identity providers and the project's configuration.
        for prefix in ["v2", "identitytoolkit.googleapis.com/v2"] {
            let group = router.group(RouterPath(prefix)).add(middleware: authentication)
            group.addRoutes(secondFactors.endpoints)
            let project = group.group("projects/{projectId}").add(middleware: ProjectScopeMiddleware(projectID: projectID))
            project.addRoutes(secondFactors.endpoints)
            project.addRoutes(providerConfigs.endpoints)
            project.get("config", use: projectConfig.adminConfig)
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
        ErrorMiddleware(metrics: metrics)
        MethodNotAllowedMiddleware(routes: catalogue.routes)
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
