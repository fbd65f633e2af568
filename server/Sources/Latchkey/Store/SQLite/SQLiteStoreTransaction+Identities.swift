import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func identities(accountID: String) async throws -> [Identity] {
        try rows(sql: "SELECT * FROM identities WHERE account_id = ? ORDER BY created_at, provider_id", arguments: [accountID]).map(Self.identity(from:))
    }

    func identity(providerID: String, providerUserID: String) async throws -> Identity? {
        try row(sql: "SELECT * FROM identities WHERE provider_id = ? AND provider_uid = ?", arguments: [providerID, providerUserID])
            .map(Self.identity(from:))
    }

    func identities(keys: [IdentityKey]) async throws -> [Identity] {
        var found: [Identity] = []
        for key in keys { if let identity = try await identity(providerID: key.providerID, providerUserID: key.providerUserID) { found.append(identity) } }
        return found
    }

    func identities(accountIDs: [String]) async throws -> [Identity] {
        var found: [Identity] = []
        for id in accountIDs { found += try await identities(accountID: id) }
        return found
    }

    /// An upsert whose update applies only to the same account's row; no row changed means another account holds it.
    func save(_ identity: Identity) async throws {
        try execute(
            sql: """
                INSERT INTO identities (provider_id, provider_uid, account_id, email, email_verified, display_name, photo_url, raw_profile,
                    created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (provider_id, provider_uid) DO UPDATE SET
                    email = excluded.email, email_verified = excluded.email_verified, display_name = excluded.display_name,
                    photo_url = excluded.photo_url, raw_profile = excluded.raw_profile
                WHERE account_id = excluded.account_id
                """,
            arguments: [
                identity.providerID, identity.providerUserID, identity.accountID, identity.email?.value, identity.isEmailVerified,
                identity.displayName, identity.photoURL, identity.rawProfile, identity.createdAt.timeIntervalSince1970,
            ])
        guard db.changesCount == 1 else { throw AccountConflict.identityTaken }
    }

    func deleteIdentities(accountID: String, providerID: String) async throws {
        try execute(sql: "DELETE FROM identities WHERE account_id = ? AND provider_id = ?", arguments: [accountID, providerID])
    }

    private static func identity(from row: Row) -> Identity {
        Identity(
            providerID: row["provider_id"], providerUserID: row["provider_uid"], accountID: row["account_id"],
            email: (row["email"] as String?).flatMap(EmailAddress.init), isEmailVerified: row["email_verified"], displayName: row["display_name"],
            photoURL: row["photo_url"], rawProfile: row["raw_profile"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }
}
