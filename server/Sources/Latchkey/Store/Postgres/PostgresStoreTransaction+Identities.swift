import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func identities(accountID: String) async throws -> [Identity] {
        try await rows("SELECT * FROM identities WHERE account_id = \(accountID) ORDER BY created_at, provider_id").map(Self.identity(from:))
    }

    func identity(providerID: String, providerUserID: String) async throws -> Identity? {
        try await row("SELECT * FROM identities WHERE provider_id = \(providerID) AND provider_uid = \(providerUserID)").map(Self.identity(from:))
    }

    /// One round trip for the whole list: the keys as two arrays, paired up again by `unnest`.
    func identities(keys: [IdentityKey]) async throws -> [Identity] {
        try await rows(
            """
            SELECT identities.* FROM identities
            JOIN unnest(\(keys.map(\.providerID))::text[], \(keys.map(\.providerUserID))::text[]) AS wanted(provider_id, provider_uid)
            USING (provider_id, provider_uid)
            """
        ).map(Self.identity(from:))
    }

    func identities(accountIDs: [String]) async throws -> [Identity] {
        try await rows("SELECT * FROM identities WHERE account_id = ANY(\(accountIDs))").map(Self.identity(from:))
    }

    /// An upsert whose update applies only to the same account's row; no row back means another account holds it.
    func save(_ identity: Identity) async throws {
        let saved = try await row(
            """
            INSERT INTO identities (provider_id, provider_uid, account_id, email, email_verified, display_name, photo_url, raw_profile, created_at)
            VALUES (\(identity.providerID), \(identity.providerUserID), \(identity.accountID), \(identity.email?.value), \(identity.isEmailVerified),
                \(identity.displayName), \(identity.photoURL), \(identity.rawProfile), \(identity.createdAt.timeIntervalSince1970))
            ON CONFLICT (provider_id, provider_uid) DO UPDATE SET
                email = excluded.email, email_verified = excluded.email_verified, display_name = excluded.display_name,
                photo_url = excluded.photo_url, raw_profile = excluded.raw_profile
            WHERE identities.account_id = excluded.account_id
            RETURNING 1
            """)
        guard saved != nil else { throw AccountConflict.identityTaken }
    }

    func deleteIdentities(accountID: String, providerID: String) async throws {
        try await execute("DELETE FROM identities WHERE account_id = \(accountID) AND provider_id = \(providerID)")
    }

    private static func identity(from row: PostgresRandomAccessRow) throws -> Identity {
        Identity(
            providerID: try row["provider_id"].decode(String.self), providerUserID: try row["provider_uid"].decode(String.self),
            accountID: try row["account_id"].decode(String.self), email: try row["email"].decode(String?.self).flatMap(EmailAddress.init),
            isEmailVerified: try row["email_verified"].decode(Bool.self), displayName: try row["display_name"].decode(String?.self),
            photoURL: try row["photo_url"].decode(String?.self), rawProfile: try row["raw_profile"].decode(String?.self),
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)))
    }
}
