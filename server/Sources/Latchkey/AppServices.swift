import Foundation
import LatchkeyDomain

/// Everything the routes are made of: the configuration, the outside world (store, clock, token keys, pages) and the
/// domain services wired over it, each made once. `buildApplication` makes the bundle and `buildRouter(services:)`
/// builds the controllers from it.
struct AppServices {
    let configuration: AppConfiguration
    let clock: any WallClock
    let store: any Store
    let secret: ServerSecret
    let tokens: JWTTokenIssuer
    let pages: PageRenderer
    let metrics: ServiceMetrics

    let admin: AdminAuthorization
    let quota: APIKeyQuota
    let limiter: RateLimiter
    let hasher: PasswordHasher
    let minter: SessionMinter
    let finisher: SignInFinisher
    let notices: SecurityNotices
    let authentication: Authentication
    let lookup: AccountLookup
    let issuer: LinkIssuer
    let actionIssuer: ActionCodeIssuer
    let actionCodes: ActionCodes
    let passwords: PasswordAccounts
    let providers: ProviderDirectory
    let discovery: ProviderDiscovery
    let authorization: ProviderAuthorization
    let customTokens: CustomTokenSignIn
    let appVerification: AppVerification
    let texting: PhoneTexting

    init(
        configuration: AppConfiguration, clock: any WallClock, store: any Store, secret: ServerSecret, tokens: JWTTokenIssuer, pages: PageRenderer,
        metrics: ServiceMetrics, outbox: OutboxSignal, discovery: ProviderDiscovery, serviceAccounts: ServiceAccountTokens,
        appVerifiers: AppVerifiers
    ) {
        (self.configuration, self.clock, self.store, self.secret, self.tokens, self.pages, self.metrics) =
            (configuration, clock, store, secret, tokens, pages, metrics)
        let isDevelopment = configuration.mode == .development
        let recentLogin = configuration.recentLogin
        let enumerationProtection = configuration.security.emailEnumerationProtection
        admin = AdminAuthorization(tokens: configuration.adminTokens, maxUploadSize: configuration.server.maxAdminBodyBytes)
        quota = APIKeyQuota(requestsPerMinute: configuration.rateLimits.apiKeyRequestsPerMinute, clock: clock)
        limiter = RateLimiter(limits: configuration.rateLimits.limits, secret: secret, store: store, clock: clock)
        hasher = PasswordHasher(cost: configuration.security.passwordHashCost, secret: secret, limits: configuration.security.passwordHashing)
        minter = SessionMinter(tokens: tokens, secret: secret)
        finisher = SignInFinisher(minter: minter, secondFactors: configuration.secondFactors.policy)
        notices = SecurityNotices(secret: secret, outbox: outbox)
        authentication = Authentication(tokens: tokens)
        lookup = AccountLookup(
            store: store, authentication: authentication, enumerationProtection: enumerationProtection,
            allowsDuplicateEmails: configuration.identityProviders.allowsDuplicateEmails)
        issuer = LinkIssuer(
            secret: secret, clock: clock, outbox: outbox, publicURL: configuration.publicURL,
            codeLifetime: TimeInterval(configuration.emailLink.codeLifetimeSeconds), showsTypedCode: configuration.emailLink.typedCode,
            isDevelopment: isDevelopment,
            enumerationProtection: enumerationProtection, limiter: limiter, metrics: metrics.counters)
        actionIssuer = ActionCodeIssuer(
            store: store, authentication: authentication, secret: secret, clock: clock, outbox: outbox, publicURL: configuration.publicURL,
            lifetimes: ActionLifetimes(configuration.emailActions.lifetimes),
            enumerationProtection: enumerationProtection, undoAPIKey: configuration.apiKeys.sorted().first ?? "", isDevelopment: isDevelopment,
            recentLogin: recentLogin, limiter: limiter, metrics: metrics.counters)
        actionCodes = ActionCodes(
            store: store, secret: secret, clock: clock, hasher: hasher, issuer: actionIssuer, limiter: limiter,
            passwordPolicy: configuration.passwordPolicy, metrics: metrics.counters)
        passwords = PasswordAccounts(
            store: store, authentication: authentication, hasher: hasher, clock: clock, finisher: finisher, enumerationProtection: enumerationProtection,
            limiter: limiter, notices: notices, recentLogin: recentLogin, passwordPolicy: configuration.passwordPolicy, metrics: metrics.counters)
        providers = ProviderDirectory(file: configuration.identityProviders, store: store, secret: secret)
        self.discovery = discovery
        authorization = ProviderAuthorization(providers: providers, discovery: discovery, store: store, secret: secret, clock: clock)
        customTokens = CustomTokenSignIn(store: store, verifier: serviceAccounts, finisher: finisher, limiter: limiter, clock: clock)
        appVerification = AppVerification(configuration, store: store, secret: secret, clock: clock, limiter: limiter, verifiers: appVerifiers)
        texting = PhoneTexting(
            codes: PhoneCodes(secret: secret, outbox: outbox, lifetime: configuration.sms.codeLifetime), appVerification: appVerification,
            regions: configuration.sms.regions, limiter: limiter, clock: clock)
    }
}

extension AppConfiguration {
    /// How recent a sign-in must be for a sensitive change (`security.recentLoginSeconds`).
    var recentLogin: TimeInterval { TimeInterval(security.recentLoginSeconds) }
}
