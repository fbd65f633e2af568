import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func insert(_ request: PendingRequest) async throws {
        try execute(
            sql: """
                INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, ios_bundle_id,
                    android_package_name, android_install_app, handles_code_in_app, typed_code_hash, action, account_id, new_email)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                request.codeHash, request.email.value, request.createdAt.timeIntervalSince1970, request.expiresAt.timeIntervalSince1970,
                request.language.value, request.continueURL, request.iOSBundleID, request.androidPackageName, request.androidInstallApp,
                request.handlesCodeInApp, request.typedCodeHash, request.action.rawValue, request.accountID, request.newEmail?.value,
            ])
    }

    func dropOutstandingRequests(for email: EmailAddress, action: EmailAction, keepingNewest count: Int) async throws {
        try execute(
            sql: """
                DELETE FROM pending_requests WHERE id IN (
                    SELECT id FROM pending_requests WHERE email = ? AND action = ? AND used_at IS NULL
                    ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?)
                """,
            arguments: [email.value, action.rawValue, count])
    }

    func spendOutstandingRequests(for email: EmailAddress, action: EmailAction, at now: Date) async throws {
        try execute(
            sql: "UPDATE pending_requests SET used_at = ? WHERE email = ? AND action = ? AND used_at IS NULL",
            arguments: [now.timeIntervalSince1970, email.value, action.rawValue])
    }

    func spendOutstandingRequests(accountID: String, sparingUndosBefore undoID: Int64?, at now: Date) async throws {
        try execute(
            sql: """
                UPDATE pending_requests SET used_at = ?
                WHERE account_id = ? AND used_at IS NULL AND NOT (action = 'recoverEmail' AND id < ?)
                """,
            arguments: [now.timeIntervalSince1970, accountID, undoID ?? 0])
    }

    func cancelUndos(accountID: String, at now: Date) async throws -> Int {
        try execute(
            sql: "UPDATE pending_requests SET used_at = ? WHERE account_id = ? AND action = 'recoverEmail' AND used_at IS NULL AND expires_at > ?",
            arguments: [now.timeIntervalSince1970, accountID, now.timeIntervalSince1970])
        return db.changesCount
    }

    func isAwaitingUndo(_ email: EmailAddress, byAnotherThan accountID: String, at now: Date) async throws -> Bool {
        try row(
            sql: """
                SELECT 1 FROM pending_requests
                WHERE email = ? AND action = 'recoverEmail' AND used_at IS NULL AND expires_at > ? AND account_id <> ?
                    AND EXISTS (SELECT 1 FROM accounts WHERE accounts.id = pending_requests.account_id AND NOT accounts.disabled)
                LIMIT 1
                """,
            arguments: [email.value, now.timeIntervalSince1970, accountID]) != nil
    }

    func undoOwners(of emails: [EmailAddress], at now: Date) async throws -> [EmailAddress: Set<String>] {
        var owners: [EmailAddress: Set<String>] = [:]
        for email in emails {
            let accounts = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT account_id FROM pending_requests
                        WHERE email = ? AND action = 'recoverEmail' AND used_at IS NULL AND expires_at > ?
                            AND EXISTS (SELECT 1 FROM accounts WHERE accounts.id = pending_requests.account_id AND NOT accounts.disabled)
                        """),
                arguments: [email.value, now.timeIntervalSince1970])
            if !accounts.isEmpty { owners[email, default: []].formUnion(accounts) }
        }
        return owners
    }

    func pendingRequest(codeHash: Data) async throws -> PendingRequest? {
        try row(sql: "SELECT * FROM pending_requests WHERE code_hash = ?", arguments: [codeHash]).flatMap(Self.pendingRequest)
    }

    func pendingRequest(typedCodeHash: Data) async throws -> PendingRequest? {
        try row(sql: "SELECT * FROM pending_requests WHERE typed_code_hash = ? ORDER BY id DESC LIMIT 1", arguments: [typedCodeHash])
            .flatMap(Self.pendingRequest)
    }

    func recordTypedCodeMiss(for email: EmailAddress, at now: Date) async throws {
        try execute(
            sql: """
                UPDATE pending_requests SET typed_code_misses = typed_code_misses + 1
                WHERE email = ? AND used_at IS NULL AND expires_at > ? AND typed_code_hash IS NOT NULL
                """,
            arguments: [email.value, now.timeIntervalSince1970])
    }

    private static func pendingRequest(_ row: Row) -> PendingRequest? {
        guard let email = EmailAddress(row["email"]), let action = EmailAction(rawValue: row["action"]) else { return nil }
        return PendingRequest(
            id: row["id"], codeHash: row["code_hash"], email: email, createdAt: Date(timeIntervalSince1970: row["created_at"]),
            expiresAt: Date(timeIntervalSince1970: row["expires_at"]), language: LanguageTag(row["language"]) ?? .english,
            continueURL: row["continue_url"], usedAt: Self.date(row["used_at"]), mismatchCount: row["mismatch_count"],
            iOSBundleID: row["ios_bundle_id"], androidPackageName: row["android_package_name"], androidInstallApp: row["android_install_app"],
            handlesCodeInApp: row["handles_code_in_app"], typedCodeHash: row["typed_code_hash"], typedCodeMisses: row["typed_code_misses"],
            action: action, accountID: row["account_id"], newEmail: (row["new_email"] as String?).flatMap(EmailAddress.init))
    }

    func consumePendingRequest(id: Int64, at now: Date) async throws -> Bool {
        try execute(
            sql: """
                UPDATE pending_requests SET used_at = ?
                WHERE id = ? AND used_at IS NULL AND expires_at > ? AND mismatch_count < ?
                """,
            arguments: [now.timeIntervalSince1970, id, now.timeIntervalSince1970, PendingRequest.maximumMismatches])
        return db.changesCount == 1
    }

    func recordMismatch(pendingRequestID: Int64) async throws {
        try execute(sql: "UPDATE pending_requests SET mismatch_count = mismatch_count + 1 WHERE id = ?", arguments: [pendingRequestID])
    }
}
