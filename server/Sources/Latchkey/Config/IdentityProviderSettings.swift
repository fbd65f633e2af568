import Foundation
import LatchkeyDomain

/// One identity provider people sign in with (an item of `identityProviders`).
///
/// - `providerId` (string, required): `oidc.` and a name of lower-case letters, digits, `.`, `_` or `-` for an OpenID Connect
///   provider of your own; or one of the built-in `google.com`, `apple.com`, `facebook.com`, `yahoo.com`.
/// - `issuer` (string): the provider's issuer URL, where `/.well-known/openid-configuration` is found. Required for
///   `oidc.*`; for a built-in provider it replaces the issuer Latchkey knows (for tests against a local provider).
/// - `clientId` (string, required): the client id registered at the provider; ID tokens must name it as audience.
/// - `clientSecret`: `{"env": "NAME"}` or `{"file": "/path"}`; a plain string only in development mode. Required for
///   the code flow.
/// - `responseType`: `{"code": true}` (the authorization-code flow) or `{"idToken": true}` (the implicit flow, the
///   default). ID tokens an app obtained itself are accepted either way.
/// - `displayName` (string), `enabled` (boolean, default true), `scopes` (list, default `["openid", "email",
///   "profile"]`), `emailTrust` (`"claim"`: believe `email_verified` when it is `true` or `"true"`, never for
///   `facebook.com`, the default, which `check-config` warns of for an `oidc.` provider; `"always"`: the provider is
///   the mail provider of its addresses; `"never"`), `tokenEndpointAuthMethod` (`"client_secret_basic"`, the default, or
///   `"client_secret_post"`), `pkce` (boolean, default true), `allowInsecureIssuer` (boolean, default false: an
///   `http://` issuer, for tests on loopback), `clockSkewSeconds` (integer, 0 to 300, default 60).
/// - `graphURL` (string, `facebook.com` only, default `https://graph.facebook.com`): where Facebook's Graph API checks
///   the access tokens of classic Facebook Login (tests point it at a local stub). Those need `clientSecret`, the app
///   secret.
/// - `appleKeyId`, `appleTeamId` (strings) and `applePrivateKey` (`{"env": NAME}` or `{"file": PATH}`, never inline: the
///   `.p8` key), `apple.com` only: the Sign in with Apple key that signs the `client_secret` of Apple's token revocation
///   (`accounts:revokeToken`, which App Store rules ask for when an account is deleted). All three or none.
package struct IdentityProviderSettings: Sendable, Equatable {
    /// Whether a provider's `email_verified` proves that the address is the user's.
    package enum EmailTrust: String, Sendable, CaseIterable {
        case claim
        case always
        case never
    }

    package enum ClientAuthentication: String, Sendable, CaseIterable {
        case basic = "client_secret_basic"
        case post = "client_secret_post"
    }

    package var providerID: String
    package var displayName: String?
    package var isEnabled: Bool
    package var issuer: URL
    package var clientID: String
    package var clientSecret: String?
    package var responseType: ProviderResponseType
    package var scopes: [String]
    package var emailTrust: EmailTrust
    package var clientAuthentication: ClientAuthentication
    package var usesPKCE: Bool
    package var allowsInsecureIssuer: Bool
    package var clockSkewSeconds: Int
    /// Facebook's Graph API, for `facebook.com` only.
    package var graphURL: URL?
    /// The key that signs Apple's `client_secret`, for `apple.com` only.
    package var appleKey: AppleClientSecretSigner?

    package init(
        providerID: String, issuer: URL, clientID: String, clientSecret: String? = nil, responseType: ProviderResponseType = .idToken,
        displayName: String? = nil, isEnabled: Bool = true, scopes: [String] = Self.defaultScopes, emailTrust: EmailTrust = .claim,
        clientAuthentication: ClientAuthentication = .basic, usesPKCE: Bool = true, allowsInsecureIssuer: Bool = false, clockSkewSeconds: Int = 60,
        graphURL: URL? = nil
    ) {
        self.providerID = providerID
        self.displayName = displayName
        self.isEnabled = isEnabled
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.responseType = responseType
        self.scopes = scopes
        self.emailTrust = emailTrust
        self.clientAuthentication = clientAuthentication
        self.usesPKCE = usesPKCE
        self.allowsInsecureIssuer = allowsInsecureIssuer
        self.clockSkewSeconds = clockSkewSeconds
        self.graphURL = graphURL ?? (providerID == BuiltInIdentityProvider.facebook.rawValue ? Self.facebookGraphURL : nil)
    }

    static let facebookGraphURL = URL(string: "https://graph.facebook.com")

    package static let defaultScopes = ["openid", "email", "profile"]
    static let fields = [
        "providerId", "displayName", "enabled", "issuer", "clientId", "clientSecret", "responseType", "scopes", "emailTrust",
        "tokenEndpointAuthMethod", "pkce", "allowInsecureIssuer", "clockSkewSeconds", "graphURL", "appleKeyId", "appleTeamId", "applePrivateKey",
    ]

    /// Whether `id` names a provider of one's own: `oidc.` and 1 to 64 of lower-case letters, digits, `.`, `_`, `-`
    /// (requests name providers in any case, and are read lower-cased, as Firebase reads them).
    package static func isOIDCProviderID(_ id: String) -> Bool {
        guard id.hasPrefix("oidc.") else { return false }
        let name = id.dropFirst(5)
        return (1...64).contains(name.count)
            && name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0) }
    }

    /// Reads the provider at `prefix` (`identityProviders.0`); nil, with the problems added, when it is unusable.
    init?(_ read: inout ConfigSectionReader, _ prefix: String, mode: AppConfiguration.Mode, allowsInsecureIssuers: Bool, environment: [String: String]) {
        let id = read.string("\(prefix).providerId") ?? ""
        let builtIn = BuiltInIdentityProvider(rawValue: id)
        var problems: [(field: String, text: String)] = []
        func problem(_ field: String, _ text: String) { problems.append((field, text)) }
        if builtIn == nil, !Self.isOIDCProviderID(id) {
            let names = BuiltInIdentityProvider.allCases.map(\.rawValue).joined(separator: ", ")
            problem("providerId", "must be oidc. and a name (lower-case letters, digits, . _ -), or one of \(names); got \"\(id)\"")
        }
        allowsInsecureIssuer = read.bool("\(prefix).allowInsecureIssuer") ?? false
        let issuerText = read.string("\(prefix).issuer")
        let issuer = issuerText.flatMap(URL.init(string:)) ?? builtIn?.issuer
        if let issuer, Self.isIssuer(issuer, allowingHTTP: allowsInsecureIssuer || allowsInsecureIssuers) {
            self.issuer = issuer
        } else {
            problem(
                "issuer",
                issuerText == nil && builtIn == nil
                    ? "is required for an oidc. provider: its issuer URL" : "must be an https URL without query or fragment (http only with allowInsecureIssuer)")
            self.issuer = URL(fileURLWithPath: "/")
        }
        clientID = read.string("\(prefix).clientId") ?? ""
        if clientID.isEmpty || clientID.containsControlCharacters { problem("clientId", "is required: the client id registered at the provider") }
        clientSecret = Self.secret(&read, "\(prefix).clientSecret", environment: environment, inline: mode) { problem("clientSecret", $0) }
        let code = read.bool("\(prefix).responseType.code") ?? false
        let idToken = read.bool("\(prefix).responseType.idToken") ?? false
        if code && idToken { problem("responseType", "choose one of code and idToken") }
        responseType = code ? .code : .idToken
        if responseType == .code, clientSecret == nil { problem("clientSecret", "is required with responseType code") }
        providerID = id
        displayName = read.string("\(prefix).displayName")
        isEnabled = read.bool("\(prefix).enabled") ?? true
        scopes = read.stringArray("\(prefix).scopes") ?? Self.defaultScopes
        if !scopes.contains("openid") || scopes.contains(where: { $0.isEmpty || $0.contains(" ") || $0.containsControlCharacters }) {
            problem("scopes", "must include openid, and each scope must be one word")
        }
        emailTrust = read.choice("\(prefix).emailTrust", default: EmailTrust.claim)
        clientAuthentication = read.choice("\(prefix).tokenEndpointAuthMethod", default: ClientAuthentication.basic)
        usesPKCE = read.bool("\(prefix).pkce") ?? true
        clockSkewSeconds = read.int("\(prefix).clockSkewSeconds", default: 60, in: 0...300)
        let graphText = read.string("\(prefix).graphURL")
        graphURL = builtIn == .facebook ? graphText.flatMap(URL.init(string:)) ?? Self.facebookGraphURL : nil
        if graphText != nil, builtIn != .facebook {
            problem("graphURL", "is for facebook.com only")
        } else if let graphURL, !Self.isIssuer(graphURL, allowingHTTP: allowsInsecureIssuer || allowsInsecureIssuers) {
            problem("graphURL", "must be an https URL without query or fragment (http only with allowInsecureIssuer)")
        }
        appleKey = Self.appleKey(&read, prefix, isApple: builtIn == .apple, environment: environment, problem: problem)
        for found in problems { read.problems.add("\(prefix).\(found.field)", found.text) }
        guard problems.isEmpty else { return nil }
    }

    /// `appleKeyId`, `appleTeamId` and `applePrivateKey`, all three or none, on `apple.com` only.
    private static func appleKey(
        _ read: inout ConfigSectionReader, _ prefix: String, isApple: Bool, environment: [String: String], problem: (String, String) -> Void
    ) -> AppleClientSecretSigner? {
        let keyID = read.string("\(prefix).appleKeyId")
        let teamID = read.string("\(prefix).appleTeamId")
        let pem = secret(&read, "\(prefix).applePrivateKey", environment: environment, inline: nil) { problem("applePrivateKey", $0) }
        guard keyID != nil || teamID != nil || pem != nil else { return nil }
        guard isApple else {
            problem("appleKeyId", "appleKeyId, appleTeamId and applePrivateKey are for apple.com only")
            return nil
        }
        guard let keyID, let teamID, let pem else {
            problem("appleKeyId", "appleKeyId, appleTeamId and applePrivateKey go together")
            return nil
        }
        do {
            return try AppleClientSecretSigner(keyID: keyID, teamID: teamID, privateKeyPEM: pem)
        } catch {
            problem("applePrivateKey", "must be the Sign in with Apple key (.p8): a P-256 private key in PEM")
            return nil
        }
    }

    /// An issuer is an absolute https URL (http when allowed) with a host and no query or fragment.
    static func isIssuer(_ url: URL, allowingHTTP: Bool) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host, !host.isEmpty,
            components.query == nil, components.fragment == nil
        else { return false }
        return components.scheme == "https" || (allowingHTTP && components.scheme == "http")
    }

    /// A secret given by reference (`{"env": NAME}`, `{"file": PATH}`), or inline when `inline` (the server's mode) is
    /// development; never inline when it is nil.
    private static func secret(
        _ read: inout ConfigSectionReader, _ key: String, environment: [String: String], inline mode: AppConfiguration.Mode?,
        problem: (String) -> Void
    ) -> String? {
        if let variable = read.string("\(key).env") {
            guard let value = environment[variable], !value.isEmpty else {
                problem("environment variable \(variable) is not set")
                return nil
            }
            return value
        }
        if let path = read.string("\(key).file") {
            guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                problem("cannot read \(path)")
                return nil
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if value.isEmpty { problem("\(path) is empty") }
            return value.isEmpty ? nil : value
        }
        guard let inline = read.string(key, isSecret: true) else { return nil }
        guard let mode else {
            problem("give it as {\"env\": NAME} or {\"file\": PATH}, never inline in the file")
            return nil
        }
        if mode == .production { problem("give it as {\"env\": NAME} or {\"file\": PATH}: a secret inline in the file is for development mode only") }
        return inline.isEmpty ? nil : inline
    }
}
