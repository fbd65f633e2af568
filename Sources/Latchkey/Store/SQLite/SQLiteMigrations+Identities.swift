/// Then sessions, identities, signing keys in the store, and identity providers.
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
    ]
}
