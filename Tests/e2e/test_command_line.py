"""What the `latchkey` command prints to an operator: its start-up log and its usage errors."""

import base64
import hashlib
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import time
from datetime import datetime, timedelta

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from harness import (API_KEY, BINARY, CONTINUE_URL, HTTP_TIMEOUT, PROJECT_ID, REPO, Latchkey, code_of, complete, post, read_link,
                     refresh, send)

LONGEST_LINE = 300  # characters: a log line an operator can read in a terminal


def latchkey(*arguments, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    return subprocess.run([str(BINARY), *arguments], capture_output=True, text=True, timeout=30, env=env, cwd=cwd)


def test_the_development_start_up_log_is_one_readable_line(start_latchkey):
    server = start_latchkey()  # development mode, so the log level is debug
    server.stop()
    logs = server.logs()
    lines = logs.splitlines()
    starting = [line for line in lines if line.endswith("Latchkey starting")]
    assert len(starting) == 1 and " info " in starting[0], logs
    assert [line for line in lines if len(line) > LONGEST_LINE] == [], logs
    # The service lifecycle described each service's whole state: loggers and the list of applied migrations.
    assert "Logger(_storage" not in logs and "v1: pending requests" not in logs, logs


def test_the_service_lifecycle_is_still_logged_at_trace(start_latchkey):
    server = start_latchkey(logLevel="trace")
    server.stop()
    assert "[ServiceLifecycle] Starting service" in server.logs()


def test_audit_answers_a_malformed_address_with_its_own_usage(tmp_path):
    result = latchkey("audit", "--email", "not-an-email", cwd=tmp_path)
    assert result.returncode == 64, result  # EX_USAGE, as for any other usage error
    assert "Error: not-an-email is not an email address" in result.stderr, result.stderr
    assert "Usage: latchkey audit" in result.stderr, result.stderr
    assert "SUBCOMMANDS" not in result.stderr, result.stderr


def test_audit_prints_no_control_or_bidi_characters_from_a_user_agent(start_latchkey):
    server = start_latchkey()
    # HTTP refuses C0 controls in a header; bidirectional overrides and C1 controls arrive as UTF-8.
    hostile = "Mozilla/5.0 \u202emoc.live\u202c \u2066x\u2069 \u009b2J"
    response = requests.post(f"{server.url}/v1/accounts:sendOobCode", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, json={
        "requestType": "EMAIL_SIGNIN", "email": "alice@example.com", "continueUrl": CONTINUE_URL,
    }, headers={"User-Agent": hostile.encode("utf-8")})
    assert response.status_code == 200, response.text
    server.stop()
    result = latchkey("audit", "--config", "latchkey.json", "--email", "alice@example.com", cwd=server.directory)
    assert result.returncode == 0, result.stderr
    assert "code_issued" in result.stdout and "Mozilla/5.0 moc.live x 2J" in result.stdout, result.stdout
    assert not any(ch in result.stdout for ch in "\u202e\u202c\u2066\u2069\u009b"), repr(result.stdout)


def test_production_serve_needs_latchkey_init_first(tmp_path):
    server = Latchkey(tmp_path / "fresh", mode="production")
    refused = latchkey("serve", "--config", "latchkey.json", cwd=server.directory)
    assert refused.returncode != 0 and "run `latchkey init` once" in refused.stderr, refused.stderr
    assert not (server.directory / "data" / "server-secret").exists()

    created = latchkey("init", "--config", "latchkey.json", cwd=server.directory)
    assert created.returncode == 0, created.stderr
    assert "server secret: data/server-secret" in created.stdout and "(RS256, active, signs new tokens)" in created.stdout, created.stdout
    again = latchkey("init", "--config", "latchkey.json", cwd=server.directory)
    assert again.stdout == created.stdout  # nothing replaced: the same secret file and key
    server.start()
    keys = requests.get(server.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT).json()["keys"]
    assert [key["kid"] for key in keys] == [line.split()[2] for line in created.stdout.splitlines() if line.startswith("signing key")]
    server.stop()


def test_init_imports_the_key_files_of_an_older_deployment_once(tmp_path):
    """Up to 0.8 the signing keys were PEM files in `tokens.keyDirectory`: the first `init` moves them into the
    database, keeping their ids, so tokens they signed stay valid; the directory is not needed after."""
    server = Latchkey(tmp_path / "upgraded", mode="production")
    keys = server.directory / "data" / "keys"
    keys.mkdir(parents=True)
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    (keys / "old.pem").write_bytes(pem)
    public = private.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    key_id = base64.urlsafe_b64encode(hashlib.sha256(public).digest()[:16]).rstrip(b"=").decode()

    created = latchkey("init", "--config", "latchkey.json", cwd=server.directory)
    assert created.returncode == 0, created.stderr
    assert f"signing key {key_id} (RS256, active, signs new tokens)" in created.stdout.splitlines(), created.stdout
    assert "Signing keys imported into the store" in created.stderr and key_id in created.stderr, created.stderr
    shutil.rmtree(keys)
    server.start()
    assert published_key_ids(server) == [key_id]
    server.stop()


def test_keys_rotate_adds_a_key_that_is_published_at_once_and_signs_after_the_delay(start_latchkey):
    server = start_latchkey(tokens={"rotationDelaySeconds": 3600})
    (old_key,) = published_key_ids(server)
    rotated = latchkey("keys", "rotate", "--config", "latchkey.json", cwd=server.directory)
    assert rotated.returncode == 0, rotated.stderr
    new_key = rotated.stdout.split()[3]

    listing = latchkey("keys", "list", "--config", "latchkey.json", cwd=server.directory)
    assert listing.returncode == 0, listing.stderr
    header, old, new = [line.split("\t") for line in listing.stdout.splitlines()]
    assert header == ["id", "algorithm", "created", "activates", "state", "published until"]
    assert (old[0], old[1], old[4], new[0], new[1], new[4], new[5]) == (
        old_key, "RS256", "active, signs new tokens", new_key, "RS256", "pending", "-"), listing.stdout
    created, activates, old_until = (datetime.fromisoformat(value) for value in (new[2], new[3], old[5]))
    assert activates - created == timedelta(hours=1) and old_until - activates == timedelta(days=14), listing.stdout

    # The running server publishes the pending key within seconds, and keeps signing with the old one.
    deadline = time.monotonic() + 10
    while published_key_ids(server) != [old_key, new_key]:
        assert time.monotonic() < deadline, server.logs()
        time.sleep(0.1)
    send(server, "alice@example.com")
    signed_in = complete(server, "alice@example.com", code_of(read_link(server, 1)))
    assert jwt.get_unverified_header(signed_in.json()["idToken"])["kid"] == old_key


def test_keys_rotate_to_es256_and_back_switches_without_a_restart(start_latchkey):
    """`latchkey keys rotate --algorithm ES256` on a server configured for RS256: the ES256 key is published at once
    and signs once the delay is over, with no restart and no change of `tokens.algorithm`, which the commands then
    say differs; tokens of the RS256 key keep verifying, and a rotation back to RS256 works the same way."""
    delay = 2
    server = start_latchkey(tokens={"rotationDelaySeconds": delay})
    (rsa_key,) = published_key_ids(server)
    send(server, "alice@example.com")
    signed_in = complete(server, "alice@example.com", code_of(read_link(server, 1))).json()
    rsa_token, refresh_token = signed_in["idToken"], signed_in["refreshToken"]

    rotated = latchkey("keys", "rotate", "--algorithm", "ES256", "--config", "latchkey.json", cwd=server.directory)
    rotated_at = time.monotonic()
    assert rotated.returncode == 0, rotated.stderr
    p256_key = rotated.stdout.split()[3]
    assert f"added signing key {p256_key} (ES256): published now, signs from" in rotated.stdout, rotated.stdout
    assert "not tokens.algorithm's RS256" in rotated.stderr and "--algorithm RS256" in rotated.stderr, rotated.stderr
    deadline = time.monotonic() + 10
    while published_key_ids(server) != [rsa_key, p256_key]:
        assert time.monotonic() < deadline, server.logs()
        time.sleep(0.1)
    checked = latchkey("check-config", "--connect", "--config", "latchkey.json", cwd=server.directory)
    assert checked.returncode == 0 and f"warning: the newest signing key, {p256_key}, is ES256" in checked.stderr, checked

    time.sleep(max(0.0, rotated_at + delay + 1 - time.monotonic()))
    refreshed = refresh(server, refresh_token).json()
    p256_token = refreshed["id_token"]
    assert jwt.get_unverified_header(p256_token) == {"alg": "ES256", "kid": p256_key, "typ": "JWT"}
    keys = {key["kid"]: jwt.PyJWK(key).key for key in requests.get(server.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT).json()["keys"]}
    for token, algorithm in ((rsa_token, "RS256"), (p256_token, "ES256")):
        kid = jwt.get_unverified_header(token)["kid"]
        assert jwt.decode(token, keys[kid], algorithms=[algorithm], audience=PROJECT_ID)["email"] == "alice@example.com"
        assert post(server, "accounts:lookup", json={"idToken": token}).status_code == 200
    listing = latchkey("keys", "list", "--config", "latchkey.json", cwd=server.directory)
    states = {line.split("\t")[0]: (line.split("\t")[1], line.split("\t")[4]) for line in listing.stdout.splitlines()[1:]}
    assert states == {rsa_key: ("RS256", "retired"), p256_key: ("ES256", "active, signs new tokens")}, listing.stdout
    assert f"note: the newest signing key, {p256_key}, is ES256" in listing.stderr, listing.stderr

    back = latchkey("keys", "rotate", "--algorithm", "RS256", "--config", "latchkey.json", cwd=server.directory)
    back_at = time.monotonic()
    assert back.returncode == 0 and "note:" not in back.stderr, back
    rsa_again = back.stdout.split()[3]
    time.sleep(max(0.0, back_at + delay + 1 - time.monotonic()))
    assert published_key_ids(server) == [rsa_key, p256_key, rsa_again]
    header = jwt.get_unverified_header(refresh(server, refreshed["refresh_token"]).json()["id_token"])
    assert (header["alg"], header["kid"]) == ("RS256", rsa_again)


def published_key_ids(server):
    return [key["kid"] for key in requests.get(server.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT).json()["keys"]]


def test_sweep_deletes_what_retention_removes_and_keeps_what_is_live(start_latchkey):
    server = start_latchkey()
    send(server, "alice@example.com")
    signed_in = complete(server, "alice@example.com", code_of(read_link(server, 1)))
    assert signed_in.status_code == 200, signed_in.text
    database = sqlite3.connect(server.directory / "data" / "latchkey.sqlite")
    deadline = time.monotonic() + 10
    while database.execute("SELECT count(*) FROM outbox WHERE status = 'sent'").fetchone()[0] == 0:
        assert time.monotonic() < deadline, "alice's email was written but never marked delivered"
        time.sleep(0.05)
    server.stop()
    day, now = 86_400, time.time()
    with database:  # one transaction; alice's rows are all live, except her delivered email
        (session,) = database.execute("SELECT id FROM sessions").fetchone()
        database.execute(
            "INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url) VALUES (?, ?, ?, ?, 'en', ?)",
            (b"expired two days ago", "bob@example.com", now - 2 * day - 600, now - 2 * day, CONTINUE_URL))
        database.execute(
            "INSERT INTO outbox (recipient, created_at, status, attempts, next_attempt_at, last_error) VALUES (?, ?, 'failed', 5, ?, 'refused')",
            ("carol@example.com", now - day, now - day))
        database.execute(
            "INSERT INTO refresh_tokens (token_hash, session_id, created_at, rotated_at) VALUES (?, ?, ?, ?)",
            (b"rotated eight days ago", session, now - 9 * day, now - 8 * day))
        database.execute(
            "INSERT INTO sessions (id, account_id, sign_in_provider, auth_time, created_at, revoked_at) VALUES (?, ?, 'password', ?, ?, ?)",
            ("revoked", "gone", now - 9 * day, now - 9 * day, now - 3 * day))
        database.execute(
            "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?, 'revoked', ?)", (b"of the revoked session", now - 9 * day))
        database.execute(
            "INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES ('ended', ?, 1, ?), ('open', ?, 1, ?)",
            (int(now - 600), int(now - 300), int(now - 60), int(now + 240)))
        database.execute("INSERT INTO audit_events (at, kind, email) VALUES (?, 'code_issued', 'bob@example.com')", (now - 91 * day,))
        for name, expiry in (("expired", now - 60), ("current", now + 600)):
            database.execute(
                "INSERT INTO provider_sessions (state_hash, session_id, provider_id, redirect_uri, created_at, expires_at) "
                "VALUES (?, ?, 'oidc.corp', 'https://app.example.com/', ?, ?)", (name.encode(), name, now - 120, expiry))
            database.execute("INSERT INTO pending_credentials (token_hash, identity, expires_at) VALUES (?, '{}', ?)", (name.encode(), expiry))
            database.execute(
                "INSERT INTO pending_enrollments (session_hash, account_id, sealed_secret, expires_at) "
                "VALUES (?, (SELECT id FROM accounts), x'00', ?)", (name.encode(), expiry))
            database.execute(
                "INSERT INTO second_factor_challenges (credential_hash, account_id, sign_in_provider, expires_at) "
                "VALUES (?, (SELECT id FROM accounts), 'password', ?)", (name.encode(), expiry))
            database.execute("INSERT INTO cool_offs (email, until) VALUES (?, ?)", (f"{name}@example.com", expiry))
            database.execute("INSERT INTO app_receipts (receipt_hash, secret_hash, expires_at) VALUES (?, x'00', ?)", (name.encode(), expiry))
            database.execute(
                "INSERT INTO phone_verifications (session_hash, purpose, phone_number, code_hash, created_at, expires_at) "
                "VALUES (?, 'sign-in', '+16505550101', x'00', ?, ?)", (name.encode(), now - 120, expiry))

    result = latchkey("sweep", "--config", "latchkey.json", cwd=server.directory)
    assert result.returncode == 0, result.stderr
    removed = dict(line.split("\t") for line in result.stdout.splitlines())
    assert removed == {
        "rows": "removed", "signInRequests": "1", "deliveredMail": "1", "rotatedRefreshTokens": "1", "revokedSessions": "1",
        "rateCounters": "1", "auditEvents": "1", "providerSessions": "1", "pendingCredentials": "1", "pendingEnrollments": "1",
        "secondFactorChallenges": "1", "phoneVerifications": "1", "coolOffs": "1", "appReceipts": "1",
    }, result.stdout
    with database:
        left = {
            "pending": database.execute("SELECT email, used_at IS NOT NULL FROM pending_requests").fetchall(),
            "outbox": database.execute("SELECT recipient, status FROM outbox").fetchall(),
            "sessions": database.execute("SELECT id FROM sessions").fetchall(),
            "tokens": database.execute("SELECT count(*) FROM refresh_tokens WHERE session_id = ?", (session,)).fetchone()[0],
            "orphans": database.execute("SELECT count(*) FROM refresh_tokens WHERE session_id = 'revoked'").fetchone()[0],
            "counters": database.execute("SELECT key FROM rate_counters").fetchall(),
            "audit": database.execute("SELECT kind FROM audit_events ORDER BY id").fetchall(),
            "provider sessions": database.execute("SELECT session_id FROM provider_sessions").fetchall(),
            "pending credentials": database.execute("SELECT count(*) FROM pending_credentials").fetchone()[0],
            "second factor rows": database.execute(
                "SELECT (SELECT count(*) FROM pending_enrollments), (SELECT count(*) FROM second_factor_challenges)").fetchone(),
            "cool-offs": database.execute("SELECT email FROM cool_offs").fetchall(),
            "app receipts": database.execute("SELECT receipt_hash FROM app_receipts").fetchall(),
        }
    database.close()
    assert left == {
        "pending": [("alice@example.com", 1)], "outbox": [("carol@example.com", "failed")], "sessions": [(session,)], "tokens": 1,
        "orphans": 0, "counters": [("open",)], "audit": [("code_issued",), ("sign_in_completed",)],
        "provider sessions": [("current",)], "pending credentials": 1, "second factor rows": (1, 1),
        "cool-offs": [("current@example.com",)], "app receipts": [(b"current",)],
    }, left

    server.start()
    refreshed = refresh(server, signed_in.json()["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text


@pytest.mark.parametrize("arguments", [
    ["export", "--format", "firebase", "out.json"], ["import", "--firebase", "users.json"], ["audit", "--email", "a@example.com"],
    ["outbox"], ["sweep"], ["migrate"], ["keys", "list"], ["cool-off", "list"],
])
def test_maintenance_commands_run_elsewhere_refuse_a_missing_store_and_create_nothing(start_latchkey, tmp_path, arguments):
    """Relative paths in the file resolve from the working directory: a command run from another directory finds no
    store there, and says so (with the path it looked for and the directory) rather than answer from a new, empty one."""
    server = start_latchkey()
    server.stop()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "users.json").write_text('{"users": []}')
    result = latchkey(*arguments, "--config", str(server.directory / "latchkey.json"), cwd=elsewhere)
    assert result.returncode == 1, result
    assert f"relative to the working directory {elsewhere}" in result.stderr, result.stderr
    looked_for = "no SQLite store at" if arguments[0] != "import" else "no server secret at"
    assert looked_for in result.stderr and str(elsewhere / "data") in result.stderr, result.stderr
    assert sorted(path.name for path in elsewhere.iterdir()) == ["users.json"]  # no new database, secret or export


def test_maintenance_commands_name_the_store_they_used(start_latchkey):
    server = start_latchkey()
    server.stop()
    result = latchkey("outbox", "--config", "latchkey.json", cwd=server.directory)
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0].startswith("store: data/latchkey.sqlite ("), result.stderr


def test_a_port_in_use_is_named_with_its_key(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = Latchkey(tmp_path / "second", server={"port": port})
        result = latchkey("serve", "--config", "latchkey.json", cwd=server.directory)
    assert result.returncode == 1, result
    assert (f"latchkey: cannot listen on 127.0.0.1:{port} (server.host, server.port): another process is using the port"
            in result.stderr), result.stderr
    assert "bind(descriptor:" not in result.stderr, result.stderr


def test_the_binary_is_the_release_the_documentation_describes():
    """One version: what `latchkey --version` says is the newest release the upgrade notes describe
    (docs/backups-and-upgrades.md), and neither the README nor docs/ offers a package URL or tag that does not exist."""
    documentation = "\n".join(path.read_text() for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))])
    version = latchkey("--version", cwd=REPO).stdout.strip()
    newest = max((tuple(map(int, to.split("."))) for to in re.findall(r"^From \d+\.\d+ to (\d+\.\d+):", documentation, re.M)))
    assert version == "{}.{}.0".format(*newest), version
    assert f"`latchkey --version` says {version}" in documentation
    assert "github.com/example/latchkey" not in documentation and "from: \"0." not in documentation
