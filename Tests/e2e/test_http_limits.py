"""Slow and oversized clients through raw sockets: none of them can hold a connection or reach a handler."""

import json
import socket
import sqlite3
import time

import requests

from harness import API_KEY, CONTINUE_URL

SEND_PATH = f"/v1/accounts:sendOobCode?key={API_KEY}"


def connect(server):
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    connection.settimeout(10)
    return connection


def read_all(connection):
    """Everything the server sends until it closes the connection."""
    received = b""
    while chunk := connection.recv(65536):
        received += chunk
    return received


def send_request(address):
    body = json.dumps({"requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": CONTINUE_URL}).encode()
    head = f"POST {SEND_PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode(), body


def test_a_silent_connection_is_closed_after_the_idle_timeout(start_latchkey):
    server = start_latchkey(server={"idleTimeoutSeconds": 1})
    connection = connect(server)
    started = time.monotonic()
    assert read_all(connection) == b""  # closed without a word
    assert 0.8 < time.monotonic() - started < 5


def test_headers_trickled_in_do_not_keep_a_connection(start_latchkey):
    server = start_latchkey(server={"idleTimeoutSeconds": 1})
    connection = connect(server)
    started = time.monotonic()
    try:
        for byte in b"GET /healthz HTTP/1.1\r\nX-Slow: " + b"a" * 40:
            connection.sendall(bytes([byte]))
            time.sleep(0.1)
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert read_all(connection) == b""
    assert time.monotonic() - started < 6


def test_a_body_that_does_not_arrive_in_time_is_answered_408_and_nothing_is_stored(start_latchkey):
    server = start_latchkey(server={"idleTimeoutSeconds": 30, "requestTimeoutSeconds": 1})
    head, body = send_request("slow@example.com")
    connection = connect(server)
    connection.sendall(head + body[:10])
    started = time.monotonic()
    answer = read_all(connection)
    assert 0.8 < time.monotonic() - started < 5
    status, _, rest = answer.partition(b"\r\n")
    assert status == b"HTTP/1.1 408 Request Timeout", answer
    assert b"connection: close" in rest.lower()
    envelope = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert envelope["error"]["code"] == 408 and envelope["error"]["status"] == "DEADLINE_EXCEEDED"
    with sqlite3.connect(server.directory / "data" / "latchkey.sqlite") as database:
        assert database.execute("SELECT count(*) FROM pending_requests").fetchone() == (0,)

    # A whole request on time still works.
    connection = connect(server)
    connection.sendall(head + body)
    assert connection.recv(65536).startswith(b"HTTP/1.1 200 OK")


def test_oversized_headers_and_bodies_are_refused(start_latchkey):
    server = start_latchkey(server={"maxHeaderBytes": 4096})
    big = requests.get(f"{server.url}/healthz", headers={"X-Big": "a" * 8000}, timeout=10)
    assert big.status_code in (400, 431)
    assert requests.get(f"{server.url}/healthz", headers={"X-Small": "a" * 1000}, timeout=10).status_code == 200

    too_large = requests.post(
        f"{server.url}{SEND_PATH}", data=b"{" + b" " * 70_000 + b"}", headers={"Content-Type": "application/json"}, timeout=10)
    assert too_large.status_code == 413
    assert too_large.json()["error"]["code"] == 413
