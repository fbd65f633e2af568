import Configuration
import Foundation
import LatchkeyDomain
import Logging
import SystemPackage

/// Everything Latchkey reads from its configuration, read once at start-up.
///
/// Non-secret values come from the JSON file; any key can be overridden by an environment
/// variable named `LATCHKEY_` plus the key in upper snake case (`server.port` → `LATCHKEY_SERVER_PORT`),
/// which is how secrets such as `security.serverSecret` are meant to arrive.
///
/// Top-level keys:
/// - `projectId` (string, required): the project id, used as the ID token audience.
/// - `publicURL` (string, required): the absolute http(s) URL users reach Latchkey at; sign-in links
///   are built from it, never from a request's `Host` header.
/// - `mode` (`"production"` or `"development"`, default `"production"`): development mode logs each
///   sign-in link at debug level, as Firebase's emulator does.
/// - `logLevel` (string, default `"debug"` in development, `"info"` otherwise).
/// - `appName` (string, default `"Latchkey"`): the name emails speak in.
/// - `apiKeys` (list of strings, required): the API keys apps send as `?key=` or `x-goog-api-key`.
/// - `adminTokens` (list of strings, secret, default none): `Authorization: Bearer` tokens that make a request
///   privileged (lookup, update, disable or delete any account; `returnOobLink`). Give them through
///   `LATCHKEY_ADMIN_TOKENS` (comma-separated). Use long random values; only a test setup should use
///   Firebase's emulator convention `owner`.
/// - `authorizedDomains` (list of strings, default the public URL's host): hosts a `continueUrl` may point at.
/// - `templatesDirectory` (string, default `"templates"`): the email templates (`email/LANG/`) and the landing
///   pages (`pages/LANG/`), plus the development mailbox's (`dev/`).
/// - `openAPIDocument` (string, default `"openapi.json"`): served at `GET /openapi.json` when the file exists.
package struct AppConfiguration: Sendable {
    /// Whether the server runs for a developer's machine or for real users.
    package enum Mode: String, Sendable, CaseIterable {
        case production
        case development
    }

    package var projectID: String
    package var publicURL: URL
    package var mode: Mode
    package var logLevel: Logger.Level
    package var appName: String
    package var apiKeys: Set<String>
    package var adminTokens: [String]
    package var authorizedDomains: Set<String>
    package var templatesDirectory: String
    package var openAPIDocument: String
    package var server: ServerConfiguration
    package var cors: CORSConfiguration
    package var storage: StorageConfiguration
    package var security: SecurityConfiguration
    package var emailLink: EmailLinkConfiguration
    package var emailActions: EmailActionsConfiguration
    package var tokens: TokenConfiguration
    package var mail: MailConfiguration
    package var sms: SMSConfiguration
    package var rateLimits: RateLimitConfiguration
    package var observability: ObservabilityConfiguration
    package var apps: AppsConfiguration
    package var development: DevelopmentConfiguration
    package var identityProviders: IdentityProvidersConfiguration
    package var secondFactors: SecondFactorConfiguration
    package var serviceAccounts: ServiceAccountsConfiguration
    /// `passwordPolicy`: see `PasswordPolicy+ConfigReader`.
    package var passwordPolicy: PasswordPolicy
    /// `appVerification`: see `AppVerificationConfiguration`.
    package var appVerification: AppVerificationConfiguration
    /// `mail.from` and `mail.fromName` (or `appName`) as a checked header address.
    package var sender: MailAddress

    /// Reads and validates every key, throwing all problems found at once.
    package init(reader: ConfigReader, environment: [String: String] = [:]) throws(ConfigProblems) {
        try self.init(reader: reader, environment: environment, fileKeys: [])
    }

    /// Reads and validates every key, and refuses any of `fileKeys` (the keys the file writes) that nothing read.
    /// `schema`, when given, receives every key reading asked for (see `settingKeys(reader:)`), valid or not.
    init(
        reader: ConfigReader, environment: [String: String], fileKeys: [ConfigFileKey],
        schema: ((Set<String>) -> Void)? = nil
    ) throws(ConfigProblems) {
        var read = ConfigSectionReader(reader: reader)

        let projectID = read.string("projectId") ?? ""
        if projectID.isEmpty { read.problems.add("projectId", "is required") }
        self.projectID = projectID

        let publicURLText = read.string("publicURL")
        let publicURL = publicURLText.flatMap(Self.publicURL(from:))
        if let publicURLText, publicURL == nil {
            read.problems.add("publicURL", "must be an absolute http(s) URL without query, e.g. https://auth.example.com; got \"\(publicURLText)\"")
        } else if publicURL == nil {
            read.problems.add("publicURL", "is required: an absolute http(s) URL without query, e.g. https://auth.example.com")
        }
        self.publicURL = publicURL ?? URL(fileURLWithPath: "/")

        self.mode = read.choice("mode", default: Mode.production)
        let defaultLevel: Logger.Level = mode == .development ? .debug : .info
        self.logLevel = read.choice("logLevel", default: defaultLevel)
        let appName = read.string("appName") ?? "Latchkey"
        if appName.isEmpty || appName.containsControlCharacters {
            read.problems.add("appName", "must be a non-empty name without control characters (it goes into email subjects)")
        }
        self.appName = appName

        let apiKeys = read.stringArray("apiKeys") ?? []
        if apiKeys.isEmpty || apiKeys.contains(where: \.isEmpty) { read.problems.add("apiKeys", "must list at least one non-empty key") }
        self.apiKeys = Set(apiKeys)

        let adminTokens = read.stringArray("adminTokens", isSecret: true) ?? []
        if adminTokens.contains(where: \.isEmpty) { read.problems.add("adminTokens", "tokens must not be empty") }
        self.adminTokens = adminTokens

        let publicHost = publicURL?.host()?.lowercased()
        self.authorizedDomains = Set((read.stringArray("authorizedDomains") ?? publicHost.map { [$0] } ?? []).map { $0.lowercased() })
        self.templatesDirectory = read.string("templatesDirectory") ?? "templates"
        self.openAPIDocument = read.string("openAPIDocument") ?? "openapi.json"

        self.server = ServerConfiguration(&read)
        self.cors = CORSConfiguration(&read)
        self.storage = StorageConfiguration(&read, environment: environment)
        self.security = SecurityConfiguration(&read)
        self.emailLink = EmailLinkConfiguration(&read)
        self.emailActions = EmailActionsConfiguration(&read)
        self.tokens = TokenConfiguration(&read, publicURL: self.publicURL)
        self.mail = MailConfiguration(&read, publicHost: publicHost, environment: environment)
        self.sms = SMSConfiguration(&read, publicHost: publicHost, lease: mail.delivery.lease, environment: environment)
        self.rateLimits = RateLimitConfiguration(&read)
        self.observability = ObservabilityConfiguration(&read)
        self.apps = AppsConfiguration(&read)
        self.development = DevelopmentConfiguration(&read)
        self.identityProviders = IdentityProvidersConfiguration(&read, mode: mode, environment: environment)
        self.secondFactors = SecondFactorConfiguration(&read)
        self.serviceAccounts = ServiceAccountsConfiguration(&read, projectID: projectID)
        self.passwordPolicy = PasswordPolicy(&read)
        self.appVerification = AppVerificationConfiguration(&read, iosApps: self.apps.ios.count, environment: environment)

        let sender = Self.sender(mail, appName: appName, &read)
        read.reportUnknownKeys(in: fileKeys)
        schema?(read.knownKeys)
        guard read.problems.isEmpty, let sender else { throw read.problems.namingOverrides(in: environment) }
        self.sender = sender
    }

    /// Loads the JSON file at `path`, with `LATCHKEY_*` environment variables taking precedence.
    package static func load(path: String, environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> AppConfiguration {
        let file = try JSONConfigFile(path: path)
        let variables = environment.filter { $0.key.hasPrefix("LATCHKEY_") }
        let secretNames = Set(variables.keys.filter { $0.contains("SECRET") || $0.contains("TOKEN") || $0.contains("PASSWORD") })
        let env = EnvironmentVariablesProvider(environmentVariables: variables, secretsSpecifier: .specific(secretNames))
            .prefixKeys(with: "latchkey")
        return try AppConfiguration(reader: ConfigReader(providers: [env, file.provider]), environment: environment, fileKeys: file.keys)
    }

    /// The sender as a checked header address; a refusal is reported under the key to change.
    private static func sender(_ mail: MailConfiguration, appName: String, _ read: inout ConfigSectionReader) -> MailAddress? {
        do {
            return try MailAddress(address: mail.from, displayName: mail.fromName ?? appName)
        } catch {
            guard case .invalidAddress(let reason) = error else { return nil }
            if (try? MailAddress(address: mail.from)) == nil {
                if let problem = MailConfiguration.fromProblem(mail.from, origin: mail.fromOrigin, reason: reason) {
                    read.problems.add("mail.from", problem)
                }
            } else if mail.fromName != nil {
                read.problems.add("mail.fromName", reason)
            }
            // Otherwise the name is `appName`, whose own check has reported it.
            return nil
        }
    }

    private static func publicURL(from string: String) -> URL? {
        let trimmed = string.hasSuffix("/") ? String(string.dropLast()) : string
        guard let components = URLComponents(string: trimmed),
            let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http",
            components.host?.isEmpty == false, components.query == nil, components.fragment == nil
        else { return nil }
        return components.url
    }
}
