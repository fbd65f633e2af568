import ServiceLifecycle

/// The mail transport `mail.transport` names, and the services it needs run beside the server (SMTP's own).
func makeMail(_ configuration: AppConfiguration) throws -> (transport: any MailTransport, services: [any Service]) {
    switch configuration.mail.transport {
    case .file:
        return (try FileMailTransport(directory: configuration.mail.fileDirectory), [])
    case .smtp:
        guard let settings = configuration.mail.smtp else { throw StartupError("mail.smtp: missing for mail.transport \"smtp\"") }
        let smtp = try CurlSMTPTransport(settings: settings)
        return (smtp, [SMTPTransportService(transport: smtp)])
    }
}
