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
        (
            // Phone numbers (#34): an account's number, unique; a second factor is an authenticator app (its sealed
            // secret) or a phone (its number), never both, so the table is rebuilt with the secret optional; a session
            // says which kind of factor it passed; and the texted codes, each kept by the keyed hashes of its
            // `sessionInfo` and code (a `temporaryProof` is a row without a code).
            "v23: phone numbers",
            """
            ALTER TABLE accounts ADD COLUMN phone_number TEXT;
            CREATE UNIQUE INDEX accounts_phone_number ON accounts(phone_number);
            ALTER TABLE sessions ADD COLUMN second_factor_kind TEXT;
            CREATE TABLE second_factors_v23 (
                id TEXT NOT NULL,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                display_name TEXT,
                enrolled_at REAL NOT NULL,
                sealed_secret BLOB,
                last_used_step INTEGER NOT NULL,
                phone_number TEXT,
                PRIMARY KEY (account_id, id),
                CHECK ((sealed_secret IS NULL) <> (phone_number IS NULL))
            ) WITHOUT ROWID;
            INSERT INTO second_factors_v23 (id, account_id, display_name, enrolled_at, sealed_secret, last_used_step)
                SELECT id, account_id, display_name, enrolled_at, sealed_secret, last_used_step FROM second_factors;
            DROP TABLE second_factors;
            ALTER TABLE second_factors_v23 RENAME TO second_factors;
            CREATE TABLE phone_verifications (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                session_hash BLOB NOT NULL UNIQUE,
                purpose TEXT NOT NULL,
                phone_number TEXT NOT NULL,
                code_hash BLOB,
                account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                factor_id TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX phone_verifications_expiry ON phone_verifications(expires_at);
            """
        ),
    ]
}
