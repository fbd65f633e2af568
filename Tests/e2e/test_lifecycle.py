"""SIGTERM in the middle of a burst: every request is answered or refused, the process exits 0, and every send
that was acknowledged is in the database and its mail is delivered after a restart. The stop is logged at the default
level of production, `info` (issue #31, point 19)."""

import email
import json
import signal
import socket
import sqlite3
import threading
import time

import requests

from harness import API_KEY, CONTINUE_URL


def test_sigterm_during_a_burst_loses_nothing_acknowledged(start_latchkey):
    # No delivery from this instance, so every acknowledged mail must still be waiting in the outbox afterwards.
    server = start_latchkey(mail={"transport": "file", "file": {"directory": "data/outbox"}, "from": "no-reply@localhost", "workers": 0})
    acknowledged, refused, lock = [], [], threading.Lock()

    def client(number):
        session = requests.Session()
        for attempt in range(200):
            address = f"user{number}-{attempt}@example.com"
            try:
                response = session.post(
                    f"{server.url}/v1/accounts:sendOobCode", params={"key": API_KEY}, timeout=10,
                    json={"requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": CONTINUE_URL})
            except requests.RequestException:
                with lock:
                    refused.append(address)
                return
            with lock:
                (acknowledged if response.status_code == 200 else refused).append(address)
            if response.status_code != 200:
                return

    threads = [threading.Thread(target=client, args=(number,)) for number in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(0.4)
    started = time.monotonic()
    server.stop()  # SIGTERM; asserts exit code 0 within the stop timeout
    stop_seconds = time.monotonic() - started
    for thread in threads:
        thread.join(timeout=15)

    assert len(acknowledged) > 20, "the burst should have been under way"
    assert stop_seconds < 10
    database = sqlite3.connect(server.directory / "data" / "latchkey.sqlite")
    queued = {row[0] for row in database.execute("SELECT recipient FROM outbox")}
    pending = {row[0] for row in database.execute("SELECT email FROM pending_requests")}
    database.close()
    missing = [address for address in acknowledged if address not in queued or address not in pending]
    assert not missing, f"{len(missing)} acknowledged sends not stored, e.g. {missing[:3]}"

    # A delivering restart sends every one of them.
    server.config["mail"]["workers"] = 2
    (server.directory / "latchkey.json").write_text(json.dumps(server.config))
    server.start()
    deadline = time.monotonic() + 30
    outbox = server.directory / "data" / "outbox"
    while len(list(outbox.glob("*.eml"))) < len(queued) and time.monotonic() < deadline:
        time.sleep(0.1)
    delivered = {email.message_from_bytes(path.read_bytes())["To"] for path in outbox.glob("*.eml")}
    assert set(acknowledged) <= delivered


def test_a_stuck_client_cannot_hold_the_shutdown_past_its_bound(start_latchkey):
    server = start_latchkey(server={"shutdownTimeoutSeconds": 1, "requestTimeoutSeconds": 60, "idleTimeoutSeconds": 60})
    stuck = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    stuck.sendall(b"POST /v1/accounts:sendOobCode HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{")
    time.sleep(0.2)
    process, server.process = server.process, None
    started = time.monotonic()
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
    assert time.monotonic() - started < 5
    stuck.close()


def test_the_stop_is_logged_at_the_default_level(start_latchkey):
    server = start_latchkey(logLevel="info")
    server.stop()
    logs = server.logs()
    assert "Server started" in logs and "Server stopped" in logs, logs
    assert logs.index("Server stopped") > logs.index("Server started")
