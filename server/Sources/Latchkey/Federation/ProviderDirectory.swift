import Foundation
import LatchkeyDomain

/// Every identity provider people can sign in with: those of the configuration file, then those added through the
/// admin API (read from the store at each use, so every instance sees an addition, change or removal at once).
package struct ProviderDirectory: Sendable {
    let file: IdentityProvidersConfiguration
    let store: any Store
    let secret: ServerSecret

    package init(file: IdentityProvidersConfiguration, store: any Store, secret: ServerSecret) {
        self.file = file
        self.store = store
        self.secret = secret
    }

    /// The provider `id`, enabled or not; nil when neither the file nor the admin API has it.
    func provider(_ id: String) async throws -> IdentityProviderSettings? {
        if let defined = file.provider(id) { return defined }
        return try await store.read { try await $0.providerConfig(id: id) }.flatMap(settings)
    }

    /// A provider the admin API added, as sign-in uses it: every default of a provider in the file (discovery applies
    /// `idp.allowInsecureIssuers` to every provider).
    func settings(of config: ProviderConfig) -> IdentityProviderSettings? {
        guard let issuer = config.issuer.flatMap(URL.init(string:)) ?? BuiltInIdentityProvider(rawValue: config.providerID)?.issuer else { return nil }
        return IdentityProviderSettings(
            providerID: config.providerID, issuer: issuer, clientID: config.clientID, clientSecret: clientSecret(of: config),
            responseType: config.responseType, displayName: config.displayName, isEnabled: config.isEnabled)
    }

    /// The client secret `config` holds sealed; nil when it has none (or it was sealed under another secret).
    func clientSecret(of config: ProviderConfig) -> String? {
        config.sealedClientSecret.flatMap { try? secret.open($0, for: .providerSecret) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
