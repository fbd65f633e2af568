import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func providerConfig(id: String) async throws -> ProviderConfig? {
        try await row("SELECT * FROM provider_configs WHERE id = \(id)").flatMap(Self.providerConfig)
    }

    func providerConfigs(_ kind: ProviderConfig.Kind, after: String?, limit: Int) async throws -> [ProviderConfig] {
        // Byte order, as SQLite and Swift compare: the database's collation could order ids otherwise and skip some.
        try await rows(
            """
            SELECT * FROM provider_configs WHERE kind = \(kind.rawValue) AND id COLLATE "C" > \(after ?? "") ORDER BY id COLLATE "C" LIMIT \(limit)
            """)
            .compactMap(Self.providerConfig)
    }

    func insert(_ config: ProviderConfig) async throws -> Bool {
        try await row(
            """
            INSERT INTO provider_configs (id, kind, display_name, enabled, issuer, client_id, sealed_client_secret, response_type, created_at)
            VALUES (\(config.providerID), \(config.kind.rawValue), \(config.displayName), \(config.isEnabled), \(config.issuer), \(config.clientID),
                \(config.sealedClientSecret), \(config.responseType.rawValue), \(config.createdAt.timeIntervalSince1970))
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """) != nil
    }

    func update(_ config: ProviderConfig) async throws {
        try await execute(
            """
            UPDATE provider_configs SET kind = \(config.kind.rawValue), display_name = \(config.displayName), enabled = \(config.isEnabled),
                issuer = \(config.issuer), client_id = \(config.clientID), sealed_client_secret = \(config.sealedClientSecret),
                response_type = \(config.responseType.rawValue), created_at = \(config.createdAt.timeIntervalSince1970)
            WHERE id = \(config.providerID)
            """)
    }

    func deleteProviderConfig(id: String) async throws -> Bool {
        try await row("DELETE FROM provider_configs WHERE id = \(id) RETURNING 1") != nil
    }

    private static func providerConfig(_ row: PostgresRandomAccessRow) throws -> ProviderConfig? {
        guard let kind = ProviderConfig.Kind(rawValue: try row["kind"].decode(String.self)),
            let responseType = ProviderResponseType(rawValue: try row["response_type"].decode(String.self))
        else { return nil }
        return ProviderConfig(
            providerID: try row["id"].decode(String.self), kind: kind, displayName: try row["display_name"].decode(String?.self),
            isEnabled: try row["enabled"].decode(Bool.self), issuer: try row["issuer"].decode(String?.self), clientID: try row["client_id"].decode(String.self),
            sealedClientSecret: try row["sealed_client_secret"].decode(Data?.self), responseType: responseType,
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)))
    }
}
