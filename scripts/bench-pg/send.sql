-- One send as Latchkey runs it on PostgreSQL (LinkIssuer.issue for a user, not an admin): RateLimiter counts the
-- address's three windows and the client's one, then the pending request, its audit event, the oldest outstanding
-- codes dropped and the sealed letter queued, all in one transaction begun as PostgresStore.write begins it (plain
-- BEGIN: the server's default isolation, READ COMMITTED), as Latchkey does while no other request of the instance
-- counts the same rows (with all load from one address it counts apart first: PostgresStore.write(counting:_:_:)). The statements are those of
-- server/Sources/Latchkey/Store/Postgres/PostgresStoreTransaction+Records.swift (countRateAttempt, record),
-- +SignInRequests.swift (insert, dropOutstandingRequests) and +Outbox.swift (enqueue), in the service's order.
--
-- What Latchkey computes before its statements is made here from pgbench's random variable r with cheap SQL: a new
-- address ('s' || r), the code's key (the second, as LinkCode.key begins it, then sha256 of c, a hash of r) and the
-- address's rate-limit key (sha256 of r), the clock (now(), the transaction's start, as the service reads its clock
-- once per send). The client is one of `addresses` (ipn), as under wrk: with 1, its counter is one row every send
-- updates. scripts/bench.py passes the
-- rest with -D: ip_subject and ip_suffix (the client's counter key is subject, ipn, suffix: as long as Latchkey's
-- hashed subject and rule), ip (the address audited), letter (a sealed letter of the size Latchkey stored, as bytea
-- text), continue_url, code_lifetime, and each window's key suffix, length and limit (email_suffix_N, email_window_N,
-- email_limit_N for the address's three, ip_window and ip_limit for the client's). Key suffixes come as variables
-- because pgbench would read ':name' inside a literal as a variable.
\set r random(1, 9000000000000000000)
\set c hash(:r, 3)
\set ipn random(1, :addresses)
BEGIN;
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (encode(sha256(int8send(:r)), 'base64') || :email_suffix_1, extract(epoch from now())::bigint, 1,
    extract(epoch from now())::bigint + :email_window_1)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
    window_start = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.window_start
        ELSE excluded.window_start END,
    expires_at = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.expires_at ELSE excluded.expires_at END
WHERE rate_counters.expires_at <= excluded.window_start OR rate_counters.count < :email_limit_1
RETURNING count, expires_at;
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (encode(sha256(int8send(:r)), 'base64') || :email_suffix_2, extract(epoch from now())::bigint, 1,
    extract(epoch from now())::bigint + :email_window_2)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
    window_start = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.window_start
        ELSE excluded.window_start END,
    expires_at = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.expires_at ELSE excluded.expires_at END
WHERE rate_counters.expires_at <= excluded.window_start OR rate_counters.count < :email_limit_2
RETURNING count, expires_at;
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (encode(sha256(int8send(:r)), 'base64') || :email_suffix_3, extract(epoch from now())::bigint, 1,
    extract(epoch from now())::bigint + :email_window_3)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
    window_start = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.window_start
        ELSE excluded.window_start END,
    expires_at = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.expires_at ELSE excluded.expires_at END
WHERE rate_counters.expires_at <= excluded.window_start OR rate_counters.count < :email_limit_3
RETURNING count, expires_at;
INSERT INTO rate_counters (key, window_start, count, expires_at)
VALUES (:ip_subject::text || :ipn || :ip_suffix, extract(epoch from now())::bigint, 1, extract(epoch from now())::bigint + :ip_window)
ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.count + 1 ELSE 1 END,
    window_start = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.window_start
        ELSE excluded.window_start END,
    expires_at = CASE WHEN rate_counters.expires_at > excluded.window_start THEN rate_counters.expires_at ELSE excluded.expires_at END
WHERE rate_counters.expires_at <= excluded.window_start OR rate_counters.count < :ip_limit
RETURNING count, expires_at;
INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, ios_bundle_id, android_package_name,
    android_install_app, handles_code_in_app)
VALUES (convert_to(lpad(to_hex(extract(epoch from now())::bigint), 8, '0'), 'UTF8') || sha256(int8send(:c)), 's' || :r || '@example.com', extract(epoch from now()), extract(epoch from now()) + :code_lifetime,
    'en', :continue_url, NULL, NULL, FALSE, TRUE);
INSERT INTO audit_events (at, kind, account_id, email, ip_address, user_agent, detail)
VALUES (extract(epoch from now()), 'code_issued', NULL, 's' || :r || '@example.com', :ip, NULL, NULL);
DELETE FROM pending_requests WHERE id IN (
    SELECT id FROM pending_requests WHERE email = 's' || :r || '@example.com' AND used_at IS NULL
    ORDER BY created_at DESC, id DESC OFFSET 5);
INSERT INTO outbox (recipient, format, sealed_message, created_at, next_attempt_at)
VALUES ('s' || :r || '@example.com', 'sign-in', :letter, extract(epoch from now()),
    LEAST(extract(epoch from now())::float8, extract(epoch FROM clock_timestamp())::float8));
COMMIT;
