"""Latchkey on PostgreSQL: several instances on one database, and a database that goes away and comes back.

A throwaway PostgreSQL server runs in a temporary directory on a loopback port (conftest's `postgres_server`);
every test gets a database of its own (`database`), and `start_instances` starts instances on it.
"""

import collections
import email
import email.policy
import itertools
import json
import subprocess
import threading
import time
import uuid
from pathlib import Path

import jwt
import requests

from harness import (API_KEY, HTTP_TIMEOUT, PROJECT_ID, REPO, SHARED_PUBLIC_URL, code_of, command, complete, error_message, link_request,
                     post, read_link, refresh, send)


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


# --- A restart of PostgreSQL during traffic ------------------------------------------------------

CLIENTS = 6  # threads sending continuously, each to addresses of its own, round robin over the instances
OUTAGE = 3  # seconds PostgreSQL stays away, at least


class Traffic:
    """Client threads asking the instances for sign-in links to distinct addresses until told to stop.

    Each answer is recorded as (started, finished, instance index, address, status, body), or with the status
    None and the exception's text when there was no answer: a reset connection or a timeout."""

    def __init__(self, instances):
        self.instances = instances
        self.answers = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.run, args=(client,), daemon=True) for client in range(CLIENTS)]

    def run(self, client):
        session = requests.Session()
        for number in itertools.count():
            if self.stopping.is_set():
                return
            index = (client + number) % len(self.instances)
            address = f"client{client}-{number}@example.com"
            started = time.monotonic()
            try:
                response = session.post(f"{self.instances[index].url}/v1/accounts:sendOobCode", params={"key": API_KEY},
                                        json=link_request(address), timeout=HTTP_TIMEOUT)
                status, body = response.status_code, response.text
            except requests.RequestException as error:
                status, body = None, repr(error)
                session = requests.Session()
            with self.lock:
                self.answers.append((started, time.monotonic(), index, address, status, body))

    def successes_since(self, moment):
        """How many requests each instance answered 200 among those asked after `moment`."""
        with self.lock:
            answers = list(self.answers)
        return [sum(1 for started, _, i, _, status, _ in answers if i == index and started > moment and status == 200)
                for index in range(len(self.instances))]

    def wait_for(self, condition, timeout, what):
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"{what} within {timeout} s: {self.summary()}"
            assert all(thread.is_alive() for thread in self.threads), "a client thread died"
            time.sleep(0.1)

    def summary(self):
        with self.lock:
            answers = list(self.answers)
        return collections.Counter(status for *_, status, _ in answers)


def letters(folder, known):
    """Recipient by file of every message in the mail folder, reading only the files not in `known` yet."""
    for path in folder.glob("*.eml"):
        if path.name not in known:
            known[path.name] = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)["To"]
    return known


def test_a_restart_of_postgresql_during_traffic_fails_requests_cleanly_and_loses_nothing_acknowledged(
        start_instances, postgres_server, tmp_path):
    """Three instances on one PostgreSQL, six clients asking them for links to new addresses without a pause, and
    PostgreSQL stopped (immediately, as a crash would) and started again under them. Every request gets an answer:
    a 200, or during the outage a 503 UNAVAILABLE in Google's envelope (no 500, no reset connection, no hang). No
    instance dies, every instance is ready again by itself and serves the next requests, and every link that was
    acknowledged is stored: its letter goes out, and its code signs in."""
    port, directory = postgres_server
    folder = tmp_path / "shared" / "outbox"  # start_instances' shared mail folder
    # A message whose claim or delivery record the outage cut off goes again once its lease ends: keep that short.
    mail = {"transport": "file", "file": {"directory": str(folder)}, "from": "no-reply@localhost", "retry": {"leaseSeconds": 5}}
    instances = start_instances(3, mail=mail)
    traffic = Traffic(instances)
    for thread in traffic.threads:
        thread.start()
    restarted = False
    try:
        began = time.monotonic()
        traffic.wait_for(lambda: min(traffic.successes_since(began)) >= 3, 30, "every instance answering before the outage")

        stopped_at = time.monotonic()
        subprocess.run([str(REPO / "scripts" / "postgres"), "stop", directory], check=True, timeout=60)
        # Away for a few seconds, and long enough that every instance turned requests away meanwhile.
        time.sleep(OUTAGE)

        def refused_by_all():
            with traffic.lock:
                return {index for started, _, index, _, status, _ in traffic.answers if started > stopped_at and status == 503} == {0, 1, 2}
        traffic.wait_for(refused_by_all, 20, "every instance answering 503 during the outage")
        subprocess.run([str(REPO / "scripts" / "postgres"), "restart", directory, str(port)], check=True, timeout=120)
        restarted = True

        # Ready again by itself, each of them, while the clients keep asking.
        waiting, deadline = set(range(len(instances))), time.monotonic() + 30
        while waiting:
            waiting -= {index for index in waiting
                        if requests.get(instances[index].url + "/readyz", timeout=HTTP_TIMEOUT).status_code == 200}
            assert time.monotonic() < deadline, f"instances {sorted(waiting)} not ready 30 s after PostgreSQL came back"
            time.sleep(0.1)
        recovered_at = time.monotonic()
        traffic.wait_for(lambda: min(traffic.successes_since(recovered_at)) >= 5, 30, "every instance serving after recovery")
    finally:
        traffic.stopping.set()
        for thread in traffic.threads:
            thread.join(timeout=2 * HTTP_TIMEOUT)
        if not restarted:
            subprocess.run([str(REPO / "scripts" / "postgres"), "restart", directory, str(port)], check=False, timeout=120)
    assert not any(thread.is_alive() for thread in traffic.threads), "a client is still waiting for an answer"

    answers = traffic.answers
    unanswered = [answer for answer in answers if answer[4] is None]
    assert not unanswered, f"{len(unanswered)} requests without an answer, first: {unanswered[0]}"
    for _, _, index, address, status, body in answers:
        if status == 200:
            assert json.loads(body) == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": address}, body
        else:
            assert status == 503, f"instance {index} answered {status}: {body}\n{instances[index].logs()[-3000:]}"
            error = json.loads(body)["error"]
            assert error["code"] == 503 and error["status"] == "UNAVAILABLE" and isinstance(error["message"], str), body
    late = [answer for answer in answers if answer[0] > recovered_at and answer[4] != 200]
    assert not late, f"{len(late)} requests after recovery failed, first: {late[0]}"
    assert all(instance.process.poll() is None for instance in instances), "an instance exited"
    statuses = collections.Counter(answer[4] for answer in answers)
    assert statuses[503] > 0 and statuses[200] > 0, statuses

    # Every acknowledged link goes out (once the leases the outage left behind have run out, at worst).
    acknowledged = {answer[3]: answer for answer in answers if answer[4] == 200}
    known, deadline = {}, time.monotonic() + 30
    while missing := set(acknowledged) - set(letters(folder, known).values()):
        assert time.monotonic() < deadline, f"{len(missing)} acknowledged links never sent, e.g. {sorted(missing)[:5]}"
        time.sleep(0.5)
    # ...and its code is stored: those acknowledged closest to the outage, on either side, and some after it, sign in.
    by_address = {address: name for name, address in known.items()}
    finished = sorted(acknowledged.values(), key=lambda answer: answer[1])
    before = [answer for answer in finished if answer[0] < recovered_at][-6:]
    after = [answer for answer in finished if answer[0] > recovered_at][:6]
    for number, (_, _, _, address, _, _) in enumerate(before + after):
        link = read_link(instances[0], int(by_address[address].removesuffix(".eml")))
        signed_in = complete(instances[number % len(instances)], address, code_of(link))
        assert signed_in.status_code == 200, (address, signed_in.text)
    print(f"{dict(statuses)} over {len(instances)} instances; {len(acknowledged)} acknowledged links all sent")


def documented_database_setup(role, password):
    """The SQL docs/scaling.md gives for Latchkey's role and database, for `role` (its name stands for both) and
    `password`."""
    scaling = (REPO / "docs" / "scaling.md").read_text()
    block = scaling.split("<!-- postgres-setup -->", 1)[1].split("```sql", 1)[1].split("```", 1)[0]
    return [statement.strip().replace("latchkey", role).replace("a long random password", password)
            for statement in block.split(";") if statement.strip()]


def test_the_documented_role_and_database_are_enough_and_a_refused_password_is_named_at_once(
        start_latchkey, postgres_server, monkeypatch):
    port, directory = postgres_server
    role = "lk_" + uuid.uuid4().hex[:12]
    psql = ["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "latchkey", "-d", "postgres", "-v", "ON_ERROR_STOP=1"]
    for statement in documented_database_setup(role, "right password"):
        subprocess.run([*psql, "-c", statement], check=True, capture_output=True, timeout=30)
    # The test server trusts every local login; this role must show its password, as in a real deployment.
    hba = Path(directory) / "data" / "pg_hba.conf"
    hba.write_text(f"host all {role} 127.0.0.1/32 scram-sha-256\n" + hba.read_text())
    subprocess.run([*psql, "-c", "SELECT pg_reload_conf()"], check=True, capture_output=True, timeout=30)

    server = start_latchkey(started=False, storage={"kind": "postgres", "postgres": {
        "host": "127.0.0.1", "port": port, "database": role, "user": role, "passwordEnv": "LK_PG_PASSWORD", "tls": "disable"}})
    monkeypatch.setenv("LK_PG_PASSWORD", "wrong password")
    started = time.monotonic()
    refused = command(server, "migrate")
    assert refused.returncode == 1, refused
    assert f'refused user "{role}" with the password in LK_PG_PASSWORD (storage.postgres.passwordEnv)' in refused.stderr, refused.stderr
    assert time.monotonic() - started < 5  # not after the pool's retries, at its deadline

    monkeypatch.setenv("LK_PG_PASSWORD", "right password")
    server.start()  # migrates, as the role docs/scaling.md creates
    send(server, "alice@example.com")
    assert complete(server, "alice@example.com", code_of(read_link(server, 1))).status_code == 200
