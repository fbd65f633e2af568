/// v10 to v19: sessions, identities, signing keys in the store, identity providers, second factors and email actions.
extension SQLiteMigrations {
    static let identityMigrations: [(name: String, sql: String)] = [
        (
            // A session is one row: revoking it is one write and checking it one lookup, and it keeps the provider it signed
            // in with. Existing chains become sessions (anonymous when their account has no address, else password); the
            // tokens lose what moved to their session (auth time, revocation) and their account, which the session names.
            "v10: sessions",
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY NOT NULL,
                account_id TEXT NOT NULL,
                sign_in_provider TEXT NOT NULL,
                second_factor TEXT,
                auth_time REAL NOT NULL,
                created_at REAL NOT NULL,
                revoked_at REAL,
                revoked_with_account INTEGER NOT NULL DEFAULT 0
            ) WITHOUT ROWID;
            INSERT INTO sessions (id, account_id, sign_in_provider, auth_time, created_at, revoked_at, revoked_with_account)
                SELECT t.chain_id, MIN(t.account_id),
                    CASE WHEN MIN(a.id) IS NOT NULL AND MIN(a.email) IS NULL THEN 'anonymous' ELSE 'password' END,
                    MIN(t.auth_time), MIN(t.created_at), MAX(t.revoked_at), MAX(t.revoked_with_account)
                FROM refresh_tokens t LEFT JOIN accounts a ON a.id = t.account_id
                GROUP BY t.chain_id;
            CREATE INDEX sessions_by_account ON sessions(account_id);
            CREATE INDEX sessions_by_revocation ON sessions(revoked_at) WHERE revoked_at IS NOT NULL;
            CREATE TABLE refresh_tokens_v10 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                token_hash BLOB NOT NULL UNIQUE,
                session_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                rotated_at REAL
            );
            INSERT INTO refresh_tokens_v10 (id, token_hash, session_id, created_at, rotated_at)
                SELECT id, token_hash, chain_id, created_at, rotated_at FROM refresh_tokens;
            DROP TABLE refresh_tokens;
            ALTER TABLE refresh_tokens_v10 RENAME TO refresh_tokens;
            CREATE INDEX refresh_tokens_by_session ON refresh_tokens(session_id);
            CREATE INDEX refresh_tokens_by_rotation ON refresh_tokens(rotated_at) WHERE rotated_at IS NOT NULL;
            """
        ),
        (
            // Who signs in to an account is a row per provider identity, so that identity providers join the email identity
            // (provider `password`, the address as its user id) that every account with an address has had implicitly.
            // Outbox claims carry a token that every later update of the message must name.
            "v11: identities, outbox claim tokens",
            """
            CREATE TABLE identities (
                provider_id TEXT NOT NULL,
                provider_uid TEXT NOT NULL,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                email TEXT,
                email_verified INTEGER NOT NULL,
                display_name TEXT,
                photo_url TEXT,
                raw_profile TEXT,
                created_at REAL NOT NULL,
                PRIMARY KEY (provider_id, provider_uid)
            ) WITHOUT ROWID;
            CREATE INDEX identities_by_account ON identities(account_id);
            INSERT INTO identities (provider_id, provider_uid, account_id, email, email_verified, created_at)
                SELECT 'password', email, id, email, email_verified, created_at FROM accounts WHERE email IS NOT NULL;
            ALTER TABLE outbox ADD COLUMN claim_token TEXT;
            """
        ),
        (
            // Signing keys live in the database, their private halves sealed under the server secret, so that every instance
            // on one database publishes and signs with the same keys, and `latchkey keys rotate` on any of them reaches all.
            "v12: signing keys",
            """
            CREATE TABLE signing_keys (
                id TEXT PRIMARY KEY NOT NULL,
                algorithm TEXT NOT NULL,
                sealed_private_key BLOB NOT NULL,
                created_at REAL NOT NULL,
                activates_at REAL NOT NULL
            ) WITHOUT ROWID;
            """
        ),
        (
            // Sign-ins with identity providers: those started and awaiting the provider's answer, and identities kept for a
            // `pendingToken`. Both are found by a keyed hash and removed by the sweeper when their time is over.
            "v13: provider sessions, pending credentials",
            """
            CREATE TABLE provider_sessions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                state_hash BLOB NOT NULL UNIQUE,
                session_id TEXT NOT NULL,
                provider_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                context TEXT,
                handoff TEXT,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX provider_sessions_by_expiry ON provider_sessions(expires_at);
            CREATE TABLE pending_credentials (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                token_hash BLOB NOT NULL UNIQUE,
                identity TEXT NOT NULL,
                context TEXT,
                expires_at REAL NOT NULL
            );
            CREATE INDEX pending_credentials_by_expiry ON pending_credentials(expires_at);
            """
        ),
        (
            // Identity providers added through the admin API; their client secrets are sealed under the server secret.
            "v14: provider configs",
            """
            CREATE TABLE provider_configs (
                id TEXT PRIMARY KEY NOT NULL,
                kind TEXT NOT NULL,
                display_name TEXT,
                enabled INTEGER NOT NULL,
                issuer TEXT,
                client_id TEXT NOT NULL,
                sealed_client_secret BLOB,
                response_type TEXT NOT NULL,
                created_at REAL NOT NULL
            ) WITHOUT ROWID;
            """
        ),
        (
            // Second factors (TOTP authenticators, their secrets sealed), enrollments waiting for their first code, and sign-ins
            // waiting for a second factor; all go with their account. The last two are found by a keyed hash and swept.
            "v15: second factors",
            """
            CREATE TABLE second_factors (
                id TEXT NOT NULL,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                display_name TEXT,
                enrolled_at REAL NOT NULL,
                sealed_secret BLOB NOT NULL,
                last_used_step INTEGER NOT NULL,
                PRIMARY KEY (account_id, id)
            ) WITHOUT ROWID;
            CREATE TABLE pending_enrollments (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                session_hash BLOB NOT NULL UNIQUE,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                sealed_secret BLOB NOT NULL,
                expires_at REAL NOT NULL
            );
            CREATE INDEX pending_enrollments_by_account ON pending_enrollments(account_id);
            CREATE INDEX pending_enrollments_by_expiry ON pending_enrollments(expires_at);
            CREATE TABLE second_factor_challenges (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                credential_hash BLOB NOT NULL UNIQUE,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                sign_in_provider TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                expires_at REAL NOT NULL
            );
            CREATE INDEX second_factor_challenges_by_account ON second_factor_challenges(account_id);
            CREATE INDEX second_factor_challenges_by_expiry ON second_factor_challenges(expires_at);
            """
        ),
        (
            // The outbox takes security notices too. SQLite cannot change a CHECK constraint, so the table is rebuilt with the
            // same columns, rows and sequence (ids name the development mailbox's files, so none may be handed out twice).
            "v16: security notices in the outbox",
            """
            CREATE TABLE outbox_v16 (
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
                format TEXT NOT NULL DEFAULT 'mime' CHECK (format IN ('mime', 'sign-in', 'security-notice')),
                claim_token TEXT
            );
            INSERT INTO outbox_v16 (id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error, sent_at,
                format, claim_token)
                SELECT id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error, sent_at, format,
                    claim_token
                FROM outbox;
            INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_v16', seq FROM sqlite_sequence WHERE name = 'outbox'
                AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox_v16');
            UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'outbox')) WHERE name = 'outbox_v16';
            DROP TABLE outbox;
            ALTER TABLE outbox_v16 RENAME TO outbox;
            CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
            """
        ),
        (
            // The short code a sign-in email shows beside its link, kept as a keyed hash with its address, and the wrong
            // codes typed for the address while it lives.
            "v17: typed codes",
            """
            ALTER TABLE pending_requests ADD COLUMN typed_code_hash BLOB;
            ALTER TABLE pending_requests ADD COLUMN typed_code_misses INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX pending_requests_by_typed_code ON pending_requests(typed_code_hash) WHERE typed_code_hash IS NOT NULL;
            """
        ),
        (
            // The other email actions (password reset, address verification and change, the undo of a change) share the
            // pending requests with sign-in, and their letters the outbox: rebuilt as in v16 for the new format. Addresses
            // whose owner said "this wasn't me" cool off.
            "v18: email actions",
            """
            CREATE TABLE cool_offs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                email TEXT NOT NULL UNIQUE,
                until REAL NOT NULL
            );
            CREATE INDEX cool_offs_by_end ON cool_offs(until);
            ALTER TABLE pending_requests ADD COLUMN action TEXT NOT NULL DEFAULT 'signIn'
                CHECK (action IN ('signIn', 'resetPassword', 'verifyEmail', 'verifyAndChangeEmail', 'recoverEmail'));
            ALTER TABLE pending_requests ADD COLUMN account_id TEXT;
            ALTER TABLE pending_requests ADD COLUMN new_email TEXT;
            CREATE INDEX pending_requests_by_account ON pending_requests(account_id) WHERE account_id IS NOT NULL;
            CREATE TABLE outbox_v18 (
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
                format TEXT NOT NULL DEFAULT 'mime' CHECK (format IN ('mime', 'sign-in', 'security-notice', 'email-action')),
                claim_token TEXT
            );
            INSERT INTO outbox_v18 (id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error, sent_at,
                format, claim_token)
                SELECT id, recipient, sealed_message, created_at, status, attempts, next_attempt_at, lease_until, last_error, sent_at, format,
                    claim_token
                FROM outbox;
            INSERT INTO sqlite_sequence (name, seq) SELECT 'outbox_v18', seq FROM sqlite_sequence WHERE name = 'outbox'
                AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox_v18');
            UPDATE sqlite_sequence SET seq = MAX(seq, (SELECT seq FROM sqlite_sequence WHERE name = 'outbox')) WHERE name = 'outbox_v18';
            DROP TABLE outbox;
            ALTER TABLE outbox_v18 RENAME TO outbox;
            CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
            """
        ),
        (
            // Custom claims (Firebase's `customAttributes`): a JSON object every ID token of the account carries.
            "v19: custom claims",
            "ALTER TABLE accounts ADD COLUMN custom_attributes TEXT;"
        ),
    ]
}
