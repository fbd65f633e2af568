import Foundation
import LatchkeyDomain

/// The admin API's provider configuration (Firebase's v2 `oauthIdpConfigs` and `defaultSupportedIdpConfigs`): providers
/// added, changed and removed at run time, in the store. The configuration file's providers are listed with them but
/// cannot be changed here.
package struct ProviderConfigAdministration: Sendable {
    /// Changes to a provider: a field that is nil is left as it is; `.some(nil)` clears it.
    package struct Edit: Sendable {
        package var displayName: String??
        package var isEnabled: Bool?
        package var issuer: String??
        package var clientID: String??
        package var clientSecret: String??
        package var code: Bool?
        package var idToken: Bool?

        package init() {}
    }

    /// A provider as the admin API shows it.
    package struct Listed: Sendable {
        package let settings: IdentityProviderSettings
        /// Only of providers added through the API.
        package let clientSecret: String?
    }

    static let maximumPageSize = 100

    let directory: ProviderDirectory
    let clock: any WallClock

    package init(directory: ProviderDirectory, clock: any WallClock) {
        self.directory = directory
        self.clock = clock
    }

    package func create(_ kind: ProviderConfig.Kind, id: String?, _ edit: Edit) async throws -> Listed {
        guard let id, !id.isEmpty else { throw ProviderConfigError.missingID }
        try Self.check(id, kind: kind)
        guard directory.file.provider(id) == nil else { throw ProviderConfigError.exists }
        var config = ProviderConfig(providerID: id, kind: kind, isEnabled: false, clientID: "", createdAt: clock.now)
        var edit = edit
        // A response type given names the flow; none given is the ID-token flow.
        if edit.code != nil || edit.idToken != nil { (edit.code, edit.idToken) = (edit.code ?? false, edit.idToken ?? false) }
        let saved = try apply(edit, to: &config)
        guard try await directory.store.write({ try await $0.insert(saved) }) else { throw ProviderConfigError.exists }
        return try listed(saved)
    }

    package func get(_ kind: ProviderConfig.Kind, id: String) async throws -> Listed {
        if let defined = directory.file.provider(id), Self.kind(of: id) == kind { return Listed(settings: defined, clientSecret: nil) }
        guard let config = try await directory.store.read({ try await $0.providerConfig(id: id) }), config.kind == kind else {
            throw ProviderConfigError.notFound
        }
        return try listed(config)
    }

    /// A page of providers in id order; the token names the last id of the page before.
    package func list(_ kind: ProviderConfig.Kind, pageSize: Int?, pageToken: String?) async throws -> (page: [Listed], nextPageToken: String?) {
        let size = pageSize ?? Self.maximumPageSize
        guard (1...Self.maximumPageSize).contains(size) else { throw ProviderConfigError.invalidPageSelection }
        let after = try PageToken.id(resumedBy: pageToken, invalid: ProviderConfigError.invalidPageSelection)
        let stored = try await directory.store.read { try await $0.providerConfigs(kind, after: after, limit: size + 1) }
        var all = try stored.map(listed)
        all += directory.file.providers.filter { Self.kind(of: $0.providerID) == kind && $0.providerID > (after ?? "") }
            .map { Listed(settings: $0, clientSecret: nil) }
        all.sort { $0.settings.providerID < $1.settings.providerID }
        let page = Array(all.prefix(size))
        let next = all.count > size ? page.last.map { PageToken.resuming(after: $0.settings.providerID) } : nil
        return (page, next)
    }

    package func update(_ kind: ProviderConfig.Kind, id: String, _ edit: Edit) async throws -> Listed {
        guard directory.file.provider(id) == nil else { throw ProviderConfigError.readOnly }
        let changed = try await directory.store.write { transaction -> ProviderConfig in
            guard var config = try await transaction.providerConfig(id: id), config.kind == kind else { throw ProviderConfigError.notFound }
            config = try apply(edit, to: &config)
            try await transaction.update(config)
            return config
        }
        return try listed(changed)
    }

    package func delete(_ kind: ProviderConfig.Kind, id: String) async throws {
        guard directory.file.provider(id) == nil else { throw ProviderConfigError.readOnly }
        let deleted = try await directory.store.write { transaction -> Bool in
            guard let config = try await transaction.providerConfig(id: id), config.kind == kind else { return false }
            return try await transaction.deleteProviderConfig(id: id)
        }
        guard deleted else { throw ProviderConfigError.notFound }
    }

    /// `oidc.` and a name for an OpenID Connect provider; one of Latchkey's built-in providers otherwise.
    static func check(_ id: String, kind: ProviderConfig.Kind) throws(ProviderConfigError) {
        switch kind {
        case .oidc: guard IdentityProviderSettings.isOIDCProviderID(id) else { throw .invalidID }
        case .builtIn: guard BuiltInIdentityProvider(rawValue: id) != nil else { throw .invalidProviderID }
        }
    }

    static func kind(of id: String) -> ProviderConfig.Kind {
        BuiltInIdentityProvider(rawValue: id) == nil ? .oidc : .builtIn
    }

    /// `config` with `edit` applied, checked whole: a usable issuer and client id, one response type, and a client
    /// secret for the code flow.
    private func apply(_ edit: Edit, to config: inout ProviderConfig) throws -> ProviderConfig {
        var secret = directory.clientSecret(of: config)
        if let displayName = edit.displayName { config.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 } }
        if let enabled = edit.isEnabled { config.isEnabled = enabled }
        if let issuer = edit.issuer { config.issuer = issuer }
        if let clientID = edit.clientID { config.clientID = clientID ?? "" }
        if let clientSecret = edit.clientSecret { secret = clientSecret.flatMap { $0.isEmpty ? nil : $0 } }
        var (code, idToken) = (config.responseType == .code, config.responseType == .idToken)
        if let wanted = edit.code { code = wanted }
        if let wanted = edit.idToken { idToken = wanted }
        if config.kind == .oidc {
            guard let text = config.issuer, !text.isEmpty else { throw ProviderConfigError.missingIssuer }
            guard let issuer = URL(string: text), IdentityProviderSettings.isIssuer(issuer, allowingHTTP: directory.file.allowsInsecureIssuers) else {
                throw ProviderConfigError.invalidConfig("the issuer must be an https URL without query or fragment")
            }
            guard code != idToken else { throw ProviderConfigError.invalidConfig("choose one of responseType.code and responseType.idToken") }
        } else {
            (config.issuer, code, idToken) = (nil, true, false)
        }
        guard !config.clientID.isEmpty else { throw ProviderConfigError.missingClientID }
        guard config.clientID.utf8.count <= 256, !config.clientID.containsControlCharacters else { throw ProviderConfigError.invalidClientID }
        if code, secret == nil { throw ProviderConfigError.invalidConfig("the code flow needs a clientSecret") }
        config.responseType = code ? .code : .idToken
        config.sealedClientSecret = try secret.map { try directory.secret.seal(Array($0.utf8), for: .providerSecret) }
        return config
    }

    private func listed(_ config: ProviderConfig) throws -> Listed {
        guard let settings = directory.settings(of: config) else { throw ProviderConfigError.notFound }
        return Listed(settings: settings, clientSecret: directory.clientSecret(of: config))
    }
}
