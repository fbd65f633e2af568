"""Latchkey on PostgreSQL: several instances on one database, and a database that goes away and comes back.

A throwaway PostgreSQL server runs in a temporary directory on a loopback port (scripts/postgres), as the
unprivileged user PostgreSQL insists on; every test gets a database of its own.
"""

import shutil
import subprocess
import tempfile
import time
import uuid

import jwt
import pytest
import requests

from harness import HTTP_TIMEOUT, PROJECT_ID, REPO, code_of, complete, error_message, free_port, post, read_link, refresh, send

SECRET = "e2e-shared-server-secret-0123456789abcdef"
# Behind one load balancer, every instance is the same issuer.
PUBLIC_URL = "http://auth.e2e.test"


@pytest.fixture(scope="module")
def postgres_server():
    directory = tempfile.mkdtemp(prefix="latchkey-pg-")
    port = free_port()
    subprocess.run([str(REPO / "scripts" / "postgres"), "start", directory, str(port)], check=True, timeout=120)
    yield port, directory
    subprocess.run([str(REPO / "scripts" / "postgres"), "stop", directory], check=False, timeout=60)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def database(postgres_server):
    """A fresh database's `storage` settings."""
    port, _ = postgres_server
    name = "e2e_" + uuid.uuid4().hex
    subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "latchkey", "-d", "postgres", "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True, timeout=30)
    return {"kind": "postgres", "postgres": {"host": "127.0.0.1", "port": port, "database": name, "user": "latchkey", "tls": "disable",
                                             "connectTimeoutSeconds": 2}}


def start_instances(start_latchkey, tmp_path, storage, count, **config):
    """`count` instances on one database, sharing what every instance must share: the server secret, the signing
    keys and (for the file transport these tests read) the mail folder."""
    shared = tmp_path / "shared"
    (shared / "keys").mkdir(parents=True, exist_ok=True)
    settings = {
        "publicURL": PUBLIC_URL,
        "storage": storage,
        "security": {"serverSecret": SECRET},
        "tokens": {"keyDirectory": str(shared / "keys")},
        "mail": {"transport": "file", "file": {"directory": str(shared / "outbox")}, "from": "no-reply@localhost"},
        **config,
    }
    instances = [start_latchkey(f"instance-{index}", **settings) for index in range(count)]
    for instance in instances:
        instance.outbox = shared / "outbox"
    return instances


def test_a_link_sent_through_one_instance_completes_through_another_and_refreshes_through_a_third(start_latchkey, tmp_path, database):
    first, second, third = start_instances(start_latchkey, tmp_path, database, 3)
    send(first, "alice@example.com")
    code = code_of(read_link(first, 1))
    signed_in = complete(second, "alice@example.com", code)
    assert signed_in.status_code == 200, signed_in.text
    assert error_message(complete(third, "alice@example.com", code)) == "INVALID_OOB_CODE"
    refreshed = refresh(third, signed_in.json()["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    key_sets = [requests.get(instance.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT).json() for instance in (first, second, third)]
    assert key_sets[0] == key_sets[1] == key_sets[2]
    token = refreshed.json()["id_token"]
    key = next(key for key in key_sets[0]["keys"] if key["kid"] == jwt.get_unverified_header(token)["kid"])
    claims = jwt.decode(token, jwt.PyJWK(key).key, algorithms=["RS256"], audience=PROJECT_ID, issuer=PUBLIC_URL)
    assert claims["email"] == "alice@example.com" and claims["user_id"] == signed_in.json()["localId"]


def test_the_per_address_limit_holds_whichever_instance_is_asked(start_latchkey, tmp_path, database):
    limits = {"sendPerEmail": [{"limit": 1, "windowSeconds": 60}], "sendPerIP": [], "completePerIP": [], "signUpPerIP": [],
              "passwordPerIP": [], "passwordPerEmail": [], "apiKeyRequestsPerMinute": 0}
    first, second = start_instances(start_latchkey, tmp_path, database, 2, rateLimits=limits, emailEnumerationProtection=False)
    send(first, "bob@example.com")
    refused = post(second, "accounts:sendOobCode", json={
        "requestType": "EMAIL_SIGNIN", "email": "bob@example.com", "continueUrl": "http://localhost/finish"})
    assert refused.status_code == 400 and error_message(refused) == "TOO_MANY_ATTEMPTS_TRY_LATER", refused.text


def test_a_database_outage_is_a_clean_503_and_the_instance_recovers_by_itself(start_latchkey, tmp_path, database, postgres_server):
    port, directory = postgres_server
    (server,) = start_instances(start_latchkey, tmp_path, database, 1)
    assert requests.get(server.url + "/readyz", timeout=HTTP_TIMEOUT).status_code == 200
    subprocess.run([str(REPO / "scripts" / "postgres"), "stop", directory], check=True, timeout=60)
    try:
        assert requests.get(server.url + "/readyz", timeout=HTTP_TIMEOUT).status_code == 503
        during = post(server, "accounts:sendOobCode", json={
            "requestType": "EMAIL_SIGNIN", "email": "carol@example.com", "continueUrl": "http://localhost/finish"})
        assert during.status_code == 503 and during.json()["error"]["status"] == "UNAVAILABLE", during.text
    finally:
        subprocess.run([str(REPO / "scripts" / "postgres"), "restart", directory, str(port)], check=True, timeout=120)
    deadline = time.monotonic() + 30
    while requests.get(server.url + "/readyz", timeout=HTTP_TIMEOUT).status_code != 200:
        assert time.monotonic() < deadline, server.logs()
        time.sleep(0.2)
    send(server, "carol@example.com")
    assert complete(server, "carol@example.com", code_of(read_link(server, 1))).status_code == 200
    assert server.process.poll() is None
