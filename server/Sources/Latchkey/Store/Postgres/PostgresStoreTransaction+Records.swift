import Foundation
import LatchkeyDomain
import PostgresNIO

/// Audit events, rate counters and retention.
extension PostgresStoreTransaction {
    func record(_ event: AuditEvent) async throws {
        try await execute(
            """
            INSERT INTO audit_events (at, kind, account_id, email, ip_address, user_agent, detail)
            VALUES (\(event.at.timeIntervalSince1970), \(event.kind.rawValue), \(event.accountID), \(event.email?.value), \(event.requester.ipAddress),
                \(event.requester.userAgent), \(event.detail))
            """)
    }

    func auditEvents(email: EmailAddress, limit: Int) async throws -> [AuditEvent] {
        let address = email.value
        return try await rows(
            """
            SELECT * FROM audit_events
            WHERE email = \(address)
                OR account_id IN (SELECT id FROM accounts WHERE email = \(address))
                OR account_id IN (SELECT account_id FROM audit_events WHERE email = \(address) AND account_id IS NOT NULL)
            ORDER BY at DESC, id DESC LIMIT \(limit)
            """
        ).compactMap { row -> AuditEvent? in
            guard let kind = AuditEvent.Kind(rawValue: try row["kind"].decode(String.self)) else { return nil }
            return AuditEvent(
                kind, at: Date(timeIntervalSince1970: try row["at"].decode(Double.self)), accountID: try row["account_id"].decode(String?.self),
                email: try row["email"].decode(String?.self).flatMap(EmailAddress.init),
                requester: RequesterSummary(ipAddress: try row["ip_address"].decode(String?.self), userAgent: try row["user_agent"].decode(String?.self)),
                detail: try row["detail"].decode(String?.self))
        }
    }

    func rateWindow(key: String, at now: Int) async throws -> RateWindow? {
        try await row("SELECT count, expires_at FROM rate_counters WHERE key = \(key) AND expires_at > \(Int64(now))").map(Self.window(from:))
    }

    /// In `DO UPDATE`, `rate_counters.` is the stored row: a window still open counts on while it has room, an ended
    /// one restarts, a full one is left alone and returns no row.
    func countRateAttempt(key: String, at now: Int, windowSeconds: Int, limit: Int) async throws -> RateWindow? {
        let (start, end) = (Int64(now), Int64(now + windowSeconds))
        return try await row(
            """
            INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES (\(key), \(start), 1, \(end))
            ON CONFLICT (key) DO UPDATE SET
                count = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
                window_start = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.window_start
                    ELSE excluded.window_start END,
                expires_at = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.expires_at ELSE excluded.expires_at END
            WHERE rate_counters.expires_at <= excluded.window_start OR rate_counters.count < \(limit)
            RETURNING count, expires_at
            """
        ).map(Self.window(from:))
    }

    func uncountRateAttempt(key: String, at now: Int) async throws {
        try await execute("UPDATE rate_counters SET count = count - 1 WHERE key = \(key) AND expires_at > \(Int64(now)) AND count > 0")
    }

    func markRateWindowRefused(key: String, at now: Int, limit: Int) async throws -> Bool {
        try await row(
            "UPDATE rate_counters SET count = count + 1 WHERE key = \(key) AND expires_at > \(Int64(now)) AND count = \(limit) RETURNING 1"
        ) != nil
    }

    /// One bounded `DELETE` per kind, each finding its rows through an index on the time that ends them.
    func deleteExpired(_ rows: ExpiringRows, before cutoff: Date, limit: Int) async throws -> Int {
        let seconds = cutoff.timeIntervalSince1970
        let query: PostgresQuery =
            switch rows {
            case .signInRequests:
                "DELETE FROM pending_requests WHERE id IN (SELECT id FROM pending_requests WHERE expires_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .deliveredMail:
                "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'sent' AND sent_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .rotatedRefreshTokens:
                "DELETE FROM refresh_tokens WHERE id IN (SELECT id FROM refresh_tokens WHERE rotated_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .revokedSessions:
                // The sessions' tokens go with them.
                """
                WITH gone AS (DELETE FROM sessions WHERE id IN (SELECT id FROM sessions WHERE revoked_at < \(seconds) LIMIT \(limit)) RETURNING id),
                    tokens AS (DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM gone))
                SELECT 1 FROM gone
                """
            case .rateCounters:
                "DELETE FROM rate_counters WHERE id IN (SELECT id FROM rate_counters WHERE expires_at < \(Int64(seconds)) LIMIT \(limit)) RETURNING 1"
            case .auditEvents:
                "DELETE FROM audit_events WHERE id IN (SELECT id FROM audit_events WHERE at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .providerSessions:
                "DELETE FROM provider_sessions WHERE id IN (SELECT id FROM provider_sessions WHERE expires_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .pendingCredentials:
                "DELETE FROM pending_credentials WHERE id IN (SELECT id FROM pending_credentials WHERE expires_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .pendingEnrollments:
                "DELETE FROM pending_enrollments WHERE id IN (SELECT id FROM pending_enrollments WHERE expires_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .secondFactorChallenges:
                """
                DELETE FROM second_factor_challenges WHERE id IN (SELECT id FROM second_factor_challenges WHERE expires_at < \(seconds) LIMIT \(limit))
                RETURNING 1
                """
            case .phoneVerifications:
                "DELETE FROM phone_verifications WHERE id IN (SELECT id FROM phone_verifications WHERE expires_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .coolOffs:
                "DELETE FROM cool_offs WHERE id IN (SELECT id FROM cool_offs WHERE until < \(seconds) LIMIT \(limit)) RETURNING 1"
            case .appReceipts:
                "DELETE FROM app_receipts WHERE id IN (SELECT id FROM app_receipts WHERE expires_at < \(seconds) LIMIT \(limit)) RETURNING 1"
            }
        return try await self.rows(query).count
    }

    func takeSweepTurn() async throws -> Bool {
        try await row("SELECT pg_try_advisory_xact_lock(\(PostgresStore.sweepLock)) AS turn")?["turn"].decode(Bool.self) ?? false
    }

    private static func window(from row: PostgresRandomAccessRow) throws -> RateWindow {
        RateWindow(count: try row["count"].decode(Int.self), endsAt: Int(try row["expires_at"].decode(Int64.self)))
    }
}
