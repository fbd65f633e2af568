import Hummingbird
import Logging

/// The routes development mode adds: the mailbox of mail and texts (`/__/dev/mailbox`) and the web demo (`/demo/`).
/// None of them exists in production, which answers 404 there.
func developmentEndpoints(_ configuration: AppConfiguration, pages: PageRenderer, logger: Logger) throws -> [RouteCollection<AppRequestContext>] {
    guard configuration.mode == .development else { return [] }
    let mailbox = DevMailboxController(
        mailbox: DevelopmentMailbox(directory: configuration.mail.fileDirectory), texts: DevelopmentTexts(directory: configuration.sms.fileDirectory),
        pages: pages, isFileTransport: configuration.mail.transport == .file, isFileGateway: configuration.sms.gateway == .file)
    var endpoints = [mailbox.endpoints]
    if let apiKey = configuration.apiKeys.sorted().first,
        let demo = try DemoController(
            directory: configuration.development.demoDirectory, apiKey: apiKey, appName: configuration.appName,
            providers: configuration.identityProviders.providers, typedCode: configuration.emailLink.typedCode, logger: logger)
    {
        endpoints.append(demo.endpoints)
    }
    return endpoints
}
