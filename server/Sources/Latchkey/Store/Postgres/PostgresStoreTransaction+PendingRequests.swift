import Foundation
import LatchkeyDomain
import PostgresNIO

extension PostgresStoreTransaction {
    func insert(_ request: PendingRequest) async throws {
        try await execute(
            """
            INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, ios_bundle_id, android_package_name,
                android_install_app, handles_code_in_app, typed_code_hash, action, account_id, new_email)
            VALUES (\(request.codeHash), \(request.email.value), \(request.createdAt.timeIntervalSince1970), \(request.expiresAt.timeIntervalSince1970),
                \(request.language.value), \(request.continueURL), \(request.iOSBundleID), \(request.androidPackageName), \(request.androidInstallApp),
                \(request.handlesCodeInApp), \(request.typedCodeHash), \(request.action.rawValue), \(request.accountID), \(request.newEmail?.value))
            """)
    }

    func dropOutstandingRequests(for email: EmailAddress, action: EmailAction, keepingNewest count: Int) async throws {
        try await execute(
            """
            DELETE FROM pending_requests WHERE id IN (
                SELECT id FROM pending_requests WHERE email = \(email.value) AND action = \(action.rawValue) AND used_at IS NULL
                ORDER BY created_at DESC, id DESC OFFSET \(count))
            """)
    }

    func spendOutstandingRequests(for email: EmailAddress, action: EmailAction, at now: Date) async throws {
        try await execute(
            """
            UPDATE pending_requests SET used_at = \(now.timeIntervalSince1970)
            WHERE email = \(email.value) AND action = \(action.rawValue) AND used_at IS NULL
            """)
    }

    func spendOutstandingRequests(accountID: String, sparingUndosBefore undoID: Int64?, at now: Date) async throws {
        try await execute(
            """
            UPDATE pending_requests SET used_at = \(now.timeIntervalSince1970)
            WHERE account_id = \(accountID) AND used_at IS NULL AND NOT (action = 'recoverEmail' AND id < \(undoID ?? 0))
            """)
    }

    func cancelUndos(accountID: String, at now: Date) async throws -> Int {
        let seconds = now.timeIntervalSince1970
        return try await rows(
            """
            UPDATE pending_requests SET used_at = \(seconds)
            WHERE account_id = \(accountID) AND action = 'recoverEmail' AND used_at IS NULL AND expires_at > \(seconds) RETURNING id
            """
        ).count
    }

    func isAwaitingUndo(_ email: EmailAddress, byAnotherThan accountID: String, at now: Date) async throws -> Bool {
        try await row(
            """
            SELECT 1 FROM pending_requests
            WHERE email = \(email.value) AND action = 'recoverEmail' AND used_at IS NULL AND expires_at > \(now.timeIntervalSince1970)
                AND account_id <> \(accountID)
                AND EXISTS (SELECT 1 FROM accounts WHERE accounts.id = pending_requests.account_id AND NOT accounts.disabled)
            LIMIT 1
            """) != nil
    }

    func undoOwners(of emails: [EmailAddress], at now: Date) async throws -> [EmailAddress: Set<String>] {
        let rows = try await rows(
            """
            SELECT email, account_id FROM pending_requests
            WHERE email = ANY(\(emails.map(\.value))) AND action = 'recoverEmail' AND used_at IS NULL AND expires_at > \(now.timeIntervalSince1970)
                AND EXISTS (SELECT 1 FROM accounts WHERE accounts.id = pending_requests.account_id AND NOT accounts.disabled)
            """)
        var owners: [EmailAddress: Set<String>] = [:]
        for row in rows {
            if let address = EmailAddress(try row["email"].decode(String.self)) {
                owners[address, default: []].insert(try row["account_id"].decode(String.self))
            }
        }
        return owners
    }

    func pendingRequest(codeHash: Data) async throws -> PendingRequest? {
        try await row("SELECT * FROM pending_requests WHERE code_hash = \(codeHash)").flatMap(Self.pendingRequest)
    }

    func pendingRequest(typedCodeHash: Data) async throws -> PendingRequest? {
        try await row("SELECT * FROM pending_requests WHERE typed_code_hash = \(typedCodeHash) ORDER BY id DESC LIMIT 1").flatMap(Self.pendingRequest)
    }

    func recordTypedCodeMiss(for email: EmailAddress, at now: Date) async throws {
        try await execute(
            """
            UPDATE pending_requests SET typed_code_misses = typed_code_misses + 1
            WHERE email = \(email.value) AND used_at IS NULL AND expires_at > \(now.timeIntervalSince1970) AND typed_code_hash IS NOT NULL
            """)
    }

    private static func pendingRequest(_ row: PostgresRandomAccessRow) throws -> PendingRequest? {
        guard let email = EmailAddress(try row["email"].decode(String.self)), let action = EmailAction(rawValue: try row["action"].decode(String.self))
        else { return nil }
        return PendingRequest(
            id: try row["id"].decode(Int64.self), codeHash: try row["code_hash"].decode(Data.self), email: email,
            createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
            expiresAt: Date(timeIntervalSince1970: try row["expires_at"].decode(Double.self)),
            language: LanguageTag(try row["language"].decode(String.self)) ?? .english, continueURL: try row["continue_url"].decode(String.self),
            usedAt: Self.date(try row["used_at"].decode(Double?.self)), mismatchCount: try row["mismatch_count"].decode(Int.self),
            iOSBundleID: try row["ios_bundle_id"].decode(String?.self), androidPackageName: try row["android_package_name"].decode(String?.self),
            androidInstallApp: try row["android_install_app"].decode(Bool.self), handlesCodeInApp: try row["handles_code_in_app"].decode(Bool.self),
            typedCodeHash: try row["typed_code_hash"].decode(Data?.self), typedCodeMisses: try row["typed_code_misses"].decode(Int.self),
            action: action, accountID: try row["account_id"].decode(String?.self),
            newEmail: try row["new_email"].decode(String?.self).flatMap(EmailAddress.init))
    }

    func consumePendingRequest(id: Int64, at now: Date) async throws -> Bool {
        let seconds = now.timeIntervalSince1970
        return try await row(
            """
            UPDATE pending_requests SET used_at = \(seconds)
            WHERE id = \(id) AND used_at IS NULL AND expires_at > \(seconds) AND mismatch_count < \(PendingRequest.maximumMismatches)
            RETURNING 1
            """) != nil
    }

    func recordMismatch(pendingRequestID: Int64) async throws {
        try await execute("UPDATE pending_requests SET mismatch_count = mismatch_count + 1 WHERE id = \(pendingRequestID)")
    }
}
