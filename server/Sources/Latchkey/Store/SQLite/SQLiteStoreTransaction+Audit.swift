import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func record(_ event: AuditEvent) async throws {
        try execute(
            sql: "INSERT INTO audit_events (at, kind, account_id, email, ip_address, user_agent, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [
                event.at.timeIntervalSince1970, event.kind.rawValue, event.accountID, event.email?.value, event.requester.ipAddress,
                event.requester.userAgent, event.detail,
            ])
    }

    func auditEvents(email: EmailAddress, limit: Int) async throws -> [AuditEvent] {
        try rows(
            sql: """
                SELECT * FROM audit_events
                WHERE email = ?1
                    OR account_id IN (SELECT id FROM accounts WHERE email = ?1)
                    OR account_id IN (SELECT account_id FROM audit_events WHERE email = ?1 AND account_id IS NOT NULL)
                ORDER BY at DESC, id DESC LIMIT ?2
                """,
            arguments: [email.value, limit]
        ).compactMap { row -> AuditEvent? in
            guard let kind = AuditEvent.Kind(rawValue: row["kind"]) else { return nil }
            return AuditEvent(
                kind, at: Date(timeIntervalSince1970: row["at"]), accountID: row["account_id"], email: (row["email"] as String?).flatMap(EmailAddress.init),
                requester: RequesterSummary(ipAddress: row["ip_address"], userAgent: row["user_agent"]), detail: row["detail"])
        }
    }
}
