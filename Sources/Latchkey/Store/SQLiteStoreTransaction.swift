import Foundation
import GRDB

/// `StoreTransaction` over one GRDB write transaction. Dates are stored as Unix seconds (REAL).
///
/// Every statement is a cached one: compiled once per connection rather than once per request (compiling, with
/// GRDB's authorizer, cost more than running these single-row statements).
struct SQLiteStoreTransaction: StoreTransaction {
    let db: Database

    func execute(sql: String, arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    func row(sql: String, arguments: StatementArguments) throws -> Row? {
        try Row.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func insert(_ request: PendingRequest) throws {
        try execute(
            sql: """
                INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, ios_bundle_id,
                    android_package_name, android_install_app, handles_code_in_app)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                request.codeHash, request.email.value, request.createdAt.timeIntervalSince1970, request.expiresAt.timeIntervalSince1970,
                request.language.value, request.continueURL, request.iOSBundleID, request.androidPackageName, request.androidInstallApp,
                request.handlesCodeInApp,
            ])
    }

    func dropOutstandingRequests(for email: EmailAddress, keepingNewest count: Int) throws {
        try execute(
            sql: """
                DELETE FROM pending_requests WHERE id IN (
                    SELECT id FROM pending_requests WHERE email = ? AND used_at IS NULL
                    ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?)
                """,
            arguments: [email.value, count])
    }

    func pendingRequest(codeHash: Data) throws -> PendingRequest? {
        guard let row = try row(sql: "SELECT * FROM pending_requests WHERE code_hash = ?", arguments: [codeHash]),
            let email = EmailAddress(row["email"])
        else { return nil }
        return PendingRequest(
            id: row["id"], codeHash: row["code_hash"], email: email, createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), language: LanguageTag(row["language"]) ?? .english,
            continueURL: row["continue_url"], usedAt: Self.date(row["used_at"]), mismatchCount: row["mismatch_count"],
            iOSBundleID: row["ios_bundle_id"], androidPackageName: row["android_package_name"], androidInstallApp: row["android_install_app"],
            handlesCodeInApp: row["handles_code_in_app"])
    }

    func consumePendingRequest(id: Int64, at now: Date) throws -> Bool {
        try execute(
            sql: """
                UPDATE pending_requests SET used_at = ?
                WHERE id = ? AND used_at IS NULL AND expires_at > ? AND mismatch_count < ?
                """,
            arguments: [now.timeIntervalSince1970, id, now.timeIntervalSince1970, PendingRequest.maximumMismatches])
        return db.changesCount == 1
    }

    func recordMismatch(pendingRequestID: Int64) throws {
        try execute(sql: "UPDATE pending_requests SET mismatch_count = mismatch_count + 1 WHERE id = ?", arguments: [pendingRequestID])
    }

    func account(email: EmailAddress) throws -> Account? {
        try row(sql: "SELECT * FROM accounts WHERE email = ?", arguments: [email.value]).flatMap(Self.account(from:))
    }

    func account(id: String) throws -> Account? {
        try row(sql: "SELECT * FROM accounts WHERE id = ?", arguments: [id]).flatMap(Self.account(from:))
    }

    func insert(_ account: Account) throws {
        try writingAccount(
            sql: """
                INSERT INTO accounts (id, email, email_verified, password_hash, disabled, valid_since, created_at, last_sign_in_at,
                    display_name, photo_url)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: Self.arguments(account))
    }

    func update(_ account: Account) throws {
        try writingAccount(
            sql: """
                UPDATE accounts SET id = ?, email = ?, email_verified = ?, password_hash = ?, disabled = ?, valid_since = ?,
                    created_at = ?, last_sign_in_at = ?, display_name = ?, photo_url = ?
                WHERE id = ?
                """,
            arguments: Self.arguments(account) + [account.id])
    }

    /// Runs an account write, turning a unique violation into the `AccountConflict` it means. SQLite undoes just the
    /// failed statement, so the transaction goes on.
    private func writingAccount(sql: String, arguments: StatementArguments) throws {
        do {
            try execute(sql: sql, arguments: arguments)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            if error.message?.contains("accounts.id") == true { throw AccountConflict.idTaken }
            if error.message?.contains("accounts.email") == true { throw AccountConflict.emailTaken }
            throw error
        }
    }

    func deleteAccount(id: String, at now: Date) throws {
        try execute(sql: "DELETE FROM accounts WHERE id = ?", arguments: [id])
        try revokeSessions(accountID: id, at: now)
    }

    func enqueue(_ message: OutboxMessage) throws {
        try execute(
            sql: "INSERT INTO outbox (recipient, format, sealed_message, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                message.recipient.value, message.format.rawValue, message.sealedContent, message.createdAt.timeIntervalSince1970,
                message.createdAt.timeIntervalSince1970,
            ])
    }

    func rateWindow(key: String, at now: Int) throws -> RateWindow? {
        try row(sql: "SELECT count, expires_at FROM rate_counters WHERE key = ? AND expires_at > ?", arguments: [key, now])
            .map { RateWindow(count: $0["count"], endsAt: $0["expires_at"]) }
    }

    /// In `DO UPDATE`, bare column names are the stored row's: a window still open counts on, an ended one restarts.
    func countRateAttempt(key: String, at now: Int, windowSeconds: Int) throws {
        try execute(
            sql: """
                INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES (?1, ?2, 1, ?2 + ?3)
                ON CONFLICT (key) DO UPDATE SET
                    count = CASE WHEN expires_at > excluded.window_start THEN count + 1 ELSE 1 END,
                    window_start = CASE WHEN expires_at > excluded.window_start THEN window_start ELSE excluded.window_start END,
                    expires_at = CASE WHEN expires_at > excluded.window_start THEN expires_at ELSE excluded.expires_at END
                """,
            arguments: [key, now, windowSeconds])
    }

    func record(_ event: AuditEvent) throws {
        try execute(
            sql: "INSERT INTO audit_events (at, kind, account_id, email, ip_address, user_agent, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                event.at.timeIntervalSince1970, event.kind.rawValue, event.accountID, event.email?.value, event.requester.ipAddress,
                event.requester.userAgent, event.detail,
            ])
    }

    static func date(_ seconds: Double?) -> Date? {
        seconds.map(Date.init(timeIntervalSince1970:))
    }

    private static func account(from row: Row) -> Account? {
        Account(
            id: row["id"], email: (row["email"] as String?).flatMap(EmailAddress.init), isEmailVerified: row["email_verified"],
            passwordHash: row["password_hash"], isDisabled: row["disabled"], validSince: Date(timeIntervalSince1970: row["valid_since"]),
            createdAt: Date(timeIntervalSince1970: row["created_at"]), lastSignInAt: date(row["last_sign_in_at"]), displayName: row["display_name"],
            photoURL: row["photo_url"])
    }

    private static func arguments(_ account: Account) -> StatementArguments {
        [
            account.id, account.email?.value, account.isEmailVerified, account.passwordHash, account.isDisabled,
            account.validSince.timeIntervalSince1970, account.createdAt.timeIntervalSince1970, account.lastSignInAt?.timeIntervalSince1970,
            account.displayName, account.photoURL,
        ]
    }
}
