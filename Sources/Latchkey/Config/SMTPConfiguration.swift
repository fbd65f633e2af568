import Foundation

/// The SMTP server mail goes through when `mail.transport` is `"smtp"`.
///
/// - `mail.smtp.url` (string, required): `smtp://host:port` (port 587 or 25) or `smtps://host:port` (port 465).
/// - `mail.smtp.tls` (`"starttls"`, `"implicit"` or `"none"`, default `"starttls"` for `smtp://`, `"implicit"` for
///   `smtps://`): `starttls` refuses to send unless the server upgrades to TLS; `none` is allowed only for a server
///   on 127.0.0.1/localhost or with `mail.smtp.allowInsecure`.
/// - `mail.smtp.username` (string, optional) and `mail.smtp.passwordEnv` (string, optional): the name of the
///   environment variable that holds the password (the password itself never goes in the file).
/// - `mail.smtp.timeoutSeconds` (integer, default `30`, 1 to 600).
/// - `mail.smtp.caFile` (string, optional): PEM file of the CA that signed a private server certificate.
/// - `mail.smtp.heloName` (string, optional): the name sent in EHLO.
/// - `mail.smtp.allowInsecure` (boolean, default `false`).
package struct SMTPConfiguration: Sendable {
    /// How the connection is protected.
    package enum TLSMode: String, Sendable, CaseIterable {
        case starttls
        case implicit
        case none
    }

    package var url: String
    package var tls: TLSMode
    package var username: String?
    package var password: String?
    package var timeoutSeconds: Int
    package var caFile: String?
    package var heloName: String?
    package var allowInsecure: Bool

    init(_ read: inout ConfigSectionReader, environment: [String: String]) {
        url = read.string("mail.smtp.url") ?? ""
        let scheme = URLComponents(string: url)?.scheme?.lowercased()
        if scheme != "smtp" && scheme != "smtps" || URLComponents(string: url)?.host?.isEmpty != false {
            read.problems.add("mail.smtp.url", "is required with mail.transport \"smtp\": smtp://host:port or smtps://host:port")
        }
        tls = read.choice("mail.smtp.tls", default: scheme == "smtps" ? TLSMode.implicit : .starttls)
        if (tls == .implicit) != (scheme == "smtps") {
            read.problems.add("mail.smtp.tls", "\"implicit\" goes with smtps:// and \"starttls\"/\"none\" with smtp://")
        }
        username = read.string("mail.smtp.username")
        if let variable = read.string("mail.smtp.passwordEnv") {
            password = environment[variable]
            if password == nil { read.problems.add("mail.smtp.passwordEnv", "environment variable \(variable) is not set") }
        }
        timeoutSeconds = read.int("mail.smtp.timeoutSeconds", default: 30, in: 1...600)
        caFile = read.string("mail.smtp.caFile")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            read.problems.add("mail.smtp.caFile", "\(caFile) is not a readable file")
        }
        heloName = read.string("mail.smtp.heloName")
        allowInsecure = read.bool("mail.smtp.allowInsecure") ?? false
        let host = URLComponents(string: url)?.host?.lowercased() ?? ""
        if tls == .none, !allowInsecure, !["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) {
            read.problems.add("mail.smtp.tls", "\"none\" sends mail in clear text; allowed only for a local server or with mail.smtp.allowInsecure")
        }
    }
}
