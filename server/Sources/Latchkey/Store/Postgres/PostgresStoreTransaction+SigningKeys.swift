import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    /// A key of an algorithm this build does not know is left out, as unreadable rows are elsewhere.
    func signingKeys() async throws -> [SigningKeyRecord] {
        try await rows("SELECT * FROM signing_keys ORDER BY created_at, id").compactMap { row in
            guard let algorithm = SigningAlgorithm(rawValue: try row["algorithm"].decode(String.self)) else { return nil }
            return SigningKeyRecord(
                id: try row["id"].decode(String.self), algorithm: algorithm, sealedPrivateKey: try row["sealed_private_key"].decode(Data.self),
                createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
                activatesAt: Date(timeIntervalSince1970: try row["activates_at"].decode(Double.self)))
        }
    }

    func addSigningKey(_ key: SigningKeyRecord) async throws -> Bool {
        try await row(
            """
            INSERT INTO signing_keys (id, algorithm, sealed_private_key, created_at, activates_at)
            VALUES (\(key.id), \(key.algorithm.rawValue), \(key.sealedPrivateKey), \(key.createdAt.timeIntervalSince1970),
                \(key.activatesAt.timeIntervalSince1970))
            ON CONFLICT (id) DO NOTHING
            RETURNING 1
            """) != nil
    }

    /// A transaction-scoped advisory lock: released at commit or rollback, whatever happens to the connection after.
    func lockSigningKeys() async throws {
        try await execute("SELECT pg_advisory_xact_lock(\(PostgresStore.signingKeyLock))")
    }
}
