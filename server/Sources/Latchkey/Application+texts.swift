import LatchkeyDomain

/// The texts' renderer and the gateway `sms.gateway` names.
func makeTexts(_ configuration: AppConfiguration, templates: TemplateLibrary, clock: any WallClock) throws -> TextDelivery {
    let sms = configuration.sms
    let renderer = try TextRenderer(templates: templates, appName: configuration.appName, webOTPHost: sms.webOTPHost)
    let gateway: any TextGateway
    switch sms.gateway {
    case .file:
        gateway = try FileTextGateway(directory: sms.fileDirectory)
    case .webhook:
        guard let webhook = sms.webhook else { throw StartupError("sms.webhook: missing for sms.gateway \"webhook\"") }
        gateway = WebhookTextGateway(url: webhook.url, secret: webhook.secret, deadlineSeconds: sms.timeoutSeconds, clock: clock)
    case .twilio:
        guard let twilio = sms.twilio else { throw StartupError("sms.twilio: missing for sms.gateway \"twilio\"") }
        gateway = TwilioTextGateway(
            baseURL: twilio.baseURL, accountSID: twilio.accountSID, authToken: twilio.authToken, sender: twilio.sender,
            deadlineSeconds: sms.timeoutSeconds)
    }
    return TextDelivery(renderer: renderer, gateway: gateway)
}
