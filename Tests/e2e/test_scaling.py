"""Scaling out (#16), end to end: three Latchkey instances on one PostgreSQL database behind Debian's nginx running
deploy/nginx-several.conf (round robin, passive health checks).

Which instance served a request is read from the instances' own logs: nginx forwards its request id, returns it
as `X-Request-Id`, and exactly one instance logs a `Request` line with it. Clients connect from loopback addresses
of their own (nginx's flood guard counts per address), and the instances trust nginx's X-Forwarded-For.

The instances share no key directory: the signing keys are in the database, sealed with the shared server secret.
"""

import collections
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import jwt
import pytest
import requests

from harness import (API_KEY, HTTP_TIMEOUT, REPO, code_of, command, error_message, link_request, outbox, read_email, read_link,
                     send, verify)
from nginx import Client, Nginx, find_request_log, request_log
from smtp import smtp_mail

EXAMPLE = REPO / "deploy" / "nginx-several.conf"
INSTANCES = 3


@pytest.fixture
def cluster(start_instances, monkeypatch):
    """Starts three instances on one fresh database behind nginx (the public URL: nginx's)."""
    started = []

    def start(changes=(), **config):
        nginx = Nginx(EXAMPLE)
        started.append(nginx)
        instances = start_instances(INSTANCES, publicURL=nginx.url, server={"trustedProxies": ["127.0.0.1/32"]}, **config)
        nginx.start(*(instance.port for instance in instances), changes=changes)
        # For the harness's own requests (JWKS, discovery), which go through nginx too.
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(nginx.certificate))
        return nginx, instances

    yield start
    for nginx in started:
        nginx.remove()


def served_by(instances, response):
    """The index of the one instance that logged the request nginx answered with `response`."""
    request_id = response.headers["X-Request-Id"]
    deadline = time.monotonic() + 5
    while True:
        found = [index for index, instance in enumerate(instances) if find_request_log(instance, request_id)]
        if found:
            assert len(found) == 1, f"request {request_id} logged by instances {found}"
            return found[0]
        assert time.monotonic() < deadline, f"no instance logged request {request_id} ({response.status_code} {response.text})"
        time.sleep(0.05)


def mail_count(directory):
    """How many messages are in a mail folder (the file transport's, or the SMTP sink's), without parsing them."""
    return len(list(directory.glob("*.eml")))


# --- Through nginx ---------------------------------------------------------------------------


def test_a_link_sent_through_one_instance_completes_through_another_and_refreshes_through_the_third(cluster):
    nginx, instances = cluster()
    client = Client("127.0.0.2", nginx)

    sent = client.send(nginx.url, "alice@example.com")
    link = read_link(instances[0], 1)
    assert link.startswith(nginx.url + "/__/auth/action?"), "links are built from the one public URL, nginx's"
    code = code_of(link)
    signed_in = client.post(nginx.url, "accounts:signInWithEmailLink", json={"email": "alice@example.com", "oobCode": code})
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()
    refreshed = client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": session["refreshToken"]})
    assert refreshed.status_code == 200, refreshed.text

    assert sorted(served_by(instances, response) for response in (sent, signed_in, refreshed)) == [0, 1, 2]
    # The token the third instance issued verifies against the JWKS nginx serves (from whichever instance).
    claims = verify(nginx, refreshed.json()["id_token"])
    assert claims["email"] == "alice@example.com" and claims["user_id"] == session["localId"]
    # Spent on one instance is spent on all: the code, asked of the next two, and the refresh token it rotated.
    replayed = [client.post(nginx.url, "accounts:signInWithEmailLink", json={"email": "alice@example.com", "oobCode": code})
                for _ in range(INSTANCES - 1)]
    replayed.append(client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": session["refreshToken"]}))
    assert [(response.status_code, error_message(response)) for response in replayed] == [
        (400, "INVALID_OOB_CODE"), (400, "INVALID_OOB_CODE"), (400, "INVALID_REFRESH_TOKEN")]
    assert sorted(served_by(instances, response) for response in replayed) == [0, 1, 2]


def test_every_instance_serves_the_same_jwks_and_issuer(cluster):
    nginx, instances = cluster()
    direct = [requests.get(instance.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT) for instance in instances]
    assert all(response.status_code == 200 for response in direct)
    key_set = direct[0].json()
    assert key_set["keys"] and all(response.json() == key_set for response in direct)

    client = Client("127.0.0.2", nginx)
    proxied = [client.session.get(nginx.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT) for _ in range(INSTANCES)]
    assert sorted(served_by(instances, response) for response in proxied) == [0, 1, 2]
    assert all(response.json() == key_set for response in proxied)
    discovery = client.session.get(nginx.url + "/.well-known/openid-configuration", timeout=HTTP_TIMEOUT).json()
    assert discovery["issuer"] == nginx.url and discovery["jwks_uri"] == nginx.url + "/.well-known/jwks.json"


def published_key_ids(instance):
    """The `kid`s `instance` itself publishes, asked directly rather than through nginx."""
    response = requests.get(instance.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT)
    assert response.status_code == 200, response.text
    return [key["kid"] for key in response.json()["keys"]]


def test_a_key_rotated_on_one_instance_is_published_by_all(cluster):
    """`latchkey keys rotate` beside one instance: every instance publishes the new key within seconds, and once
    `tokens.rotationDelaySeconds` is over the next ID token of any instance carries it, while tokens of the old key
    still verify everywhere."""
    delay = 2
    nginx, instances = cluster(tokens={"rotationDelaySeconds": delay})
    (old_key,) = published_key_ids(instances[0])
    client = Client("127.0.0.2", nginx)
    client.send(nginx.url, "alice@example.com")
    signed_in = client.post(nginx.url, "accounts:signInWithEmailLink",
                            json={"email": "alice@example.com", "oobCode": code_of(read_link(instances[0], 1))})
    assert signed_in.status_code == 200, signed_in.text
    old_token = signed_in.json()["idToken"]
    assert jwt.get_unverified_header(old_token)["kid"] == old_key

    rotated = command(instances[0], "keys", "rotate")
    rotated_at = time.monotonic()
    assert rotated.returncode == 0, rotated.stderr
    new_key = rotated.stdout.split()[3]
    assert f"added signing key {new_key} (RS256): published now, signs from" in rotated.stdout, rotated.stdout

    # Each instance reloads the keys from the database every two seconds.
    waiting = set(range(INSTANCES))
    while waiting:
        waiting -= {index for index in waiting if new_key in published_key_ids(instances[index])}
        assert time.monotonic() < rotated_at + 5, f"instances {sorted(waiting)} do not publish {new_key}"
        time.sleep(0.1)
    assert all(published_key_ids(instance) == [old_key, new_key] for instance in instances)

    time.sleep(max(0.0, rotated_at + delay - time.monotonic()))
    refresh_token, tokens = signed_in.json()["refreshToken"], []
    for _ in range(INSTANCES):
        refreshed = client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": refresh_token})
        assert refreshed.status_code == 200, refreshed.text
        refresh_token = refreshed.json()["refresh_token"]
        tokens.append((served_by(instances, refreshed), refreshed.json()["id_token"]))
    assert sorted(index for index, _ in tokens) == [0, 1, 2]
    assert [jwt.get_unverified_header(token)["kid"] for _, token in tokens] == [new_key] * INSTANCES
    assert all(verify(nginx, token)["email"] == "alice@example.com" for _, token in tokens)

    # The old key is retired, not gone: its token is still accepted by every instance, and still published.
    lookups = [client.post(nginx.url, "accounts:lookup", json={"idToken": old_token}) for _ in range(INSTANCES)]
    assert [response.status_code for response in lookups] == [200] * INSTANCES, [response.text for response in lookups]
    assert sorted(served_by(instances, response) for response in lookups) == [0, 1, 2]
    listing = command(instances[2], "keys", "list")
    assert listing.returncode == 0, listing.stderr
    states = {line.split("\t")[0]: line.split("\t")[4] for line in listing.stdout.splitlines()[1:]}
    assert states == {old_key: "retired", new_key: "active, signs new tokens"}, listing.stdout


def test_rate_limits_hold_whichever_instance_is_asked(cluster):
    limits = {"sendPerEmail": [{"limit": 1, "windowSeconds": 60}], "sendPerIP": [{"limit": 3, "windowSeconds": 60}],
              "completePerIP": [], "signUpPerIP": [], "passwordPerIP": [], "passwordPerEmail": [], "apiKeyRequestsPerMinute": 0}
    nginx, instances = cluster(rateLimits=limits, emailEnumerationProtection=False)

    # One address, asked of each instance in turn: the first sends, the others refuse.
    client = Client("127.0.0.2", nginx)
    answers = [client.post(nginx.url, "accounts:sendOobCode", json=link_request("bob@example.com")) for _ in range(INSTANCES)]
    assert [response.status_code for response in answers] == [200, 400, 400], [response.text for response in answers]
    assert {error_message(response) for response in answers[1:]} == {"TOO_MANY_ATTEMPTS_TRY_LATER"}
    assert sorted(served_by(instances, response) for response in answers) == [0, 1, 2]

    # One client address (as nginx forwarded it), three requests spread over the three instances, then a fourth:
    # each instance saw at most two of them, yet the fourth is refused.
    other = Client("127.0.0.3", nginx)
    answers = [other.post(nginx.url, "accounts:sendOobCode", json=link_request(f"carol{n}@example.com")) for n in range(4)]
    assert [response.status_code for response in answers] == [200, 200, 200, 400], [response.text for response in answers]
    assert error_message(answers[3]) == "TOO_MANY_ATTEMPTS_TRY_LATER"
    assert sorted(served_by(instances, response) for response in answers[:3]) == [0, 1, 2]
    refused_by = instances[served_by(instances, answers[3])]
    assert request_log(refused_by, answers[3].headers["X-Request-Id"])["ip"] == "127.0.0.3", "counted as the client nginx saw"

    # Four links went out, one of them bob's.
    recipients = [read_email(instances[0], number)["To"] for number in range(1, 5)]
    assert sorted(recipients) == ["bob@example.com", "carol0@example.com", "carol1@example.com", "carol2@example.com"]


def test_fifty_concurrent_completions_of_one_code_over_three_instances_give_one_session(cluster):
    nginx, instances = cluster()
    Client("127.0.0.2", nginx).send(nginx.url, "dora@example.com")
    code = code_of(read_link(instances[0], 1))

    # Fifty clients, each from its own address (so nginx's flood guard stays out of it), each connected and
    # through the TLS handshake before they all ask at once.
    clients = [Client(f"127.0.1.{n + 1}", nginx) for n in range(50)]
    for client in clients:
        assert client.session.get(nginx.url + "/healthz", timeout=HTTP_TIMEOUT).status_code == 200
    start = threading.Barrier(len(clients))

    def attempt(client):
        start.wait()
        return client.post(nginx.url, "accounts:signInWithEmailLink", json={"email": "dora@example.com", "oobCode": code})

    with ThreadPoolExecutor(len(clients)) as pool:
        answers = list(pool.map(attempt, clients))
    statuses = collections.Counter(response.status_code for response in answers)
    assert statuses == {200: 1, 400: 49}, [response.text for response in answers if response.status_code not in (200, 400)]
    assert {error_message(response) for response in answers if response.status_code == 400} == {"INVALID_OOB_CODE"}
    assert {served_by(instances, response) for response in answers} == {0, 1, 2}, "the completions did not reach all three"


def test_with_one_instance_stopped_the_other_two_keep_serving_through_nginx(cluster):
    nginx, instances = cluster()
    instances[2].stop()
    addresses = [f"erin{n}@example.com" for n in range(6)]
    client = Client("127.0.0.2", nginx)

    sent = [client.send(nginx.url, address) for address in addresses]
    keys = [client.session.get(nginx.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT) for _ in range(INSTANCES)]
    assert [response.status_code for response in keys] == [200] * INSTANCES
    links = {read_email(instances[0], number)["To"]: read_link(instances[0], number) for number in range(1, len(addresses) + 1)}
    assert sorted(links) == addresses, "one link per send: no POST went out twice"
    completed = [client.post(nginx.url, "accounts:signInWithEmailLink", json={"email": address, "oobCode": code_of(links[address])})
                 for address in addresses]
    assert [response.status_code for response in completed] == [200] * len(addresses), [response.text for response in completed]

    assert {served_by(instances, response) for response in sent + keys + completed} == {0, 1}
    # nginx did try the stopped instance, and moved on: the refused connection was never sent a request.
    stopped = f"127.0.0.1:{instances[2].port}"
    assert "(111: Connection refused) while connecting to upstream" in nginx.error_log()
    assert any(stopped + ", " in line for line in nginx.access_log().splitlines() if " 200 " in line), nginx.access_log()
    assert mail_count(instances[0].outbox) == len(addresses)


def test_a_get_goes_to_the_next_instance_but_a_post_an_instance_was_sent_never_does(cluster):
    """An instance that hangs (SIGSTOP: the kernel still accepts connections and requests): a GET that times out
    there is answered by another instance; a sendOobCode that times out there is answered 504 and not sent again,
    and once the instance resumes it does send that link, once. A retry would have sent a second one."""
    nginx, instances = cluster(changes=[("proxy_read_timeout 30s;", "proxy_read_timeout 2s;", 1)])
    hung = instances[2]
    client = Client("127.0.0.2", nginx)
    hung.process.send_signal(signal.SIGSTOP)
    try:
        keys = [client.session.get(nginx.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT) for _ in range(INSTANCES)]
        assert [response.status_code for response in keys] == [200] * INSTANCES
        assert {served_by(instances, response) for response in keys} <= {0, 1}
        sends = []
        while not any(response.status_code == 504 for response in sends):
            assert len(sends) < 3 * INSTANCES, [response.status_code for response in sends]
            sends.append(client.post(nginx.url, "accounts:sendOobCode", json=link_request(f"frank{len(sends)}@example.com")))
        assert [response.status_code for response in sends[:-1]] == [200] * (len(sends) - 1)
    finally:
        hung.process.send_signal(signal.SIGCONT)
    # The hung instance answers the request it had been sent, to nobody; its link goes out, and no other.
    assert served_by(instances, sends[-1]) == 2
    recipients = sorted(read_email(hung, number)["To"] for number in range(1, len(sends) + 1))
    assert recipients == sorted(f"frank{n}@example.com" for n in range(len(sends)))
    time.sleep(0.5)
    assert mail_count(hung.outbox) == len(sends)
    assert "upstream timed out" in nginx.error_log()


# --- What an operator runs -----------------------------------------------------------------------


def test_latchkey_outbox_with_any_instance_s_configuration_lists_every_instance_s_mail(start_instances, tmp_path):
    """With `mail.workers` 0 nothing is delivered: the three links wait in the shared outbox, one from each instance."""
    mail = {"transport": "file", "file": {"directory": str(tmp_path / "outbox")}, "from": "no-reply@localhost", "workers": 0}
    instances = start_instances(INSTANCES, mail=mail)
    for instance, address in zip(instances, ["alice@example.com", "bob@example.com", "carol@example.com"]):
        send(instance, address)
    for instance in instances:
        listing = outbox(instance)
        assert listing.count("pending") == 3, listing
        assert all(f"{initial}***@example.com" in listing for initial in "abc"), listing


# --- Mail delivery ---------------------------------------------------------------------------

MESSAGES = 1000
WORKERS = 4  # per instance, SMTP connections kept open
REPLY_DELAY = 0.05  # seconds the sink waits between storing a message and its 250
LEASE = smtp_mail(0)["retry"]["leaseSeconds"]  # how long a claimed message is held before another instance may take it


def wait_for_mail(sink, count, timeout):
    """How many messages the sink holds once it holds `count` (counted, not parsed: there are a thousand)."""
    deadline = time.monotonic() + timeout
    while (arrived := mail_count(sink.directory)) < count:
        assert time.monotonic() < deadline, f"{arrived} of {count} messages after {timeout} s"
        time.sleep(0.1)
    return arrived


def test_a_kill_9_during_delivery_loses_no_message_and_repeats_only_those_in_flight(start_instances, start_sink):
    """A thousand links are asked for, spread over the three instances, which deliver them through one SMTP server.
    A third of the way through delivery one instance is killed (clients then ask the other two, and ask again what
    it never answered). Every link arrives; the only ones that arrive twice are those it was sending at the kill."""
    # The sink stores each message, then waits before its 250: a kill lands with messages stored but unacknowledged.
    sink = start_sink("--reply-delay", str(REPLY_DELAY))
    instances = start_instances(INSTANCES, mail={**smtp_mail(sink.port), "workers": WORKERS})
    victim, survivors = instances[0], instances[1:]
    recipients = [f"user{n}@example.com" for n in range(MESSAGES)]
    killed = threading.Event()
    cut = set()  # addresses whose request the kill cut off: the client asked again, so two links may go out
    sessions = threading.local()

    def send(numbered):
        number, address = numbered
        if not hasattr(sessions, "session"):
            sessions.session = requests.Session()
        while True:
            targets = survivors if killed.is_set() else instances
            target = targets[number % len(targets)]
            try:
                response = sessions.session.post(f"{target.url}/v1/accounts:sendOobCode", params={"key": API_KEY},
                                                 json=link_request(address), timeout=HTTP_TIMEOUT)
                return response.status_code, response.text
            except requests.ConnectionError:
                if target is not victim or not killed.is_set():
                    raise
                cut.add(address)

    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        answers = pool.map(send, enumerate(recipients))
        wait_for_mail(sink, MESSAGES // 3, timeout=60)
        killed.set()
        victim.process.send_signal(signal.SIGKILL)
        victim.process.wait()
        victim.process = None
        killed_at = time.monotonic()
        delivered_before_kill = mail_count(sink.directory)
        answers = list(answers)
    assert [status for status, _ in answers] == [200] * MESSAGES, [answer for answer in answers if answer[0] != 200][:3]
    assert "Email delivered" in victim.logs(), "the killed instance was not delivering"
    sent_in = time.monotonic() - started

    # The survivors deliver the rest, and, once its lease has run out, what the killed instance held.
    arrived = wait_for_mail(sink, MESSAGES, timeout=60)
    # A count of files reaches the thousand early when messages in flight at the kill came twice: wait (bounded) for every
    # recipient, then for the count to settle.
    deadline = time.monotonic() + 60
    while {envelope["rcpt_tos"][0] for envelope, _ in sink.messages()} != set(recipients) and time.monotonic() < deadline:
        time.sleep(1)
    while time.monotonic() < killed_at + LEASE + 2 or mail_count(sink.directory) != arrived:
        arrived = mail_count(sink.directory)
        time.sleep(0.5)
    messages = sink.messages()
    print(f"{delivered_before_kill} delivered at the kill, {killed_at - started:.1f} s after the first send; all sent in "
          f"{sent_in:.1f} s, {len(cut)} asked again; {len(messages)} delivered in {time.monotonic() - started:.1f} s")
    by_id = collections.defaultdict(list)  # Message-ID → (arrival, recipient) of each copy
    for arrival, (envelope, message) in enumerate(messages):
        by_id[message["Message-ID"]].append((arrival, envelope["rcpt_tos"][0]))
    assert all(len({recipient for _, recipient in copies}) == 1 for copies in by_id.values())
    links = collections.Counter(copies[0][1] for copies in by_id.values())  # recipient → how many links it got
    assert set(links) == set(recipients), f"missing: {sorted(set(recipients) - set(links))[:10]}"
    assert {address for address, count in links.items() if count > 1} <= cut, "one link per acknowledged request"
    # At least once, never zero: only a message in flight at the kill (one per worker) may arrive twice, and its
    # first copy then arrived before the kill.
    repeated = {message_id: copies for message_id, copies in by_id.items() if len(copies) > 1}
    assert all(len(copies) == 2 for copies in repeated.values()), repeated
    assert len(repeated) <= WORKERS, repeated
    assert all(copies[0][0] < delivered_before_kill for copies in repeated.values()), (delivered_before_kill, repeated)
