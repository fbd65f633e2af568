import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func providerConfig(id: String) async throws -> ProviderConfig? {
        try row(sql: "SELECT * FROM provider_configs WHERE id = ?", arguments: [id]).flatMap(Self.providerConfig)
    }

    func providerConfigs(_ kind: ProviderConfig.Kind, after: String?, limit: Int) async throws -> [ProviderConfig] {
        try Row.fetchAll(
            db, sql: "SELECT * FROM provider_configs WHERE kind = ? AND id > ? ORDER BY id LIMIT ?", arguments: [kind.rawValue, after ?? "", limit]
        ).compactMap(Self.providerConfig)
    }

    func insert(_ config: ProviderConfig) async throws -> Bool {
        try execute(
            sql: """
                INSERT INTO provider_configs (id, kind, display_name, enabled, issuer, client_id, sealed_client_secret, response_type, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
                """,
            arguments: Self.arguments(config))
        return db.changesCount == 1
    }

    func update(_ config: ProviderConfig) async throws {
        try execute(
            sql: """
                UPDATE provider_configs SET kind = ?2, display_name = ?3, enabled = ?4, issuer = ?5, client_id = ?6, sealed_client_secret = ?7,
                    response_type = ?8, created_at = ?9
                WHERE id = ?1
                """,
            arguments: Self.arguments(config))
    }

    func deleteProviderConfig(id: String) async throws -> Bool {
        try execute(sql: "DELETE FROM provider_configs WHERE id = ?", arguments: [id])
        return db.changesCount == 1
    }

    private static func arguments(_ config: ProviderConfig) -> StatementArguments {
        [
            config.providerID, config.kind.rawValue, config.displayName, config.isEnabled, config.issuer, config.clientID, config.sealedClientSecret,
            config.responseType.rawValue, config.createdAt.timeIntervalSince1970,
        ]
    }

    private static func providerConfig(_ row: Row) -> ProviderConfig? {
        guard let kind = ProviderConfig.Kind(rawValue: row["kind"]), let responseType = ProviderResponseType(rawValue: row["response_type"])
        else { return nil }
        return ProviderConfig(
            providerID: row["id"], kind: kind, displayName: row["display_name"], isEnabled: row["enabled"], issuer: row["issuer"],
            clientID: row["client_id"], sealedClientSecret: row["sealed_client_secret"], responseType: responseType,
            createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }
}
