/// v20 on: what the sign-in flows keep since each request became one domain call, and the outbox left to the
/// domain.
extension SQLiteMigrations {
    static let laterMigrations: [(name: String, sql: String)] = [
        (
            // What a sign-in stopped at the second factor changes once its code is right (`PendingSignIn`, JSON). Older
            // challenges have none: their sign-ins wrote their changes before they were challenged.
            "v20: changes a second-factor challenge applies",
            "ALTER TABLE second_factor_challenges ADD COLUMN pending_sign_in TEXT;"
        ),
        (
            // The outbox's `format` is `OutboxMessage.Format`'s to restrict: a CHECK on it cost a table rebuild (v16, v18)
            // for every new kind of letter. Rebuilt once more without it, rows, ids, the sequence, the status CHECK and the
            // index kept, so that a new kind is a new case in Swift only.
            "v21: outbox formats left to the domain",
            """
            CREATE TABLE outbox_v21 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                recipient TEXT NOT NULL,
                sealed_message BLOB,
                created_at REAL NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at REAL NOT NULL,
                lease_until REAL,
                last_error TEXT,
                sent_at REAL,
                format TEXT NOT NULL DEFAULT 'mime',
                claim_token TEXT
            );
            INSERT INTO outbox_v21 (id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error, sent_at,
                format, claim_token)
                SELECT id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error, sent_at, format,
                    claim_token
                FROM outbox;
            INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_v21', seq FROM sqlite_sequence WHERE name = 'outbox'
                AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox_v21');
            UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'outbox')) WHERE name = 'outbox_v21';
            DROP TABLE outbox;
            ALTER TABLE outbox_v21 RENAME TO outbox;
            CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
            """
        ),
        (
            // The claims of the custom token that opened a session (`SessionRecord.developerClaims`, JSON), which its
            // ID tokens carry through refreshes.
            "v22: a custom token's claims on its session",
            "ALTER TABLE sessions ADD COLUMN developer_claims TEXT;"
        ),
    ]
}
