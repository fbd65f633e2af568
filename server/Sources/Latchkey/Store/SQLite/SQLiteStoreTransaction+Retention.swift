import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    /// One bounded `DELETE` per kind, each finding its rows through an index on the time that ends them.
    func deleteExpired(_ rows: ExpiringRows, before cutoff: Date, limit: Int) async throws -> Int {
        let seconds = cutoff.timeIntervalSince1970
        if rows == .revokedSessions {
            // The session's tokens go with it; their rows are found through the session index.
            try execute(
                sql: "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE revoked_at < ?1 LIMIT ?2)",
                arguments: [seconds, limit])
        }
        let sql =
            switch rows {
            case .signInRequests: "SELECT id FROM pending_requests WHERE expires_at < ?1 LIMIT ?2"
            case .deliveredMail: "SELECT id FROM outbox WHERE status = 'sent' AND sent_at < ?1 LIMIT ?2"
            case .rotatedRefreshTokens: "SELECT id FROM refresh_tokens WHERE rotated_at < ?1 LIMIT ?2"
            case .revokedSessions: "SELECT id FROM sessions WHERE revoked_at < ?1 LIMIT ?2"
            case .rateCounters: "SELECT id FROM rate_counters WHERE expires_at < ?1 LIMIT ?2"
            case .auditEvents: "SELECT id FROM audit_events WHERE at < ?1 LIMIT ?2"
            case .providerSessions: "SELECT id FROM provider_sessions WHERE expires_at < ?1 LIMIT ?2"
            case .pendingCredentials: "SELECT id FROM pending_credentials WHERE expires_at < ?1 LIMIT ?2"
            case .pendingEnrollments: "SELECT id FROM pending_enrollments WHERE expires_at < ?1 LIMIT ?2"
            case .secondFactorChallenges: "SELECT id FROM second_factor_challenges WHERE expires_at < ?1 LIMIT ?2"
            case .phoneVerifications: "SELECT id FROM phone_verifications WHERE expires_at < ?1 LIMIT ?2"
            case .coolOffs: "SELECT id FROM cool_offs WHERE until < ?1 LIMIT ?2"
            case .appReceipts: "SELECT id FROM app_receipts WHERE expires_at < ?1 LIMIT ?2"
            }
        try execute(sql: "DELETE FROM \(rows.table) WHERE id IN (\(sql))", arguments: [seconds, limit])
        return db.changesCount
    }
}

extension SQLiteStoreTransaction {
    /// One process writes at a time: its write transaction is the turn.
    func takeSweepTurn() async throws -> Bool { true }
}

extension ExpiringRows {
    fileprivate var table: String {
        switch self {
        case .signInRequests: "pending_requests"
        case .deliveredMail: "outbox"
        case .rotatedRefreshTokens: "refresh_tokens"
        case .revokedSessions: "sessions"
        case .rateCounters: "rate_counters"
        case .auditEvents: "audit_events"
        case .providerSessions: "provider_sessions"
        case .pendingCredentials: "pending_credentials"
        case .pendingEnrollments: "pending_enrollments"
        case .secondFactorChallenges: "second_factor_challenges"
        case .phoneVerifications: "phone_verifications"
        case .coolOffs: "cool_offs"
        case .appReceipts: "app_receipts"
        }
    }
}
