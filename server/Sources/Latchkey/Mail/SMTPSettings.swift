import Foundation
import LatchkeyDomain

/// How `CurlSMTPTransport` reaches the SMTP relay.
///
/// - `url` (string, required): `smtp://host:port` or `smtps://host:port`, without a path, user or query.
///   The port defaults to 25 for `smtp` and 465 for `smtps`; relays usually listen on 587 for STARTTLS.
/// - `tls` (`"starttls"`, `"implicit"` or `"none"`, default `"starttls"`): `starttls` requires the relay to switch
///   to TLS and fails rather than send in clear; `implicit` is TLS from the first byte and needs an `smtps` URL;
///   `none` sends in clear and is refused for any host but the loopback unless `allowInsecure` is set.
/// - `username`, `password` (strings, optional, both or neither): SMTP AUTH credentials; the password is a secret.
/// - `timeoutSeconds` (integer 1…600, default 30): the limit for connecting and for the whole of one message.
/// - `caFile` (string, optional): a PEM file of CA certificates trusted instead of the system ones.
/// - `heloName` (string, optional): the name sent in EHLO; curl uses the machine's host name when absent.
/// - `envelopeFrom` (string, required): the `MAIL FROM` address, where bounces go.
/// - `workers` (integer 1…64, default 2): how many connections send in parallel; match the outbox's `mail.workers`.
/// - `allowInsecure` (bool, default false): permits `tls: none` to a host other than the loopback.
package struct SMTPSettings: Sendable, CustomStringConvertible {
    /// Whether and how the connection is encrypted.
    package enum TLSMode: String, Sendable, CaseIterable {
        /// Plain connection upgraded with STARTTLS; delivery fails if the relay does not offer it.
        case starttls
        /// TLS from the first byte (`smtps://`, usually port 465).
        case implicit
        /// Clear text, for a relay on the same machine.
        case none
    }

    /// One setting that cannot work, named by its field so the configuration layer can point at its key.
    package struct Problem: Sendable, Equatable, CustomStringConvertible {
        package let setting: String
        package let message: String

        package var description: String { "\(setting): \(message)" }
    }

    /// Thrown when settings are refused; lists every problem at once.
    package struct InvalidSettings: Error, Sendable, CustomStringConvertible {
        package let problems: [Problem]

        package var description: String {
            "invalid SMTP settings: " + problems.map(\.description).joined(separator: "; ")
        }
    }

    package var url: String
    package var tls: TLSMode
    package var username: String?
    package var password: String?
    package var timeoutSeconds: Int
    package var caFile: String?
    package var heloName: String?
    package var envelopeFrom: String
    package var workers: Int
    package var allowInsecure: Bool

    package init(
        url: String, tls: TLSMode = .starttls, username: String? = nil, password: String? = nil, timeoutSeconds: Int = 30,
        caFile: String? = nil, heloName: String? = nil, envelopeFrom: String, workers: Int = 2, allowInsecure: Bool = false
    ) {
        self.url = url
        self.tls = tls
        self.username = username
        self.password = password
        self.timeoutSeconds = timeoutSeconds
        self.caFile = caFile
        self.heloName = heloName
        self.envelopeFrom = envelopeFrom
        self.workers = workers
        self.allowInsecure = allowInsecure
    }

    /// A summary for logs; it never shows the password.
    package var description: String {
        let login = username.map { ", user \($0)" } ?? ""
        return "\(url) (tls \(tls.rawValue)\(login), \(workers) workers, timeout \(timeoutSeconds) s)"
    }

    /// Hosts for which clear text never leaves the machine.
    private static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// Everything wrong with these settings, in field order; empty when they can be used.
    package var problems: [Problem] {
        var problems: [Problem] = []
        func add(_ setting: String, _ message: String) { problems.append(Problem(setting: setting, message: message)) }

        if let endpoint = Self.endpoint(of: url) {
            if (endpoint.scheme == "smtps") != (tls == .implicit) {
                add("tls", tls == .implicit ? "implicit TLS needs an smtps:// URL" : "an smtps:// URL needs tls \"implicit\"")
            }
            if tls == .none && !allowInsecure && !Self.loopbackHosts.contains(endpoint.host) {
                add("tls", "\"none\" sends mail and passwords in clear; it is only allowed for localhost unless allowInsecure is true")
            }
        } else {
            add("url", "must be smtp://host[:port] or smtps://host[:port], without user, path or query")
        }
        if (username == nil) != (password == nil) || username?.isEmpty == true || password?.isEmpty == true {
            add("username", "username and password must be given together and not be empty")
        }
        if !(1...600).contains(timeoutSeconds) { add("timeoutSeconds", "must be between 1 and 600") }
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) { add("caFile", "is not a readable file") }
        if let heloName, !Self.isValidHeloName(heloName) {
            add("heloName", "must be a host name (letters, digits, dots and hyphens)")
        }
        if EmailAddress(envelopeFrom) == nil { add("envelopeFrom", "is not a valid email address") }
        if !(1...64).contains(workers) { add("workers", "must be between 1 and 64") }
        return problems
    }

    /// Throws every problem at once, so an operator can fix them in one go.
    package func validate() throws(InvalidSettings) {
        let problems = problems
        guard problems.isEmpty else { throw InvalidSettings(problems: problems) }
    }

    /// The URL handed to curl: the configured one with the EHLO name as its path, which is where curl reads it from.
    package var curlURL: String {
        var base = url
        while base.hasSuffix("/") { base.removeLast() }
        guard let heloName else { return base }
        return "\(base)/\(heloName)"
    }

    /// The scheme and bare host (IPv6 without brackets) of an acceptable URL, or `nil`.
    private static func endpoint(of url: String) -> (scheme: String, host: String)? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "smtp" || scheme == "smtps", var host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
            components.path.isEmpty || components.path == "/"
        else { return nil }
        if let port = components.port, !(1...65535).contains(port) { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (scheme, host)
    }

    /// A host name as EHLO expects it; anything else could smuggle text into the URL path or the command line.
    private static func isValidHeloName(_ name: String) -> Bool {
        (1...253).contains(name.utf8.count) && name.first != "-" && name.first != "."
            && name.unicodeScalars.allSatisfy { $0.isASCIIAlphanumeric || $0 == "." || $0 == "-" }
    }
}
