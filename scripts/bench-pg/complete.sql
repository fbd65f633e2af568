-- One completion as Latchkey runs it on PostgreSQL (LinkCompleter.complete with a fresh code for a new address, up to
-- the signing): RateLimiter counts the client's window, the code is looked up, the address's account looked for and
-- the code consumed, then SignInFinisher.finish for a new account (the account, its email identity, the session, the
-- refresh token, the audit event), all in one transaction begun as PostgresStore.write begins it (plain BEGIN: the
-- server's default isolation, READ COMMITTED), as Latchkey does while no other request of the instance counts the
-- same window (with all load from one address it counts apart first: PostgresStore.write(counting:_:_:)). The
-- statements are those of server/Sources/Latchkey/Store/Postgres/PostgresStoreTransaction+Records.swift
-- (countRateAttempt, record), +SignInRequests.swift (pendingRequest, consumePendingRequest), +Accounts.swift
-- (account(email:), insert), +Identities.swift (save) and +Sessions.swift (insert session, insert refresh token), in
-- the service's order.
--
-- Each transaction consumes its own planted code: scripts/bench.py plants pending requests numbered base, base + 1, …
-- (code_hash sha256 of the number, address 'c' || number), and client c takes base + c, base + c + clients, … (k
-- counts its transactions; pgbench keeps a client's variables from one transaction to the next). A client that finds
-- no planted code left fails on \gset ("expected one row"), so running dry is an error, never silent work. The
-- looked-up row's columns come back as p_* variables, as Latchkey decodes them. Account ids, session ids and
-- refresh-token hashes are made from pgbench's hash() of the number: random order, as Latchkey's random ones; the
-- session id starts with the time in hex milliseconds, as SessionRecord.makeID's does. The client is one of
-- `addresses` (ipn), its counter key ip_subject, ipn, ip_suffix, as in send.sql. -D variables from scripts/bench.py:
-- base, clients, k (0), addresses, ip_subject, ip_suffix, ip_window, ip_limit, ip.
\set i :base + :client_id + :clients * :k
\set k :k + 1
\set a hash(:i, 1)
\set t hash(:i, 2)
\set ipn random(1, :addresses)
BEGIN;
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (:ip_subject::text || :ipn || :ip_suffix, extract(epoch from now())::bigint, 1, extract(epoch from now())::bigint + :ip_window)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
    window_start = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.window_start
        ELSE excluded.window_start END,
    expires_at = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.expires_at ELSE excluded.expires_at END
WHERE rate_counters.expires_at <= excluded.window_start OR rate_counters.count < :ip_limit
RETURNING count, expires_at;
SELECT * FROM pending_requests WHERE code_hash = sha256(int8send(:i)) \gset p_
SELECT * FROM accounts WHERE email = :p_email;
UPDATE pending_requests SET used_at = extract(epoch from now())
WHERE id = :p_id AND used_at IS NULL AND expires_at > extract(epoch from now()) AND mismatch_count < 5
RETURNING 1 AS consumed \gset
INSERT INTO accounts (id, email, email_verified, password_hash, disabled, valid_since, created_at, last_sign_in_at, display_name,
    photo_url, custom_attributes)
VALUES ('A' || :a || 'ccount', :p_email, TRUE, NULL, FALSE, floor(extract(epoch from now())), extract(epoch from now()),
    extract(epoch from now()), NULL, NULL, NULL);
INSERT INTO identities (provider_id, provider_uid, account_id, email, email_verified, display_name, photo_url, raw_profile, created_at)
VALUES ('password', :p_email, 'A' || :a || 'ccount', :p_email, TRUE, NULL, NULL, NULL, extract(epoch from now()))
ON CONFLICT (provider_id, provider_uid) DO UPDATE SET
    email = excluded.email, email_verified = excluded.email_verified, display_name = excluded.display_name,
    photo_url = excluded.photo_url, raw_profile = excluded.raw_profile
WHERE identities.account_id = excluded.account_id
RETURNING 1;
INSERT INTO sessions (id, account_id, sign_in_provider, second_factor, auth_time, created_at)
VALUES (lpad(to_hex((extract(epoch from now()) * 1000)::bigint), 12, '0') || 'session' || :t, 'A' || :a || 'ccount', 'password', NULL,
    extract(epoch from now()), extract(epoch from now()));
INSERT INTO refresh_tokens (token_hash, session_id, created_at)
VALUES (sha256(int8send(:t)), lpad(to_hex((extract(epoch from now()) * 1000)::bigint), 12, '0') || 'session' || :t,
    extract(epoch from now()));
INSERT INTO audit_events (at, kind, account_id, email, ip_address, user_agent, detail)
VALUES (extract(epoch from now()), 'sign_in_completed', 'A' || :a || 'ccount', :p_email, :ip, NULL, 'new account');
COMMIT;
