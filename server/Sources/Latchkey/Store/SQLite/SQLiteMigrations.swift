import GRDB

/// Every schema change, in order, as plain SQL run in one transaction each. A released migration is never edited; a
/// change is a new one. Kept like `PostgresMigrations`: a list of names and statements, in three eras.
package enum SQLiteMigrations {
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for (name, sql) in emailLinkMigrations + identityMigrations + laterMigrations + appVerificationMigrations {
            migrator.registerMigration(name) { db in try db.execute(sql: sql) }
        }
        return migrator
    }

    /// The email-link service's schema: accounts, pending requests, refresh tokens, the outbox, rate counters and the
    /// audit log.
    static let emailLinkMigrations: [(name: String, sql: String)] = [
        (
            "v1: pending requests, accounts, refresh tokens, outbox",
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY NOT NULL,
                email TEXT NOT NULL UNIQUE,
                email_verified INTEGER NOT NULL DEFAULT 0,
                password_hash TEXT,
                disabled INTEGER NOT NULL DEFAULT 0,
                valid_since REAL NOT NULL,
                created_at REAL NOT NULL,
                last_sign_in_at REAL
            );
            CREATE TABLE pending_requests (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                code_hash BLOB NOT NULL UNIQUE,
                email TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                language TEXT NOT NULL,
                continue_url TEXT NOT NULL,
                used_at REAL,
                mismatch_count INTEGER NOT NULL DEFAULT 0
            );
            CREATE INDEX pending_requests_by_email ON pending_requests(email, created_at);
            CREATE TABLE refresh_tokens (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                token_hash BLOB NOT NULL UNIQUE,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                chain_id TEXT NOT NULL,
                auth_time REAL NOT NULL,
                created_at REAL NOT NULL,
                rotated_at REAL,
                revoked_at REAL
            );
            CREATE INDEX refresh_tokens_by_chain ON refresh_tokens(chain_id);
            CREATE INDEX refresh_tokens_by_account ON refresh_tokens(account_id);
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                recipient TEXT NOT NULL,
                sealed_message BLOB,
                created_at REAL NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at REAL NOT NULL,
                lease_until REAL,
                last_error TEXT,
                sent_at REAL
            );
            CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
            """
        ),
        (
            // 1 when the account's sessions were ended (takeover strip, revocation): refresh answers TOKEN_EXPIRED,
            // 0 for a chain revoked by theft detection: INVALID_REFRESH_TOKEN.
            "v2: why a refresh token was revoked",
            "ALTER TABLE refresh_tokens ADD COLUMN revoked_with_account INTEGER NOT NULL DEFAULT 0"
        ),
        (
            // SQLite cannot relax NOT NULL or drop a foreign key in place, so both tables are rebuilt. Refresh tokens
            // keep their rows when the account goes, so a refresh can answer USER_NOT_FOUND rather than a bare refusal.
            "v3: anonymous accounts, profile fields, tokens outlive their account",
            """
            CREATE TABLE accounts_v3 (
                id TEXT PRIMARY KEY NOT NULL,
                email TEXT UNIQUE,
                email_verified INTEGER NOT NULL DEFAULT 0,
                password_hash TEXT,
                disabled INTEGER NOT NULL DEFAULT 0,
                valid_since REAL NOT NULL,
                created_at REAL NOT NULL,
                last_sign_in_at REAL,
                display_name TEXT,
                photo_url TEXT
            );
            INSERT INTO accounts_v3 (id, email, email_verified, password_hash, disabled, valid_since, created_at, last_sign_in_at)
                SELECT id, email, email_verified, password_hash, disabled, valid_since, created_at, last_sign_in_at FROM accounts;
            CREATE TABLE refresh_tokens_v3 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                token_hash BLOB NOT NULL UNIQUE,
                account_id TEXT NOT NULL,
                chain_id TEXT NOT NULL,
                auth_time REAL NOT NULL,
                created_at REAL NOT NULL,
                rotated_at REAL,
                revoked_at REAL,
                revoked_with_account INTEGER NOT NULL DEFAULT 0
            );
            INSERT INTO refresh_tokens_v3 SELECT id, token_hash, account_id, chain_id, auth_time, created_at, rotated_at, revoked_at,
                revoked_with_account FROM refresh_tokens;
            DROP TABLE refresh_tokens;
            DROP TABLE accounts;
            ALTER TABLE accounts_v3 RENAME TO accounts;
            ALTER TABLE refresh_tokens_v3 RENAME TO refresh_tokens;
            CREATE INDEX refresh_tokens_by_chain ON refresh_tokens(chain_id);
            CREATE INDEX refresh_tokens_by_account ON refresh_tokens(account_id);
            """
        ),
        (
            "v4: rate-limit counters",
            """
            CREATE TABLE rate_counters (
                key TEXT PRIMARY KEY NOT NULL,
                window_start INTEGER NOT NULL,
                count INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            ) WITHOUT ROWID;
            CREATE INDEX rate_counters_by_expiry ON rate_counters(expires_at);
            """
        ),
        (
            "v5: audit events",
            """
            CREATE TABLE audit_events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                at REAL NOT NULL,
                kind TEXT NOT NULL,
                account_id TEXT,
                email TEXT,
                ip_address TEXT,
                user_agent TEXT,
                detail TEXT
            );
            CREATE INDEX audit_events_by_email ON audit_events(email, at);
            CREATE INDEX audit_events_by_account ON audit_events(account_id, at);
            CREATE INDEX audit_events_by_time ON audit_events(at);
            """
        ),
        (
            // What the landing page needs to tell a link meant for an app from one meant for the web.
            "v6: the apps a pending request names",
            """
            ALTER TABLE pending_requests ADD COLUMN ios_bundle_id TEXT;
            ALTER TABLE pending_requests ADD COLUMN android_package_name TEXT;
            ALTER TABLE pending_requests ADD COLUMN android_install_app INTEGER NOT NULL DEFAULT 0;
            ALTER TABLE pending_requests ADD COLUMN handles_code_in_app INTEGER NOT NULL DEFAULT 0;
            """
        ),
        (
            // Since 0.7 a send stores the letter and delivery renders it; rows queued before keep their finished MIME.
            "v7: what an outbox row's sealed content is",
            "ALTER TABLE outbox ADD COLUMN format TEXT NOT NULL DEFAULT 'mime' CHECK (format IN ('mime', 'sign-in'))"
        ),
        (
            // Counting a send touched three random pages of the counter table and three of its expiry index for one
            // address's three windows. Keyed subject first, the windows share a page of the key index; with a rowid,
            // new rows and their expiry entries are appended instead of inserted at random.
            "v8: rate-limit counters keyed subject first, in insertion order",
            """
            CREATE TABLE rate_counters_v8 (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                window_start INTEGER NOT NULL,
                count INTEGER NOT NULL,
                expires_at INTEGER NOT NULL
            );
            WITH parts AS (
                SELECT substr(key, 1, instr(key, ':') - 1) AS rule, substr(key, instr(key, ':') + 1) AS rest,
                    window_start, count, expires_at
                FROM rate_counters)
            INSERT INTO rate_counters_v8 (key, window_start, count, expires_at)
            SELECT substr(rest, instr(rest, ':') + 1) || ':' || rule || ':' || substr(rest, 1, instr(rest, ':') - 1),
                window_start, count, expires_at
            FROM parts ORDER BY expires_at;
            DROP TABLE rate_counters;
            ALTER TABLE rate_counters_v8 RENAME TO rate_counters;
            CREATE INDEX rate_counters_by_expiry ON rate_counters(expires_at);
            """
        ),
        (
            // Retention finds expired rows through an index on the time that ends them (`ExpiredRowSweeper`); the partial
            // indexes hold only the rows retention is after, and gain an entry when a token is rotated or revoked.
            "v9: indexes for retention",
            """
            CREATE INDEX pending_requests_by_expiry ON pending_requests(expires_at);
            CREATE INDEX refresh_tokens_by_rotation ON refresh_tokens(rotated_at) WHERE rotated_at IS NOT NULL;
            CREATE INDEX refresh_tokens_by_revocation ON refresh_tokens(revoked_at) WHERE revoked_at IS NOT NULL;
            """
        ),
    ]
}
