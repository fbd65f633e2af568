/// Every PostgreSQL schema change, in order, as plain SQL statements each ending a line with `;`. A released
/// migration is never edited; a change is a new one.
///
/// Times are Unix seconds (`DOUBLE PRECISION`), as in the SQLite store, so both stores share their domain mapping.
enum PostgresMigrations {
    static let all: [(name: String, sql: String)] = [
        (
            "v1: the schema of Latchkey 0.9",
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                email TEXT UNIQUE,
                email_verified BOOLEAN NOT NULL DEFAULT FALSE,
                password_hash TEXT,
                disabled BOOLEAN NOT NULL DEFAULT FALSE,
                valid_since DOUBLE PRECISION NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                last_sign_in_at DOUBLE PRECISION,
                display_name TEXT,
                photo_url TEXT
            );
            CREATE TABLE identities (
                provider_id TEXT NOT NULL,
                provider_uid TEXT NOT NULL,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                email TEXT,
                email_verified BOOLEAN NOT NULL,
                display_name TEXT,
                photo_url TEXT,
                raw_profile TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (provider_id, provider_uid)
            );
            CREATE INDEX identities_by_account ON identities(account_id);
            CREATE TABLE pending_requests (
                id BIGSERIAL PRIMARY KEY,
                code_hash BYTEA NOT NULL UNIQUE,
                email TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL,
                language TEXT NOT NULL,
                continue_url TEXT NOT NULL,
                used_at DOUBLE PRECISION,
                mismatch_count INTEGER NOT NULL DEFAULT 0,
                ios_bundle_id TEXT,
                android_package_name TEXT,
                android_install_app BOOLEAN NOT NULL DEFAULT FALSE,
                handles_code_in_app BOOLEAN NOT NULL DEFAULT FALSE
            );
            CREATE INDEX pending_requests_by_email ON pending_requests(email, created_at);
            CREATE INDEX pending_requests_by_expiry ON pending_requests(expires_at);
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                account_id TEXT NOT NULL,
                sign_in_provider TEXT NOT NULL,
                second_factor TEXT,
                auth_time DOUBLE PRECISION NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                revoked_at DOUBLE PRECISION,
                revoked_with_account BOOLEAN NOT NULL DEFAULT FALSE
            );
            CREATE INDEX sessions_by_account ON sessions(account_id);
            CREATE INDEX sessions_by_revocation ON sessions(revoked_at) WHERE revoked_at IS NOT NULL;
            CREATE TABLE refresh_tokens (
                id BIGSERIAL PRIMARY KEY,
                token_hash BYTEA NOT NULL UNIQUE,
                session_id TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                rotated_at DOUBLE PRECISION
            );
            CREATE INDEX refresh_tokens_by_session ON refresh_tokens(session_id);
            CREATE INDEX refresh_tokens_by_rotation ON refresh_tokens(rotated_at) WHERE rotated_at IS NOT NULL;
            CREATE TABLE outbox (
                id BIGSERIAL PRIMARY KEY,
                recipient TEXT NOT NULL,
                format TEXT NOT NULL DEFAULT 'mime' CHECK (format IN ('mime', 'sign-in')),
                sealed_message BYTEA,
                created_at DOUBLE PRECISION NOT NULL,
                status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
                attempts INTEGER NOT NULL DEFAULT 0,
                next_attempt_at DOUBLE PRECISION NOT NULL,
                lease_until DOUBLE PRECISION,
                claim_token TEXT,
                last_error TEXT,
                sent_at DOUBLE PRECISION
            );
            CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
            CREATE TABLE audit_events (
                id BIGSERIAL PRIMARY KEY,
                at DOUBLE PRECISION NOT NULL,
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
            CREATE TABLE rate_counters (
                id BIGSERIAL PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                window_start BIGINT NOT NULL,
                count INTEGER NOT NULL,
                expires_at BIGINT NOT NULL
            );
            CREATE INDEX rate_counters_by_expiry ON rate_counters(expires_at);
            """
        ),
        (
            // Every instance publishes and signs with these; the private halves are sealed under the server secret.
            "v2: signing keys",
            """
            CREATE TABLE signing_keys (
                id TEXT PRIMARY KEY,
                algorithm TEXT NOT NULL,
                sealed_private_key BYTEA NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                activates_at DOUBLE PRECISION NOT NULL
            );
            """
        ),
        (
            // Sign-ins with identity providers in flight, and identities kept for a `pendingToken`.
            "v3: provider sessions, pending credentials",
            """
            CREATE TABLE provider_sessions (
                id BIGSERIAL PRIMARY KEY,
                state_hash BYTEA NOT NULL UNIQUE,
                session_id TEXT NOT NULL,
                provider_id TEXT NOT NULL,
                redirect_uri TEXT NOT NULL,
                context TEXT,
                handoff TEXT,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX provider_sessions_by_expiry ON provider_sessions(expires_at);
            CREATE TABLE pending_credentials (
                id BIGSERIAL PRIMARY KEY,
                token_hash BYTEA NOT NULL UNIQUE,
                identity TEXT NOT NULL,
                context TEXT,
                expires_at DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX pending_credentials_by_expiry ON pending_credentials(expires_at);
            """
        ),
        (
            // Identity providers added through the admin API; client secrets sealed under the server secret.
            "v4: provider configs",
            """
            CREATE TABLE provider_configs (
                id TEXT PRIMARY KEY,
                kind TEXT NOT NULL,
                display_name TEXT,
                enabled BOOLEAN NOT NULL,
                issuer TEXT,
                client_id TEXT NOT NULL,
                sealed_client_secret BYTEA,
                response_type TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            );
            """
        ),
        (
            // Second factors (sealed secrets), enrollments waiting for their first code, sign-ins waiting for a second factor.
            "v5: second factors",
            """
            CREATE TABLE second_factors (
                id TEXT NOT NULL,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                display_name TEXT,
                enrolled_at DOUBLE PRECISION NOT NULL,
                sealed_secret BYTEA NOT NULL,
                last_used_step BIGINT NOT NULL,
                PRIMARY KEY (account_id, id)
            );
            CREATE TABLE pending_enrollments (
                id BIGSERIAL PRIMARY KEY,
                session_hash BYTEA NOT NULL UNIQUE,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                sealed_secret BYTEA NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX pending_enrollments_by_account ON pending_enrollments(account_id);
            CREATE INDEX pending_enrollments_by_expiry ON pending_enrollments(expires_at);
            CREATE TABLE second_factor_challenges (
                id BIGSERIAL PRIMARY KEY,
                credential_hash BYTEA NOT NULL UNIQUE,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                sign_in_provider TEXT NOT NULL,
                attempts INTEGER NOT NULL DEFAULT 0,
                expires_at DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX second_factor_challenges_by_account ON second_factor_challenges(account_id);
            CREATE INDEX second_factor_challenges_by_expiry ON second_factor_challenges(expires_at);
            """
        ),
        (
            // The outbox takes security notices too.
            "v6: security notices in the outbox",
            """
            ALTER TABLE outbox DROP CONSTRAINT outbox_format_check;
            ALTER TABLE outbox ADD CONSTRAINT outbox_format_check CHECK (format IN ('mime', 'sign-in', 'security-notice'));
            """
        ),
        (
            // The short code a sign-in email shows beside its link, kept as a keyed hash with its address, and the wrong
            // codes typed for the address while it lives.
            "v7: typed codes",
            """
            ALTER TABLE pending_requests ADD COLUMN typed_code_hash BYTEA;
            ALTER TABLE pending_requests ADD COLUMN typed_code_misses INTEGER NOT NULL DEFAULT 0;
            CREATE INDEX pending_requests_by_typed_code ON pending_requests(typed_code_hash) WHERE typed_code_hash IS NOT NULL;
            """
        ),
        (
            // The other email actions (password reset, address verification and change, the undo of a change) share the
            // pending requests with sign-in, and their letters the outbox. Addresses whose owner said "this wasn't me" cool off.
            "v8: email actions",
            """
            CREATE TABLE cool_offs (
                id BIGSERIAL PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                until DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX cool_offs_by_end ON cool_offs(until);
            ALTER TABLE pending_requests ADD COLUMN action TEXT NOT NULL DEFAULT 'signIn'
                CHECK (action IN ('signIn', 'resetPassword', 'verifyEmail', 'verifyAndChangeEmail', 'recoverEmail'));
            ALTER TABLE pending_requests ADD COLUMN account_id TEXT;
            ALTER TABLE pending_requests ADD COLUMN new_email TEXT;
            CREATE INDEX pending_requests_by_account ON pending_requests(account_id) WHERE account_id IS NOT NULL;
            ALTER TABLE outbox DROP CONSTRAINT outbox_format_check;
            ALTER TABLE outbox ADD CONSTRAINT outbox_format_check CHECK (format IN ('mime', 'sign-in', 'security-notice', 'email-action'));
            """
        ),
        (
            // Custom claims (Firebase's `customAttributes`): a JSON object every ID token of the account carries.
            "v9: custom claims",
            "ALTER TABLE accounts ADD COLUMN custom_attributes TEXT;"
        ),
        (
            // What a sign-in stopped at the second factor changes once its code is right (`PendingSignIn`, JSON).
            "v10: changes a second-factor challenge applies",
            "ALTER TABLE second_factor_challenges ADD COLUMN pending_sign_in TEXT;"
        ),
        (
            // The outbox's `format` is `OutboxMessage.Format`'s to restrict: without the CHECK (replaced in v6 and v8), a
            // new kind of letter needs no migration (SQLite's v21).
            "v11: outbox formats left to the domain",
            "ALTER TABLE outbox DROP CONSTRAINT outbox_format_check;"
        ),
        (
            // The claims of the custom token that opened a session (`SessionRecord.developerClaims`, JSON): SQLite's v22.
            "v12: a custom token's claims on its session",
            "ALTER TABLE sessions ADD COLUMN developer_claims TEXT;"
        ),
        (
            // Phone numbers: SQLite's v23.
            "v13: phone numbers",
            """
            ALTER TABLE accounts ADD COLUMN phone_number TEXT UNIQUE;
            ALTER TABLE sessions ADD COLUMN second_factor_kind TEXT;
            ALTER TABLE second_factors ALTER COLUMN sealed_secret DROP NOT NULL, ADD COLUMN phone_number TEXT,
                ADD CONSTRAINT second_factors_method CHECK ((sealed_secret IS NULL) <> (phone_number IS NULL));
            CREATE TABLE phone_verifications (
                id BIGSERIAL PRIMARY KEY,
                session_hash BYTEA NOT NULL UNIQUE,
                purpose TEXT NOT NULL,
                phone_number TEXT NOT NULL,
                code_hash BYTEA,
                account_id TEXT REFERENCES accounts(id) ON DELETE CASCADE ON UPDATE CASCADE,
                factor_id TEXT,
                attempts INTEGER NOT NULL DEFAULT 0,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX phone_verifications_expiry ON phone_verifications(expires_at);
            """
        ),
        (
            // The receipts `accounts:verifyClient` hands out, by the keyed hashes of the receipt and of its secret: SQLite's v24.
            "v14: app verification receipts",
            """
            CREATE TABLE app_receipts (
                id BIGSERIAL PRIMARY KEY,
                receipt_hash BYTEA NOT NULL UNIQUE,
                secret_hash BYTEA NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            );
            CREATE INDEX app_receipts_by_expiry ON app_receipts(expires_at);
            """
        ),
    ]
}
