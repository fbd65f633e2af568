import Foundation

/// Reads the `mail.smtp` section when `mail.transport` is `"smtp"`.
///
/// - `mail.smtp.url` (string, required): `smtp://host:port` (port 587 or 25) or `smtps://host:port` (port 465).
/// - `mail.smtp.tls` (`"starttls"`, `"implicit"` or `"none"`; default `"implicit"` for `smtps://`, else `"starttls"`):
///   `starttls` refuses to send unless the server upgrades to TLS; `none` is allowed only for a server on
///   localhost or with `mail.smtp.allowInsecure`.
/// - `mail.smtp.username` (string, optional) and `mail.smtp.passwordEnv` (string, optional): the name of the
///   environment variable holding the password, which never goes in the file.
/// - `mail.smtp.timeoutSeconds` (integer, default `30`, 1 to 600).
/// - `mail.smtp.caFile` (string, optional): PEM file of the CA behind a private server certificate.
/// - `mail.smtp.heloName` (string, optional): the name sent in EHLO (default: the machine's host name).
/// - `mail.smtp.allowInsecure` (boolean, default `false`).
extension SMTPSettings {
    init(
        _ read: inout ConfigSectionReader, envelopeFrom: (address: String, origin: MailConfiguration.FromOrigin), workers: Int,
        environment: [String: String]
    ) {
        let url = read.string("mail.smtp.url") ?? ""
        let isImplicit = URLComponents(string: url)?.scheme?.lowercased() == "smtps"
        var password: String?
        if let variable = read.string("mail.smtp.passwordEnv") {
            password = environment[variable]
            if password == nil { read.problems.add("mail.smtp.passwordEnv", "environment variable \(variable) is not set") }
        }
        self.init(
            url: url, tls: read.choice("mail.smtp.tls", default: isImplicit ? TLSMode.implicit : .starttls),
            username: read.string("mail.smtp.username"), password: password, timeoutSeconds: read.int("mail.smtp.timeoutSeconds") ?? 30,
            caFile: read.string("mail.smtp.caFile"), heloName: read.string("mail.smtp.heloName"), envelopeFrom: envelopeFrom.address,
            workers: workers,
            allowInsecure: read.bool("mail.smtp.allowInsecure") ?? false)
        for problem in problems {
            if problem.setting == "envelopeFrom" {
                // An address that is no header address at all is reported once, by the sender check that follows.
                guard (try? MailAddress(address: envelopeFrom.address)) != nil else { continue }
                let reason = "SMTP needs an address whose domain has a dot, such as no-reply@example.com"
                if let message = MailConfiguration.fromProblem(envelopeFrom.address, origin: envelopeFrom.origin, reason: reason) {
                    read.problems.add("mail.from", message)
                }
                continue
            }
            let key =
                switch problem.setting {
                case "workers": "mail.workers"
                case "username" where password == nil: "mail.smtp.passwordEnv"
                default: "mail.smtp.\(problem.setting)"
                }
            read.problems.add(key, problem.message)
        }
    }
}
