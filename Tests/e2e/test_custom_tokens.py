"""Custom tokens (issue #33) against the live binary: a service account made by `latchkey service-account create`, whose
JSON file Firebase's Python Admin SDK takes, unmodified, as its credential; the tokens it mints sign users in over REST
and through the Swift client, and every token it would not mint is refused with Firebase's code, writing nothing.

The Admin SDK signs custom tokens locally (no network); it signs them only outside its emulator mode, so tokens are
minted before an emulator-mode app (for the admin calls) sets FIREBASE_AUTH_EMULATOR_HOST.
"""

import datetime
import json
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import firebase_admin
import jwt
import pytest
import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from firebase_admin import auth, credentials

from harness import API_KEY, HTTP_TIMEOUT, PROJECT_ID, command, error_message, refresh, verify
from json_stub import JSONStub
from test_swift_client import SIGNIN, TIMEOUT

AUDIENCE = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
STORES = ["sqlite", "postgres"]


def make_server(start_latchkey, request, tmp_path, mode="production", extra_accounts=()):
    """A server with one service account made by the command line: (server, path of its credential file, its entry)."""
    storage = request.getfixturevalue("database") if request.param == "postgres" else {"sqlite": {"path": "data/latchkey.sqlite"}}
    server = start_latchkey(started=False, mode=mode, storage=storage, adminTokens=["owner"])
    credential = tmp_path / f"service-account-{uuid.uuid4().hex}.json"
    created = command(server, "service-account", "create", "--name", "backend", "--output", str(credential))
    assert created.returncode == 0, created.stderr
    entry = json.loads(created.stdout)
    server.configure(serviceAccounts=[entry, *extra_accounts])
    return server.start(), credential, entry


@pytest.fixture(params=STORES)
def signed(start_latchkey, request, tmp_path):
    return make_server(start_latchkey, request, tmp_path)


def mint(credential, uid, claims=None):
    """What a backend does: the Admin SDK, with the credential file, signs a custom token for `uid`."""
    app = firebase_admin.initialize_app(credentials.Certificate(str(credential)), name=f"minter-{uuid.uuid4()}")
    try:
        return auth.create_custom_token(uid, claims, app=app).decode()
    finally:
        firebase_admin.delete_app(app)


def sign_in(server, token, path="v1/accounts:signInWithCustomToken"):
    return requests.post(f"{server.url}/{path}", params={"key": API_KEY}, json={"token": token, "returnSecureToken": True}, timeout=HTTP_TIMEOUT)


def test_the_service_account_file_is_private_and_an_admin_sdk_credential(signed):
    server, credential, entry = signed
    assert credential.stat().st_mode & 0o777 == 0o600
    fields = json.loads(credential.read_text())
    assert fields["type"] == "service_account" and fields["project_id"] == PROJECT_ID
    assert fields["client_email"] == entry["email"] and fields["private_key_id"] == entry["keys"][0]["id"]
    assert "PRIVATE" not in json.dumps(entry), "the printed entry holds only the public key"
    again = command(server, "service-account", "create", "--output", str(credential))
    assert again.returncode != 0 and "exists" in again.stderr, "an existing credential is never overwritten"


def test_admin_sdk_tokens_sign_in_refresh_and_carry_their_claims(monkeypatch, signed, admin_app):
    server, credential, entry = signed
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    token = mint(credential, "legacy-user-42", {"tier": "gold", "roles": ["editor"]})
    assert jwt.get_unverified_header(token)["alg"] == "RS256"

    first = sign_in(server, token)
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["kind"] == "identitytoolkit#VerifyCustomTokenResponse" and answer["isNewUser"] is True
    assert set(answer) == {"kind", "idToken", "refreshToken", "expiresIn", "isNewUser"}
    claims = verify(server, answer["idToken"], provider="custom")
    assert claims["sub"] == claims["user_id"] == "legacy-user-42"
    assert claims["tier"] == "gold" and claims["roles"] == ["editor"]

    refreshed = refresh(server, answer["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    renewed = verify(server, refreshed.json()["id_token"], provider="custom")
    assert renewed["tier"] == "gold" and renewed["roles"] == ["editor"], "developer claims last through refreshes"

    # A custom token is good for its hour, as Firebase's: the second use signs the same user in again.
    for path in ["identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                 f"v1/projects/{PROJECT_ID}/accounts:signInWithCustomToken",
                 "www.googleapis.com/identitytoolkit/v3/relyingparty/verifyCustomToken"]:
        again = sign_in(server, token, path)
        assert again.status_code == 200 and again.json()["isNewUser"] is False, (path, again.text)

    app = admin_app(server)
    user = auth.get_user("legacy-user-42", app=app)
    assert user.uid == "legacy-user-42" and user.email is None
    auth.update_user("legacy-user-42", disabled=True, app=app)
    assert error_message(sign_in(server, token)) == "USER_DISABLED"


def forge(private_key, header=None, **payload):
    """A token as a backend could write it by hand, signed with `private_key` (PEM) unless `header` says otherwise."""
    now = int(time.time())
    claims = {"iss": payload.pop("iss"), "sub": payload.pop("sub", None), "aud": AUDIENCE, "iat": now, "exp": now + 3600, "uid": "forged"}
    claims["sub"] = claims["sub"] or claims["iss"]
    claims.update(payload)
    claims = {name: value for name, value in claims.items() if value is not None}
    header = header or {}
    algorithm = header.pop("alg", "RS256")
    if algorithm == "none":
        return jwt.encode(claims, None, algorithm="none", headers=header)
    return jwt.encode(claims, private_key, algorithm=algorithm, headers=header)


@pytest.fixture(params=STORES)
def refusing(start_latchkey, request, tmp_path):
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other_public = other.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    # A service account of another project, whose key Latchkey knows: its tokens are Firebase's mismatch.
    foreign = {"email": "robot@other-project.iam.gserviceaccount.com", "keys": [{"id": "foreign", "pem": other_public}]}
    return (*make_server(start_latchkey, request, tmp_path, extra_accounts=[foreign]), other)


def test_every_token_the_admin_sdks_would_not_mint_is_refused_and_nothing_is_written(refusing, admin_app):
    server, credential, entry, other = refusing
    fields = json.loads(credential.read_text())
    key, kid, email = fields["private_key"], fields["private_key_id"], fields["client_email"]
    other_pem = other.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    now = int(time.time())
    cases = {
        "unsigned": (forge(key, {"alg": "none"}, iss=email), "INVALID_CUSTOM_TOKEN"),
        "HS256": (forge("a-shared-secret-of-at-least-32-bytes!!", {"alg": "HS256", "kid": kid}, iss=email), "INVALID_CUSTOM_TOKEN"),
        "unknown key": (forge(other_pem, {"kid": kid}, iss=email), "INVALID_CUSTOM_TOKEN"),
        "unknown service account": (forge(key, {"kid": kid}, iss="stranger@example.com"), "INVALID_CUSTOM_TOKEN"),
        "sub not the account": (forge(key, {"kid": kid}, iss=email, sub="someone@example.com"), "INVALID_CUSTOM_TOKEN"),
        "another project": (forge(other_pem, {"kid": "foreign"}, iss="robot@other-project.iam.gserviceaccount.com"), "CREDENTIAL_MISMATCH"),
        "wrong aud": (forge(key, {"kid": kid}, iss=email, aud=PROJECT_ID), "INVALID_CUSTOM_TOKEN"),
        "expired": (forge(key, {"kid": kid}, iss=email, iat=now - 7200, exp=now - 3600), "INVALID_CUSTOM_TOKEN"),
        "over an hour": (forge(key, {"kid": kid}, iss=email, iat=now, exp=now + 3601), "INVALID_CUSTOM_TOKEN"),
        "no uid": (forge(key, {"kid": kid}, iss=email, uid=None), "MISSING_IDENTIFIER"),
        "uid too long": (forge(key, {"kid": kid}, iss=email, uid="u" * 129), "INVALID_CUSTOM_TOKEN"),
        "claims not an object": (forge(key, {"kid": kid}, iss=email, claims=["admin"]), "INVALID_CLAIMS"),
        "reserved claim": (forge(key, {"kid": kid}, iss=email, claims={"firebase": {}}), "FORBIDDEN_CLAIM"),
        "a tenant": (forge(key, {"kid": kid}, iss=email, tenant_id="tenant-1"), "TENANT_ID_MISMATCH"),
        "not a JWT": ("not-a-token", "INVALID_CUSTOM_TOKEN"),
        "missing": ("", "MISSING_CUSTOM_TOKEN"),
    }
    for name, (token, code) in cases.items():
        response = sign_in(server, token)
        assert response.status_code == 400, (name, response.text)
        assert error_message(response).split(" : ")[0] == code, (name, response.text)
    # The same key, well formed: the refusals above were for what they changed, not for the key.
    assert sign_in(server, forge(key, {"kid": kid}, iss=email, uid="fine")).status_code == 200
    app = admin_app(server)
    assert [user.uid for user in auth.list_users(app=app).iterate_all()] == ["fine"]


@pytest.mark.parametrize("signed", ["sqlite"], indirect=True)
def test_the_swift_client_signs_in_with_a_custom_token(monkeypatch, signed, tmp_path):
    server, credential, _ = signed
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    token = mint(credential, "swift-user", {"plan": "pro"})
    process = subprocess.run(
        [str(SIGNIN), "--service", server.url, "--api-key", API_KEY, "--session", str(tmp_path / "session.json"), "--custom-token"],
        input=token + "\n", capture_output=True, text=True, timeout=TIMEOUT)
    assert process.returncode == 0, process.stderr
    assert "Signed in as swift-user." in process.stdout, process.stdout
    claims = json.loads(process.stdout[process.stdout.index("{"):])
    assert claims["firebase"]["sign_in_provider"] == "custom" and claims["plan"] == "pro"
    assert token not in process.stdout + process.stderr


@pytest.mark.parametrize("mode", ["development", "production"])
def test_unsigned_emulator_tokens_sign_in_in_development_mode_only(start_latchkey, admin_app, mode):
    server = start_latchkey(mode=mode, adminTokens=["owner"])
    app = admin_app(server)  # emulator mode: the Admin SDK mints unsigned tokens, as for Firebase's emulator
    token = auth.create_custom_token("emulated", {"beta": True}, app=app).decode()
    assert jwt.get_unverified_header(token)["alg"] == "none"
    response = sign_in(server, token)
    if mode == "development":
        assert response.status_code == 200, response.text
        assert jwt.decode(response.json()["idToken"], options={"verify_signature": False})["beta"] is True
        assert "unsigned emulator tokens (development mode)" in server.logs()
    else:
        assert error_message(response).startswith("INVALID_CUSTOM_TOKEN : Unsigned custom tokens are accepted in development mode only")
        assert "unsigned" not in server.logs()


@pytest.mark.parametrize("signed", ["postgres"], indirect=True)
def test_concurrent_first_sign_ins_of_one_uid_make_one_account(monkeypatch, signed):
    """On PostgreSQL, first sign-ins of one new uid race to create it; the losers sign in to the winner's account."""
    server, credential, _ = signed
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    for round in range(5):
        token = mint(credential, f"racer-{round}")
        with ThreadPoolExecutor(max_workers=8) as pool:
            answers = list(pool.map(lambda _: sign_in(server, token), range(8)))
        assert [answer.status_code for answer in answers] == [200] * 8, [answer.text for answer in answers]
        assert sorted(answer.json()["isNewUser"] for answer in answers) == [False] * 7 + [True]


def test_keys_published_at_a_url_are_fetched_once_and_verify(start_latchkey):
    """A Google service account kept by its x509 metadata URL, and another by a JWKS, both fetched and cached."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "robot")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1)).sign(key, hashes.SHA256()))
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    documents = {"/x509": {"google-kid": certificate.public_bytes(serialization.Encoding.PEM).decode()},
                 "/jwks": {"keys": [{**jwk, "kid": "jwks-kid", "use": "sig", "alg": "RS256"}]}}
    keys = JSONStub(lambda method, path, fields: (200, documents[path], {"Cache-Control": "public, max-age=3600"}))
    google, other = f"robot@{PROJECT_ID}.iam.gserviceaccount.com", "jwks-robot@example.com"
    server = start_latchkey(serviceAccounts=[{"email": google, "keysURL": keys.url + "/x509"},
                                             {"email": other, "keysURL": keys.url + "/jwks"}])
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    for round in range(2):
        for email, kid in [(google, "google-kid"), (other, "jwks-kid")]:
            response = sign_in(server, forge(pem, {"kid": kid}, iss=email, uid=f"{kid}-{round}"))
            assert response.status_code == 200, response.text
    assert error_message(sign_in(server, forge(pem, {"kid": "google-kid"}, iss=other))).startswith("INVALID_CUSTOM_TOKEN")
    fetched = [path for path, _ in keys.calls]
    assert sorted(set(fetched)) == ["/jwks", "/x509"] and fetched.count("/x509") == 1, fetched
    keys.stop()


def test_keys_that_cannot_be_fetched_are_asked_for_at_most_once_in_ten_seconds(start_latchkey):
    """A key URL that answers an error body (strings, like Google's x509 metadata) holds no key: it is not kept, and
    tokens naming its account are refused without a fetch each, whatever their `kid`."""
    broken = JSONStub(lambda method, path, fields: (200, {"error": "internal", "error_description": "try later"}))
    server = start_latchkey(serviceAccounts=[{"email": "robot@example.com", "keysURL": broken.url + "/x509"}])
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    for kid in ["a", "b", "c", None]:
        refused = sign_in(server, forge(pem, {"kid": kid} if kid else {}, iss="robot@example.com"))
        assert error_message(refused) == "INVALID_CUSTOM_TOKEN : The service account's keys could not be fetched.", refused.text
    assert len(broken.calls) == 1, broken.calls
    broken.stop()
