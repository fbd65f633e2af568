import Foundation
import GRDB
import LatchkeyDomain

extension SQLiteStoreTransaction {
    func rateWindow(key: String, at now: Int) async throws -> RateWindow? {
        try row(sql: "SELECT count, expires_at FROM rate_counters WHERE key = ? AND expires_at > ?", arguments: [key, now])
            .map { RateWindow(count: $0["count"], endsAt: $0["expires_at"]) }
    }

    /// In `DO UPDATE`, bare column names are the stored row's: a window still open counts on while it has room, an
    /// ended one restarts, a full one is left alone and returns no row.
    func countRateAttempt(key: String, at now: Int, windowSeconds: Int, limit: Int) async throws -> RateWindow? {
        try row(
            sql: """
                INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES (?1, ?2, 1, ?2 + ?3)
                ON CONFLICT (key) DO UPDATE SET
                    count = CASE WHEN expires_at > excluded.window_start THEN count + 1 ELSE 1 END,
                    window_start = CASE WHEN expires_at > excluded.window_start THEN window_start ELSE excluded.window_start END,
                    expires_at = CASE WHEN expires_at > excluded.window_start THEN expires_at ELSE excluded.expires_at END
                WHERE expires_at <= excluded.window_start OR count < ?4
                RETURNING count, expires_at
                """,
            arguments: [key, now, windowSeconds, limit]
        ).map { RateWindow(count: $0["count"], endsAt: $0["expires_at"]) }
    }

    func uncountRateAttempt(key: String, at now: Int) async throws {
        try execute(sql: "UPDATE rate_counters SET count = count - 1 WHERE key = ? AND expires_at > ? AND count > 0", arguments: [key, now])
    }

    func markRateWindowRefused(key: String, at now: Int, limit: Int) async throws -> Bool {
        try execute(
            sql: "UPDATE rate_counters SET count = count + 1 WHERE key = ? AND expires_at > ? AND count = ?", arguments: [key, now, limit])
        return db.changesCount == 1
    }
}
