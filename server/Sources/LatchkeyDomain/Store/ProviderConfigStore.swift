import Foundation

/// Identity providers added through the admin API, by provider id.
package protocol ProviderConfigStore {
    func providerConfig(id: String) async throws -> ProviderConfig?
    /// Up to `limit` providers of `kind` whose ids sort after `after`, in id order.
    func providerConfigs(_ kind: ProviderConfig.Kind, after: String?, limit: Int) async throws -> [ProviderConfig]
    /// Adds `config`; false when its id is taken.
    func insert(_ config: ProviderConfig) async throws -> Bool
    /// Replaces the stored provider of the same id.
    func update(_ config: ProviderConfig) async throws
    /// Removes the provider; false when there was none.
    func deleteProviderConfig(id: String) async throws -> Bool
}
