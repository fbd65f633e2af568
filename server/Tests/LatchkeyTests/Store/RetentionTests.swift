import Foundation
import GRDB
import Latchkey
import LatchkeyDomain
import Logging
import Testing

/// Rows are kept only as long as something can still ask about them.
@Suite struct RetentionTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let day: Double = 86_400

    /// Seconds since 1970 `days` before now.
    static func ago(_ days: Double) -> Double { now.timeIntervalSince1970 - days * day }

    static func fill(_ workspace: TestWorkspace) async throws {
        try await workspace.openDatabase().write { db in
            func pending(_ name: String, expires: Double, used: Double? = nil) throws {
                try db.execute(
                    sql: """
                        INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, used_at)
                        VALUES (?, ?, ?, ?, 'en', 'https://app.example.com/', ?)
                        """, arguments: [Data(name.utf8), "\(name)@example.com", expires - 600, expires, used])
            }
            try pending("expired-two-days", expires: ago(2))
            try pending("used-two-days", expires: ago(2), used: ago(2.01))
            try pending("expired-an-hour", expires: ago(1.0 / 24))
            try pending("live", expires: ago(-0.01))
            for (status, sent) in [("sent", ago(0.001)), ("pending", nil), ("failed", nil)] as [(String, Double?)] {
                try db.execute(
                    sql: "INSERT INTO outbox (recipient, created_at, status, next_attempt_at, sent_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: ["\(status)@example.com", ago(0.01), status, ago(0.01), sent])
            }
            func session(_ id: String, revoked: Double? = nil) throws {
                try db.execute(
                    sql: "INSERT INTO sessions (id, account_id, sign_in_provider, auth_time, created_at, revoked_at) VALUES (?, 'account', 'password', ?, ?, ?)",
                    arguments: [id, ago(30), ago(30), revoked])
            }
            func token(_ name: String, of session: String, rotated: Double? = nil) throws {
                try db.execute(
                    sql: "INSERT INTO refresh_tokens (token_hash, session_id, created_at, rotated_at) VALUES (?, ?, ?, ?)",
                    arguments: [Data(name.utf8), session, ago(30), rotated])
            }
            try session("live")
            try session("revoked-three-days", revoked: ago(3))
            try session("revoked-a-day", revoked: ago(1))
            try token("rotated-eight-days", of: "live", rotated: ago(8))
            try token("rotated-a-day", of: "live", rotated: ago(1))
            try token("current", of: "live")
            try token("of-revoked-three-days", of: "revoked-three-days")
            try token("of-revoked-a-day", of: "revoked-a-day")
            try db.execute(
                sql: "INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES ('ended', ?, 1, ?), ('open', ?, 1, ?)",
                arguments: [Int(ago(0.1)), Int(ago(0.05)), Int(ago(0.01)), Int(ago(-0.01))])
            for days in [91.0, 92, 93, 94, 95, 1] {
                try db.execute(sql: "INSERT INTO audit_events (at, kind) VALUES (?, 'code_issued')", arguments: [ago(days)])
            }
            for (name, expiry) in [("expired", ago(0.001)), ("current", ago(-0.001))] {
                try db.execute(
                    sql: """
                        INSERT INTO provider_sessions (state_hash, session_id, provider_id, redirect_uri, created_at, expires_at)
                        VALUES (?, ?, 'oidc.corp', 'https://app.example.com/', ?, ?)
                        """,
                    arguments: [Data(name.utf8), name, ago(0.01), expiry])
                try db.execute(
                    sql: "INSERT INTO pending_credentials (token_hash, identity, expires_at) VALUES (?, '{}', ?)", arguments: [Data(name.utf8), expiry])
            }
            try db.execute(sql: "INSERT INTO accounts (id, email, valid_since, created_at) VALUES ('enrolling', 'e@example.com', 0, 0)")
            for (name, expiry) in [("expired", ago(0.001)), ("current", ago(-0.001))] {
                try db.execute(
                    sql: "INSERT INTO pending_enrollments (session_hash, account_id, sealed_secret, expires_at) VALUES (?, 'enrolling', x'00', ?)",
                    arguments: [Data(name.utf8), expiry])
                try db.execute(
                    sql: "INSERT INTO second_factor_challenges (credential_hash, account_id, sign_in_provider, expires_at) VALUES (?, 'enrolling', 'password', ?)",
                    arguments: [Data(name.utf8), expiry])
                try db.execute(
                    sql: """
                        INSERT INTO phone_verifications (session_hash, purpose, phone_number, code_hash, created_at, expires_at)
                        VALUES (?, 'sign-in', '+16505550101', x'00', 0, ?)
                        """,
                    arguments: [Data(name.utf8), expiry])
            }
            for (name, end) in [("ended", ago(0.001)), ("cooling", ago(-0.5))] {
                try db.execute(sql: "INSERT INTO cool_offs (email, until) VALUES (?, ?)", arguments: ["\(name)@example.com", end])
            }
            for (name, expiry) in [("expired", ago(0.001)), ("current", ago(-0.001))] {
                try db.execute(
                    sql: "INSERT INTO app_receipts (receipt_hash, secret_hash, expires_at) VALUES (?, x'00', ?)",
                    arguments: [Data(name.utf8), expiry])
            }
        }
    }

    @Test func aSweepRemovesWhatIsOverAndKeepsTheRest() async throws {
        try await withWorkspace { workspace in
            let store = try SQLiteStore(path: workspace.databasePath)
            try await Self.fill(workspace)
            let sweeper = ExpiredRowSweeper(
                store: store, clock: FixedClock(Self.now), policy: RetentionPolicy(auditRetentionDays: 90), logger: Logger(label: "test"),
                chunkSize: 2)
            let removed = await sweeper.sweep().removed
            #expect(
                removed == [
                    .signInRequests: 2, .deliveredMail: 1, .rotatedRefreshTokens: 1, .revokedSessions: 1, .rateCounters: 1, .auditEvents: 5,
                    .providerSessions: 1, .pendingCredentials: 1, .pendingEnrollments: 1, .secondFactorChallenges: 1, .phoneVerifications: 1,
                    .coolOffs: 1, .appReceipts: 1,
                ])
            let left = try await workspace.openDatabase().read { db in
                [
                    try String.fetchAll(db, sql: "SELECT email FROM pending_requests ORDER BY id"),
                    try String.fetchAll(db, sql: "SELECT status FROM outbox ORDER BY id"),
                    try String.fetchAll(db, sql: "SELECT CAST(token_hash AS TEXT) FROM refresh_tokens ORDER BY id"),
                    try String.fetchAll(db, sql: "SELECT id FROM sessions ORDER BY id"),
                    try String.fetchAll(db, sql: "SELECT key FROM rate_counters"),
                    try String.fetchAll(db, sql: "SELECT kind FROM audit_events"),
                    try String.fetchAll(db, sql: "SELECT session_id FROM provider_sessions"),
                    try String.fetchAll(db, sql: "SELECT CAST(token_hash AS TEXT) FROM pending_credentials"),
                    try String.fetchAll(db, sql: "SELECT CAST(session_hash AS TEXT) FROM pending_enrollments"),
                    try String.fetchAll(db, sql: "SELECT CAST(credential_hash AS TEXT) FROM second_factor_challenges"),
                    try String.fetchAll(db, sql: "SELECT email FROM cool_offs"),
                    try String.fetchAll(db, sql: "SELECT CAST(session_hash AS TEXT) FROM phone_verifications"),
                    try String.fetchAll(db, sql: "SELECT CAST(receipt_hash AS TEXT) FROM app_receipts"),
                ]
            }
            #expect(left[0] == ["expired-an-hour@example.com", "live@example.com"])
            #expect(left[1] == ["pending", "failed"])
            #expect(left[2] == ["rotated-a-day", "current", "of-revoked-a-day"])
            #expect(left[3] == ["live", "revoked-a-day"])
            #expect(left[4] == ["open"])
            #expect(left[5] == ["code_issued"])
            #expect(left[6] == ["current"])
            #expect(left[7] == ["current"])
            #expect(left[8] == ["current"] && left[9] == ["current"])
            #expect(left[10] == ["cooling@example.com"])
            #expect(left[11] == ["current"] && left[12] == ["current"])
            #expect(await sweeper.sweep().removed.values.allSatisfy { $0 == 0 })
        }
    }

    /// Each kind of row is found through an index, so a sweep costs what it deletes, not the size of the table.
    @Test(arguments: [
        "SELECT id FROM pending_requests WHERE expires_at < 0 LIMIT 1000", "SELECT id FROM outbox WHERE status = 'sent' AND sent_at < 0 LIMIT 1000",
        "SELECT id FROM refresh_tokens WHERE rotated_at < 0 LIMIT 1000", "SELECT id FROM sessions WHERE revoked_at < 0 LIMIT 1000",
        "SELECT id FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE revoked_at < 0 LIMIT 1000)",
        "SELECT id FROM rate_counters WHERE expires_at < 0 LIMIT 1000", "SELECT id FROM audit_events WHERE at < 0 LIMIT 1000",
        "SELECT id FROM provider_sessions WHERE expires_at < 0 LIMIT 1000", "SELECT id FROM pending_credentials WHERE expires_at < 0 LIMIT 1000",
        "SELECT id FROM pending_enrollments WHERE expires_at < 0 LIMIT 1000", "SELECT id FROM second_factor_challenges WHERE expires_at < 0 LIMIT 1000",
        "SELECT id FROM phone_verifications WHERE expires_at < 0 LIMIT 1000", "SELECT id FROM cool_offs WHERE until < 0 LIMIT 1000",
        "SELECT id FROM app_receipts WHERE expires_at < 0 LIMIT 1000",
    ])
    func everySweepQueryUsesAnIndex(_ query: String) async throws {
        try await withWorkspace { workspace in
            _ = try SQLiteStore(path: workspace.databasePath)
            let plan = try await workspace.openDatabase().read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + query).map { $0["detail"] as String }.joined(separator: "; ")
            }
            #expect(plan.contains("USING") && plan.contains("INDEX") && !plan.contains("SCAN"), "\(plan)")
        }
    }
}
