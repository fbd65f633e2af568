import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func account(email: EmailAddress) async throws -> Account? {
        try await row("SELECT * FROM accounts WHERE email = \(email.value)").map(Self.account(from:))
    }

    func account(id: String) async throws -> Account? {
        try await row("SELECT * FROM accounts WHERE id = \(id)").map(Self.account(from:))
    }

    func account(phoneNumber: PhoneNumber) async throws -> Account? {
        try await row("SELECT * FROM accounts WHERE phone_number = \(phoneNumber.value)").map(Self.account(from:))
    }

    /// One round trip for the whole list, which a batch of an import reads at once.
    func accounts(ids: [String], emails: [EmailAddress], phoneNumbers: [PhoneNumber]) async throws -> [Account] {
        try await rows(
            """
            SELECT * FROM accounts WHERE id = ANY(\(ids)) OR email = ANY(\(emails.map(\.value))) OR phone_number = ANY(\(phoneNumbers.map(\.value)))
            """
        ).map(Self.account(from:))
    }

    func accounts(after: String?, limit: Int) async throws -> [Account] {
        // Byte order, as SQLite and Swift compare: the database's collation could order ids otherwise and skip some.
        try await rows("SELECT * FROM accounts WHERE id COLLATE \"C\" > \(after ?? "") ORDER BY id COLLATE \"C\" LIMIT \(limit)")
            .map(Self.account(from:))
    }

    func lockedAccount(id: String) async throws -> Account? {
        try await row("SELECT * FROM accounts WHERE id = \(id) FOR NO KEY UPDATE").map(Self.account(from:))
    }

    func lockedAccount(email: EmailAddress) async throws -> Account? {
        try await row("SELECT * FROM accounts WHERE email = \(email.value) FOR NO KEY UPDATE").map(Self.account(from:))
    }

    func lockedAccount(phoneNumber: PhoneNumber) async throws -> Account? {
        try await row("SELECT * FROM accounts WHERE phone_number = \(phoneNumber.value) FOR NO KEY UPDATE").map(Self.account(from:))
    }

    func insert(_ account: Account) async throws {
        try await executeGuarded(
            """
            INSERT INTO accounts (id, email, email_verified, password_hash, disabled, valid_since, created_at, last_sign_in_at, display_name,
                photo_url, custom_attributes, phone_number)
            VALUES (\(account.id), \(account.email?.value), \(account.isEmailVerified), \(account.passwordHash), \(account.isDisabled),
                \(account.validSince.timeIntervalSince1970), \(account.createdAt.timeIntervalSince1970),
                \(account.lastSignInAt?.timeIntervalSince1970), \(account.displayName), \(account.photoURL), \(account.customClaims?.json),
                \(account.phoneNumber?.value))
            """, conflict: Self.accountConflict)
    }

    func update(_ account: Account) async throws {
        try await executeGuarded(
            """
            UPDATE accounts SET email = \(account.email?.value), email_verified = \(account.isEmailVerified),
                password_hash = \(account.passwordHash), disabled = \(account.isDisabled),
                valid_since = GREATEST(valid_since, \(account.validSince.timeIntervalSince1970)),
                created_at = \(account.createdAt.timeIntervalSince1970), last_sign_in_at = \(account.lastSignInAt?.timeIntervalSince1970),
                display_name = \(account.displayName), photo_url = \(account.photoURL), custom_attributes = \(account.customClaims?.json),
                phone_number = \(account.phoneNumber?.value)
            WHERE id = \(account.id)
            """, conflict: Self.accountConflict)
    }

    func recordSignIn(accountID: String, at now: Date) async throws {
        try await execute("UPDATE accounts SET last_sign_in_at = \(now.timeIntervalSince1970) WHERE id = \(accountID)")
    }

    func raiseValidSince(accountID: String, to instant: Date) async throws {
        try await execute("UPDATE accounts SET valid_since = GREATEST(valid_since, \(instant.timeIntervalSince1970)) WHERE id = \(accountID)")
    }

    func deleteAccount(id: String, at now: Date) async throws {
        try await execute("DELETE FROM accounts WHERE id = \(id)")
        try await revokeSessions(accountID: id, at: now)
    }

    /// The clash a violated unique constraint of an account or an identity stands for.
    static func accountConflict(_ constraint: String) -> AccountConflict? {
        switch constraint {
        case "accounts_pkey": .idTaken
        case "accounts_email_key": .emailTaken
        case "accounts_phone_number_key": .phoneNumberTaken
        case "identities_pkey": .identityTaken
        default: nil
        }
    }

    private static func account(from row: PostgresRandomAccessRow) throws -> Account {
        Account(
            id: try row["id"].decode(String.self), email: try row["email"].decode(String?.self).flatMap(EmailAddress.init),
            isEmailVerified: try row["email_verified"].decode(Bool.self), passwordHash: try row["password_hash"].decode(String?.self),
            isDisabled: try row["disabled"].decode(Bool.self), validSince: Date(timeIntervalSince1970: try row["valid_since"].decode(Double.self)),
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
            lastSignInAt: date(try row["last_sign_in_at"].decode(Double?.self)), displayName: try row["display_name"].decode(String?.self),
            photoURL: try row["photo_url"].decode(String?.self),
            customClaims: try row["custom_attributes"].decode(String?.self).map(CustomClaims.init(stored:)),
            phoneNumber: try row["phone_number"].decode(String?.self).flatMap(PhoneNumber.init))
    }
}
