import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func account(email: EmailAddress) async throws -> Account? {
        try row(sql: "SELECT * FROM accounts WHERE email = ?", arguments: [email.value]).flatMap(Self.account(from:))
    }

    func account(id: String) async throws -> Account? {
        try row(sql: "SELECT * FROM accounts WHERE id = ?", arguments: [id]).flatMap(Self.account(from:))
    }

    func account(phoneNumber: PhoneNumber) async throws -> Account? {
        try row(sql: "SELECT * FROM accounts WHERE phone_number = ?", arguments: [phoneNumber.value]).flatMap(Self.account(from:))
    }

    /// One cached statement per key: SQLite answers each in microseconds, in process.
    func accounts(ids: [String], emails: [EmailAddress], phoneNumbers: [PhoneNumber]) async throws -> [Account] {
        var found: [String: Account] = [:]
        for id in ids { if let account = try await account(id: id) { found[account.id] = account } }
        for email in emails { if let account = try await account(email: email) { found[account.id] = account } }
        for number in phoneNumbers { if let account = try await account(phoneNumber: number) { found[account.id] = account } }
        return Array(found.values)
    }

    func accounts(after: String?, limit: Int) async throws -> [Account] {
        try Row.fetchAll(db, sql: "SELECT * FROM accounts WHERE id > ? ORDER BY id LIMIT ?", arguments: [after ?? "", limit])
            .compactMap(Self.account(from:))
    }

    func lockedAccount(id: String) async throws -> Account? {
        try await account(id: id)
    }

    func lockedAccount(email: EmailAddress) async throws -> Account? {
        try await account(email: email)
    }

    func lockedAccount(phoneNumber: PhoneNumber) async throws -> Account? {
        try await account(phoneNumber: phoneNumber)
    }

    func insert(_ account: Account) async throws {
        try executeGuarded(
            sql: """
                INSERT INTO accounts (id, email, email_verified, password_hash, disabled, valid_since, created_at, last_sign_in_at,
                    display_name, photo_url, custom_attributes, phone_number)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: Self.arguments(account), conflict: Self.accountConflict)
    }

    func update(_ account: Account) async throws {
        try executeGuarded(
            sql: """
                UPDATE accounts SET id = ?, email = ?, email_verified = ?, password_hash = ?, disabled = ?, valid_since = MAX(valid_since, ?),
                    created_at = ?, last_sign_in_at = ?, display_name = ?, photo_url = ?, custom_attributes = ?, phone_number = ?
                WHERE id = ?
                """,
            arguments: Self.arguments(account) + [account.id], conflict: Self.accountConflict)
    }

    func recordSignIn(accountID: String, at now: Date) async throws {
        try execute(sql: "UPDATE accounts SET last_sign_in_at = ? WHERE id = ?", arguments: [now.timeIntervalSince1970, accountID])
    }

    func raiseValidSince(accountID: String, to instant: Date) async throws {
        try execute(sql: "UPDATE accounts SET valid_since = MAX(valid_since, ?) WHERE id = ?", arguments: [instant.timeIntervalSince1970, accountID])
    }

    func deleteAccount(id: String, at now: Date) async throws {
        try execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [id])
        try await revokeSessions(accountID: id, at: now)
    }

    private static func accountConflict(_ message: String) -> AccountConflict? {
        if message.contains("accounts.id") { return .idTaken }
        if message.contains("accounts.email") { return .emailTaken }
        return message.contains("accounts.phone_number") ? .phoneNumberTaken : nil
    }

    private static func account(from row: Row) -> Account? {
        Account(
            id: row["id"], email: (row["email"] as String?).flatMap(EmailAddress.init), isEmailVerified: row["email_verified"],
            passwordHash: row["password_hash"], isDisabled: row["disabled"], validSince: Date(timeIntervalSince1970: row["valid_since"]),
            createdAt: Date(timeIntervalSince1970: row["created_at"]), lastSignInAt: date(row["last_sign_in_at"]), displayName: row["display_name"],
            photoURL: row["photo_url"], customClaims: (row["custom_attributes"] as String?).map(CustomClaims.init(stored:)),
            phoneNumber: (row["phone_number"] as String?).flatMap(PhoneNumber.init))
    }

    private static func arguments(_ account: Account) -> StatementArguments {
        [
            account.id, account.email?.value, account.isEmailVerified, account.passwordHash, account.isDisabled,
            account.validSince.timeIntervalSince1970, account.createdAt.timeIntervalSince1970, account.lastSignInAt?.timeIntervalSince1970,
            account.displayName, account.photoURL, account.customClaims?.json, account.phoneNumber?.value,
        ]
    }
}
