"""Moving in from Firebase and out again (#21): Firebase's Admin SDK `import_users` with hashes made here by the
reference implementations, `latchkey import` of `firebase auth:export` files, and `latchkey export` into a fresh
Latchkey.
"""

import base64
import hashlib
import hmac
import json
import os
import re
import sqlite3
import stat

import bcrypt
import firebase_scrypt
import pytest
import requests
from firebase_admin import auth

from conftest import ADMIN_TOKEN
from harness import API_KEY, HTTP_TIMEOUT, PROJECT_ID, code_of, command, complete, error_message, post, read_link, send

# Firebase's published example project parameters (firebase/scrypt's README).
SIGNER_KEY = base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
SALT_SEPARATOR = base64.b64decode("Bw==")
CONSOLE_HASH_CONFIG = """hash_config {
  algorithm: SCRYPT,
  base64_signer_key: jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==,
  base64_salt_separator: Bw==,
  rounds: 8,
  mem_cost: 14,
}
"""


def scrypt_hash(password, salt):
    derived = firebase_scrypt.generate_derived_key(password, salt, SALT_SEPARATOR, 8, 14)
    return firebase_scrypt.encrypt(SIGNER_KEY, derived)


def sign_in(server, email, password):
    return post(server, "accounts:signInWithPassword", json={"email": email, "password": password})


def stored_hash(server, uid):
    with sqlite3.connect(server.directory / "data" / "latchkey.sqlite") as database:
        return database.execute("SELECT password_hash FROM accounts WHERE id = ?", (uid,)).fetchone()[0]


def admin_lookup(server, **body):
    """The users an admin's `accounts:lookup` finds."""
    response = requests.post(f"{server.url}/v1/accounts:lookup", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, json=body, timeout=HTTP_TIMEOUT)
    assert response.status_code == 200, response.text
    return response.json()["users"]


def batch_create(server, body, token=ADMIN_TOKEN, **kwargs):
    return requests.post(
        f"{server.url}/v1/projects/{PROJECT_ID}/accounts:batchCreate", timeout=HTTP_TIMEOUT,
        headers={"Authorization": f"Bearer {token}"}, json=body, **kwargs)


def assert_signs_in_once_with_its_hash(server, uid, email, password):
    """Wrong passwords are refused; the right one signs in, and the imported hash is then replaced by Latchkey's."""
    assert stored_hash(server, uid).startswith("imported-v1:")
    assert error_message(sign_in(server, email, password + "x")) == "INVALID_LOGIN_CREDENTIALS"
    response = sign_in(server, email, password)
    assert response.status_code == 200 and response.json()["localId"] == uid, response.text
    replaced = stored_hash(server, uid)
    assert replaced.startswith("$2b$") and bcrypt.checkpw(password.encode(), replaced.encode())
    assert sign_in(server, email, password).status_code == 200


@pytest.mark.parametrize("algorithm", ["SCRYPT", "STANDARD_SCRYPT", "BCRYPT", "HMAC_SHA256", "HMAC_MD5", "PBKDF2_SHA256", "SHA256"])
def test_the_admin_sdk_imports_users_whose_passwords_then_sign_in(admin, algorithm):
    server, app = admin
    key, salt = os.urandom(32), os.urandom(12)
    passwords = {f"{algorithm.lower()}-{n}": f"pässword {n} {os.urandom(4).hex()}" for n in range(3)}
    hash_of, hash_alg = {
        "SCRYPT": (lambda pw: scrypt_hash(pw, salt), auth.UserImportHash.scrypt(SIGNER_KEY, rounds=8, memory_cost=14, salt_separator=SALT_SEPARATOR)),
        "STANDARD_SCRYPT": (lambda pw: hashlib.scrypt(pw.encode(), salt=salt, n=1024, r=8, p=1, dklen=32),
                            auth.UserImportHash.standard_scrypt(memory_cost=1024, parallelization=1, block_size=8, derived_key_length=32)),
        "BCRYPT": (lambda pw: bcrypt.hashpw(pw.encode(), bcrypt.gensalt(4)), auth.UserImportHash.bcrypt()),
        "HMAC_SHA256": (lambda pw: hmac.new(key, salt + pw.encode(), "sha256").digest(), auth.UserImportHash.hmac_sha256(key)),
        "HMAC_MD5": (lambda pw: hmac.new(key, pw.encode() + salt, "md5").digest(), auth.UserImportHash.hmac_md5(key)),
        "PBKDF2_SHA256": (lambda pw: hashlib.pbkdf2_hmac("sha256", pw.encode(), salt, 1000, 32), auth.UserImportHash.pbkdf2_sha256(rounds=1000)),
        "SHA256": (lambda pw: hashlib.sha256(salt + pw.encode()).digest(), auth.UserImportHash.sha256(rounds=1)),
    }[algorithm]
    users = [
        auth.ImportUserRecord(uid, email=f"{uid}@example.com", password_hash=hash_of(password), password_salt=salt, display_name=uid)
        for uid, password in passwords.items()
    ]
    result = auth.import_users(users, hash_alg=hash_alg, app=app)
    assert (result.success_count, result.failure_count) == (3, 0), [error.reason for error in result.errors]
    listed = [user for user in auth.list_users(app=app).iterate_all() if user.uid in passwords]
    assert [user.display_name for user in listed] == list(passwords)
    assert {user.password_hash for user in listed} == {"UkVEQUNURUQ="}  # Firebase's redacted placeholder, never the hash
    for uid, password in passwords.items():
        assert_signs_in_once_with_its_hash(server, uid, f"{uid}@example.com", password)


def test_a_partial_batch_imports_its_valid_users_and_says_why_not_the_others(admin):
    server, app = admin
    auth.create_user(uid="existing", email="taken@example.com", app=app)
    users = [
        auth.ImportUserRecord("fresh", email="fresh@example.com", provider_data=[auth.UserProvider("g-1", "google.com", email="fresh@gmail.com")]),
        auth.ImportUserRecord("existing", email="other@example.com"),
        auth.ImportUserRecord("wants-taken", email="TAKEN@example.com"),
        auth.ImportUserRecord("with-claims", email="claims@example.com", custom_claims={"admin": True}),
        auth.ImportUserRecord("with-phone", phone_number="+15555550100"),
        auth.ImportUserRecord("same-google", provider_data=[auth.UserProvider("g-1", "google.com")]),
        auth.ImportUserRecord("plain", email_verified=True, disabled=True, user_metadata=auth.UserMetadata(1_500_000_000_000, 1_600_000_000_000)),
        auth.ImportUserRecord("same-phone", phone_number="+15555550100"),
        auth.ImportUserRecord("bad-phone", phone_number="+1555"),
    ]
    result = auth.import_users(users, app=app)
    assert result.success_count == 4 and result.failure_count == 5
    assert {error.index: error.reason for error in result.errors} == {
        1: "localId belongs to an existing account - can not overwrite.",
        2: "email exists in other account in database",
        5: "raw id exists in other account in database",
        7: "phone number exists in other account in database",
        8: "phone number format is invalid",
    }
    assert auth.get_user_by_phone_number("+15555550100", app=app).uid == "with-phone"
    assert auth.get_user("with-claims", app=app).custom_claims == {"admin": True}
    fresh = auth.get_user("fresh", app=app)
    assert [(p.provider_id, p.uid, p.email) for p in fresh.provider_data if p.provider_id == "google.com"] == [("google.com", "g-1", "fresh@gmail.com")]
    plain = auth.get_user("plain", app=app)
    assert plain.disabled and plain.user_metadata.creation_timestamp == 1_500_000_000_000
    assert plain.user_metadata.last_sign_in_timestamp == 1_600_000_000_000
    assert auth.get_user("existing", app=app).email == "taken@example.com"
    for uid in ("wants-taken", "same-google", "same-phone", "bad-phone"):
        with pytest.raises(auth.UserNotFoundError):
            auth.get_user(uid, app=app)


@pytest.mark.parametrize("config, message", [
    ({"hashAlgorithm": "ARGON2"}, "INVALID_HASH_ALGORITHM : ARGON2: this server's OpenSSL has no Argon2"),
    ({"hashAlgorithm": "ROT13"}, "INVALID_HASH_ALGORITHM : ROT13: not one of"),
    ({"hashAlgorithm": "SCRYPT", "signerKey": "c2lnbmVy", "rounds": 8, "memoryCost": 40}, "INVALID_HASH_PARAMETERS : SCRYPT memoryCost: required, 1 to 14"),
    ({"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 30, "blockSize": 8, "parallelization": 1, "dkLen": 32},
     "INVALID_HASH_PARAMETERS : STANDARD_SCRYPT cpuMemCost: required, 2 to 1048576"),
    ({"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 20, "blockSize": 64, "parallelization": 16, "dkLen": 32},
     "INVALID_HASH_PARAMETERS : STANDARD_SCRYPT cpuMemCost × blockSize × parallelization × 128 bytes: at most 64 MiB"),
    ({"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 16, "blockSize": 8, "parallelization": 2, "dkLen": 32},
     "INVALID_HASH_PARAMETERS : STANDARD_SCRYPT cpuMemCost × blockSize × parallelization × 128 bytes: at most 64 MiB"),
    ({"hashAlgorithm": "PBKDF2_SHA256", "rounds": 10_000_000}, "INVALID_HASH_PARAMETERS : PBKDF2_SHA256 rounds: required, 1 to 120000"),
    ({"hashAlgorithm": "HMAC_SHA256"}, "INVALID_HASH_PARAMETERS : HMAC_SHA256 signerKey: required"),
    ({"hashAlgorithm": "SCRYPT", "signerKey": "%%%", "rounds": 8, "memoryCost": 14}, "INVALID_SIGNER_KEY"),
    ({}, "MISSING_HASH_ALGORITHM"),
])
def test_hostile_or_mistaken_hash_configurations_refuse_the_whole_batch(admin, config, message):
    server, _ = admin
    response = batch_create(server, {"users": [{"localId": "u1", "email": "u1@example.com", "passwordHash": "aGFzaA", "salt": "c2FsdA"}], **config})
    assert response.status_code == 400 and error_message(response).startswith(message), response.text
    assert admin_lookup(server, localId=["u1"]) == []


def test_custom_claims_the_sdk_would_not_send_are_refused_per_user(admin):
    server, _ = admin
    response = batch_create(server, {"users": [
        {"localId": "c1", "customAttributes": '{"sub": "someone-else"}'}, {"localId": "c2", "customAttributes": "[1, 2]"},
        {"localId": "c3", "customAttributes": '{"a": "' + "x" * 1000 + '"}'}, {"localId": "c4", "customAttributes": '{"sid": "s"}'},
        {"localId": "c5", "customAttributes": '{"tier": 2}'},
    ]})
    assert response.json()["error"] == [
        {"index": 0, "message": "Custom claims provided include a reserved claim."},
        {"index": 1, "message": "Invalid custom claims provided."},
        {"index": 2, "message": "Custom claims provided are too large."},
        {"index": 3, "message": "Custom claims provided include a reserved claim."},
    ], response.text
    assert [user["customAttributes"] for user in admin_lookup(server, localId=["c5"])] == ['{"tier": 2}']


def test_whole_batch_refusals(admin):
    server, _ = admin
    for body, message in [
        ({"users": []}, "MISSING_USER_ACCOUNT"),
        ({"users": [{"localId": "same"}, {"localId": "same"}]}, "DUPLICATE_LOCAL_ID : same"),
        ({"sanityCheck": True, "users": [{"localId": "a", "email": "x@example.com"}, {"localId": "b", "email": "X@example.com"}]},
         "DUPLICATE_EMAIL : x@example.com"),
        ({"users": [{"localId": f"u{n}"} for n in range(1001)]}, "MAXIMUM_USER_COUNT_EXCEEDED"),
    ]:
        response = batch_create(server, body)
        assert response.status_code == 400 and error_message(response).startswith(message), response.text
    unauthenticated = requests.post(f"{server.url}/v1/projects/{PROJECT_ID}/accounts:batchCreate", params={"key": API_KEY},
                                    json={"users": [{"localId": "u"}]}, timeout=HTTP_TIMEOUT)
    assert unauthenticated.status_code == 401


def test_only_an_admin_import_may_carry_a_large_body(admin):
    """A thousand users with bcrypt hashes are far over 64 KiB: admin batchCreate may send up to 4 MiB, nobody else more."""
    server, app = admin
    hashed = bcrypt.hashpw(b"one password for all", bcrypt.gensalt(4))
    users = [auth.ImportUserRecord(f"bulk-{n:04d}", email=f"bulk-{n:04d}@example.com", display_name="x" * 100, password_hash=hashed)
             for n in range(1000)]
    result = auth.import_users(users, hash_alg=auth.UserImportHash.bcrypt(), app=app)
    assert result.success_count == 1000, [error.reason for error in result.errors[:3]]
    assert sign_in(server, "bulk-0999@example.com", "one password for all").status_code == 200

    large = {"users": [{"localId": "padding", "displayName": "x" * 100_000}]}
    assert batch_create(server, large, token="not-the-admin").status_code == 413  # refused unread, like any other
    assert batch_create(server, {"users": [{"localId": "u"}]}, token="not-the-admin").status_code == 401
    assert requests.post(f"{server.url}/v1/projects/{PROJECT_ID}/accounts:batchCreate", params={"key": API_KEY}, json=large,
                         timeout=HTTP_TIMEOUT).status_code == 413
    assert requests.post(f"{server.url}/v1/accounts:lookup", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                         json={"localId": ["x" * 100_000]}, timeout=HTTP_TIMEOUT).status_code == 413
    huge = {"users": [{"localId": "padding", "displayName": "x" * (4 << 20)}]}
    assert batch_create(server, huge).status_code == 413


# --- latchkey import / export -----------------------------------------------------------------------------------


def firebase_users():
    """What `firebase auth:export` writes for a password user, an email-link user and a Google user."""
    salt = b"salt of ada"
    return [
        {"localId": "ada", "email": "ada@example.com", "emailVerified": True, "passwordHash": base64.b64encode(scrypt_hash("ada's pw 1", salt)).decode(),
         "salt": base64.b64encode(salt).decode(), "displayName": 'Ada "Countess", Lovelace', "createdAt": "1500000000000", "lastSignedInAt": "1600000000000",
         "disabled": False},
        {"localId": "bea", "email": "bea@example.com", "emailVerified": True, "createdAt": "1500000000001", "disabled": False,
         "customAttributes": '{"role":"x","note":"say \\"hi\\""}'},
        {"localId": "cyd", "email": "cyd@example.com", "emailVerified": False, "createdAt": "1500000000002", "disabled": False,
         "providerUserInfo": [{"providerId": "google.com", "rawId": "1029384756", "email": "cyd@example.com", "displayName": "Cyd G.",
                               "photoUrl": "https://lh3.example/cyd.png"}, {"providerId": "apple.com", "rawId": "001.cyd"}]},
    ]


def csv_field(text):
    """firebase-tools' escapeCsv (15.19 and later)."""
    return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\r\n') else text


def csv_line(user):
    """One line of `firebase auth:export --format=csv` as firebase-tools 15.19 and later write it: 52 columns."""
    columns = [""] * 52
    columns[0:7] = [user["localId"], user.get("email", ""), "true" if user.get("emailVerified") else "false", user.get("passwordHash", ""),
                    user.get("salt", ""), csv_field(user.get("displayName", "")), user.get("photoUrl", "")]
    for provider in user.get("providerUserInfo", []):
        start = {"google.com": 7, "facebook.com": 11, "twitter.com": 15, "github.com": 19, "apple.com": 28}[provider["providerId"]]
        columns[start:start + 4] = [provider["rawId"], provider.get("email", ""), csv_field(provider.get("displayName", "")),
                                    provider.get("photoUrl", "")]
    columns[23:27] = [user.get("createdAt", ""), user.get("lastSignedInAt", ""), "", "true" if user.get("disabled") else "false"]
    if "customAttributes" in user:  # firebase-tools doubles every quote but those after a backslash
        columns[27] = '"' + re.sub(r'(?<!\\)"', '""', user["customAttributes"]) + '"'
    return ",".join(columns) + ",\n"


def reported(result):
    """What `latchkey import` printed, less the CSV's note on second factors."""
    return [line for line in result.stdout.splitlines() if not line.startswith("note: ")]


def initialized(start_latchkey, name="latchkey"):
    """A server not yet started, with the store and server secret `latchkey init` creates (which `import` needs)."""
    server = start_latchkey(name, adminTokens=[ADMIN_TOKEN], started=False)
    result = command(server, "init")
    assert result.returncode == 0, result
    return server


def import_file(server, name, content, *options):
    (server.directory / name).write_text(content)
    (server.directory / "hash.txt").write_text(CONSOLE_HASH_CONFIG)
    return command(server, "import", "--firebase", name, "--hash-config", "hash.txt", *options, timeout=120)


def assert_imported_users_sign_in(server):
    assert_signs_in_once_with_its_hash(server, "ada", "ada@example.com", "ada's pw 1")
    send(server, "bea@example.com")
    signed_in = complete(server, "bea@example.com", code_of(read_link(server, 1)))
    assert signed_in.status_code == 200 and signed_in.json()["localId"] == "bea", signed_in.text
    found = admin_lookup(server, federatedUserId=[{"providerId": "google.com", "rawId": "1029384756"}])
    assert [user["localId"] for user in found] == ["cyd"]
    google = [p for p in found[0]["providerUserInfo"] if p["providerId"] == "google.com"]
    assert google == [{"providerId": "google.com", "rawId": "1029384756", "federatedId": "1029384756", "email": "cyd@example.com",
                       "displayName": "Cyd G.", "photoUrl": "https://lh3.example/cyd.png"}]


@pytest.mark.parametrize("name", ["users.json", "users.csv"])
def test_latchkey_import_reads_firebase_exports_and_runs_again_without_changes(start_latchkey, name):
    server = initialized(start_latchkey)
    users = firebase_users()
    content = json.dumps({"users": users}, indent=2) if name.endswith(".json") else "".join(map(csv_line, users))
    first = import_file(server, name, content)
    assert first.returncode == 0 and first.stdout.startswith("imported 3, unchanged 0, refused 0"), first
    again = import_file(server, name, content)
    assert again.returncode == 0, again
    assert reported(again) == ["imported 0, unchanged 3, refused 0", "nothing to change: every user is already here"]

    changed = [dict(users[0], displayName="Ada L."), users[1], dict(users[2], localId="cyd-2", email="cyd2@example.com")]
    content = json.dumps({"users": changed}) if name.endswith(".json") else "".join(map(csv_line, changed))
    conflicted = import_file(server, name, content)
    assert conflicted.returncode == 1, conflicted
    assert reported(conflicted) == [
        "imported 0, unchanged 1, refused 2",
        "refused (user number in the file, uid, reason):",
        "  1\tada\tlocalId belongs to an existing account with other data",
        "  3\tcyd-2\traw id exists in other account in database",
    ]
    server.start()
    assert_imported_users_sign_in(server)
    ada, bea = admin_lookup(server, localId=["ada", "bea"])
    assert ada["displayName"] == 'Ada "Countess", Lovelace' and json.loads(bea["customAttributes"]) == {"role": "x", "note": 'say "hi"'}


def test_latchkey_import_refuses_an_unreadable_file_or_hash_config_and_imports_nothing(start_latchkey):
    server = initialized(start_latchkey)
    (server.directory / "hash.txt").write_text("hash_config {\n  algorithm: SCRYPT,\n  rounds: 8,\n  mem_cost: 99,\n}\n")
    (server.directory / "users.json").write_text(json.dumps({"users": firebase_users()}))
    refused = command(server, "import", "--firebase", "users.json", "--hash-config", "hash.txt")
    assert refused.returncode == 1 and "INVALID_HASH_PARAMETERS : SCRYPT signerKey: required" in refused.stderr, refused
    (server.directory / "broken.json").write_text('{"users": [')
    broken = command(server, "import", "--firebase", "broken.json", "--hash-config", "hash.txt")
    assert broken.returncode == 1 and "not the JSON `firebase auth:export` writes" in broken.stderr, broken
    server.start()
    assert admin_lookup(server, localId=["ada", "bea", "cyd"]) == []


def test_an_export_imports_into_a_fresh_latchkey_where_everyone_signs_in_as_before(start_latchkey):
    old = start_latchkey("old", adminTokens=[ADMIN_TOKEN])
    assert post(old, "accounts:signUp", json={"email": "pat@example.com", "password": "pat's password"}).status_code == 200
    long_password = "a passphrase longer than the seventy-two bytes that bcrypt reads of any password"
    assert post(old, "accounts:signUp", json={"email": "max@example.com", "password": long_password}).status_code == 200
    send(old, "lee@example.com")
    assert complete(old, "lee@example.com", code_of(read_link(old, 1))).status_code == 200
    imported = import_file(old, "users.json", json.dumps({"users": firebase_users()}))
    assert imported.returncode == 0, imported
    assert sign_in(old, "ada@example.com", "ada's pw 1").status_code == 200  # her Firebase hash is now Latchkey's bcrypt
    corporate = batch_create(old, {"users": [{"localId": "dan", "email": "dan@example.com", "providerUserInfo": [
        {"providerId": "oidc.corp", "rawId": "dan-7"}, {"providerId": "apple.com", "rawId": "001.dan"}]}]})
    assert corporate.status_code == 200 and "error" not in corporate.json(), corporate.text
    texted = batch_create(old, {"users": [{"localId": "tia", "email": "tia@example.com", "emailVerified": True, "phoneNumber": "+16505550101",
                                           "mfaInfo": [{"mfaEnrollmentId": "f1", "phoneInfo": "+442079460958"}]}]})
    assert texted.status_code == 200 and "error" not in texted.json(), texted.text
    old.stop()

    exported = command(old, "export", "--format", "firebase", "export.json")
    assert exported.returncode == 0, exported
    assert exported.stdout.splitlines()[0].startswith("exported 8 users to export.json"), exported.stdout
    # Max's password is longer than plain bcrypt reads: it cannot travel as BCRYPT, so Max resets it after the move.
    assert "passwords left out: 1" in exported.stdout, exported.stdout
    # Firebase's import refuses a whole file for one provider id it does not know: Dan's OIDC link stays behind.
    assert "identities left out, of providers firebase auth:import refuses: oidc.corp 1" in exported.stdout, exported.stdout
    path = old.directory / "export.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = command(old, "export", "--format", "firebase", "export.json")
    assert again.returncode == 1 and "exists" in again.stderr
    users = {user["localId"]: user for user in json.loads(path.read_text())["users"]}
    pat = next(user for user in users.values() if user.get("email") == "pat@example.com")
    assert bcrypt.checkpw(b"pat's password", base64.b64decode(pat["passwordHash"]))  # what Firebase's BCRYPT import checks
    for user in users.values():  # only the keys `firebase auth:import` accepts
        assert set(user) <= {"localId", "email", "emailVerified", "passwordHash", "salt", "displayName", "photoUrl", "createdAt",
                             "lastSignedInAt", "phoneNumber", "disabled", "customAttributes", "providerUserInfo", "mfaInfo"}, user

    new = initialized(start_latchkey, "new")
    (new.directory / "export.json").write_text(path.read_text())
    (new.directory / "bcrypt.txt").write_text("hash_config {\n  algorithm: BCRYPT,\n}\n")
    moved = command(new, "import", "--firebase", "export.json", "--hash-config", "bcrypt.txt")
    assert moved.returncode == 0 and moved.stdout.startswith("imported 8, unchanged 0, refused 0"), moved
    new.start()
    assert_signs_in_once_with_its_hash(new, pat["localId"], "pat@example.com", "pat's password")
    assert_signs_in_once_with_its_hash(new, "ada", "ada@example.com", "ada's pw 1")
    for number, address in enumerate(["lee@example.com", "bea@example.com"], start=1):
        send(new, address)
        assert complete(new, address, code_of(read_link(new, number))).status_code == 200
    cyd, dan = admin_lookup(new, localId=["cyd", "dan"])
    assert cyd["email"] == "cyd@example.com" and cyd["createdAt"] == "1500000000002"
    assert [p["rawId"] for p in cyd["providerUserInfo"] if p["providerId"] == "google.com"] == ["1029384756"]
    assert sorted(p["providerId"] for p in dan["providerUserInfo"]) == ["apple.com", "password"]
    [tia] = admin_lookup(new, phoneNumber=["+16505550101"])
    assert tia["localId"] == "tia" and [(f["mfaEnrollmentId"], f["phoneInfo"]) for f in tia["mfaInfo"]] == [("f1", "+442079460958")]
    assert error_message(sign_in(new, "max@example.com", long_password)) == "INVALID_LOGIN_CREDENTIALS"


def test_phone_users_and_their_phone_factors_are_imported_and_a_totp_factor_refuses_its_user(start_latchkey):
    """Current firebase-tools exports phone numbers and phone second factors (`mfaInfo`): both arrive as they were; a
    TOTP factor, whose secret no export holds, refuses its user rather than import it without one, as do the checks
    Firebase's emulator makes of a factor (a verified address, a valid number)."""
    server = initialized(start_latchkey)
    users = [
        {"localId": "sms", "email": "sms@example.com", "emailVerified": True, "phoneNumber": "+16505550101",
         "mfaInfo": [{"mfaEnrollmentId": "e1", "displayName": "work", "phoneInfo": "+15555550100", "enrolledAt": "2025-01-02T03:04:05.678Z"}]},
        {"localId": "plain", "email": "plain@example.com"},
        {"localId": "totp", "email": "totp@example.com", "emailVerified": True, "mfaInfo": [{"mfaEnrollmentId": "t1", "totpInfo": {}}]},
        {"localId": "unverified", "email": "u@example.com", "mfaInfo": [{"phoneInfo": "+15555550101"}]},
        {"localId": "bad-factor", "email": "b@example.com", "emailVerified": True, "mfaInfo": [{"phoneInfo": "+1555"}]},
    ]
    result = import_file(server, "users.json", json.dumps({"users": users}))
    assert result.returncode == 1, result
    assert result.stdout.splitlines()[0] == "imported 2, unchanged 0, refused 3", result.stdout
    assert "  3\ttotp\tSecond factor not supported" in result.stdout, result.stdout
    assert "  4\tunverified\tSecond factor account requires email to be verified." in result.stdout, result.stdout
    assert "  5\tbad-factor\tPhone number format is invalid" in result.stdout, result.stdout
    server.start()
    [sms] = admin_lookup(server, phoneNumber=["+16505550101"])
    assert sms["localId"] == "sms" and sms["mfaInfo"] == [
        {"mfaEnrollmentId": "e1", "displayName": "work", "phoneInfo": "+15555550100", "enrolledAt": "2025-01-02T03:04:05.678Z"}]
