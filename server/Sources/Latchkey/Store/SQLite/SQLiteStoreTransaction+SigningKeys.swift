import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    /// A key of an algorithm this build does not know is left out, as unreadable rows are elsewhere.
    func signingKeys() async throws -> [SigningKeyRecord] {
        try rows(sql: "SELECT * FROM signing_keys ORDER BY created_at, id", arguments: []).compactMap { row in
            guard let algorithm = SigningAlgorithm(rawValue: row["algorithm"]) else { return nil }
            return SigningKeyRecord(
                id: row["id"], algorithm: algorithm, sealedPrivateKey: row["sealed_private_key"],
                createdAt: Date(timeIntervalSince1970: row["created_at"]), activatesAt: Date(timeIntervalSince1970: row["activates_at"]))
        }
    }

    func addSigningKey(_ key: SigningKeyRecord) async throws -> Bool {
        try execute(
            sql: """
                INSERT INTO signing_keys (id, algorithm, sealed_private_key, created_at, activates_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (id) DO NOTHING
                """,
            arguments: [
                key.id, key.algorithm.rawValue, key.sealedPrivateKey, key.createdAt.timeIntervalSince1970, key.activatesAt.timeIntervalSince1970,
            ])
        return db.changesCount == 1
    }

    /// Nothing to take: a write transaction here is `IMMEDIATE`, so it holds SQLite's one write lock from its start.
    func lockSigningKeys() async throws {}
}
