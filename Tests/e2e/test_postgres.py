"""Latchkey on PostgreSQL: several instances on one database, and a database that goes away and comes back.

A throwaway PostgreSQL server runs in a temporary directory on a loopback port (conftest's `postgres_server`);
every test gets a database of its own (`database`), and `start_instances` starts instances on it.
"""

import subprocess
import time

import jwt
import requests

from harness import HTTP_TIMEOUT, PROJECT_ID, REPO, SHARED_PUBLIC_URL, code_of, complete, error_message, post, read_link, refresh, send


def test_a_link_sent_through_one_instance_completes_through_another_and_refreshes_through_a_third(start_instances):
    first, second, third = start_instances(3)
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
    claims = jwt.decode(token, jwt.PyJWK(key).key, algorithms=["RS256"], audience=PROJECT_ID, issuer=SHARED_PUBLIC_URL)
    assert claims["email"] == "alice@example.com" and claims["user_id"] == signed_in.json()["localId"]


def test_the_per_address_limit_holds_whichever_instance_is_asked(start_instances):
    limits = {"sendPerEmail": [{"limit": 1, "windowSeconds": 60}], "sendPerIP": [], "completePerIP": [], "signUpPerIP": [],
              "passwordPerIP": [], "passwordPerEmail": [], "apiKeyRequestsPerMinute": 0}
    first, second = start_instances(2, rateLimits=limits, emailEnumerationProtection=False)
    send(first, "bob@example.com")
    refused = post(second, "accounts:sendOobCode", json={
        "requestType": "EMAIL_SIGNIN", "email": "bob@example.com", "continueUrl": "http://localhost/finish"})
    assert refused.status_code == 400 and error_message(refused) == "TOO_MANY_ATTEMPTS_TRY_LATER", refused.text


def test_a_database_outage_is_a_clean_503_and_the_instance_recovers_by_itself(start_instances, postgres_server):
    port, directory = postgres_server
    (server,) = start_instances(1)
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
