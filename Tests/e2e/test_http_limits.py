"""Slow and oversized clients through raw sockets: none of them can hold a connection or reach a handler."""

import json
import socket
import sqlite3
import time

import pytest
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


def answer_of(received):
    """The status line, the lower-cased head and the decoded envelope of one answer."""
    head, _, body = received.partition(b"\r\n\r\n")
    status, _, fields = head.partition(b"\r\n")
    return status.decode(), fields.decode().lower(), json.loads(body) if body else None


@pytest.mark.parametrize(
    "body, half_close",
    [
        (b"zz\r\n{}\r\n0\r\n\r\n", False),  # not a hexadecimal size
        (b"ffffffffffffffffffffffff\r\n{}\r\n0\r\n\r\n", False),  # a size that overflows
        (b"40\r\n{\"email\":", True),  # the client stops sending mid-body
    ],
    ids=["size zz", "overflowing size", "closed mid-body"],
)
def test_a_malformed_chunked_body_is_a_client_error_logged_at_debug(start_latchkey, body, half_close):
    server = start_latchkey(logFormat="json", logLevel="debug")
    connection = connect(server)
    # No API key: the body is read before anything else is looked at.
    connection.sendall(
        b"POST /v1/accounts:sendOobCode HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + body)
    if half_close:
        connection.shutdown(socket.SHUT_WR)
    status, fields, envelope = answer_of(read_all(connection))
    assert status == "HTTP/1.1 400 Bad Request", (status, envelope)
    assert "connection: close" in fields
    assert envelope["error"]["code"] == 400 and envelope["error"]["status"] == "INVALID_ARGUMENT"
    assert envelope["error"]["message"] == "The request body could not be read."
    assert requests.get(f"{server.url}/healthz", timeout=10).status_code == 200

    # Read while the server runs: stopping it may log its own warnings, which are not about this request.
    events = [json.loads(line) for line in server.logs().splitlines() if line.strip()]
    assert [event for event in events if event["level"] in ("warning", "error", "critical")] == []
    refusal = next(event for event in events if event["message"] == "Request body unreadable")
    assert refusal["level"] == "debug"


def test_a_declared_length_over_the_limit_is_413_before_the_body_is_read(start_latchkey):
    server = start_latchkey(server={"idleTimeoutSeconds": 30, "requestTimeoutSeconds": 5})
    connection = connect(server)
    started = time.monotonic()
    connection.sendall(
        f"POST {SEND_PATH} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n".encode()
        + b"{")  # the rest never comes
    status, fields, envelope = answer_of(read_all(connection))
    assert time.monotonic() - started < 2
    assert status.startswith("HTTP/1.1 413 "), (status, envelope)
    assert "connection: close" in fields
    assert envelope["error"]["code"] == 413 and envelope["error"]["status"] == "INVALID_ARGUMENT"
    with sqlite3.connect(server.directory / "data" / "latchkey.sqlite") as database:
        assert database.execute("SELECT count(*) FROM pending_requests").fetchone() == (0,)


def test_a_request_head_trickled_line_by_line_is_closed_after_the_header_timeout(start_latchkey):
    server = start_latchkey(server={"idleTimeoutSeconds": 30, "headerTimeoutSeconds": 2})
    connection = connect(server)
    started = time.monotonic()
    connection.sendall(b"GET /healthz HTTP/1.1\r\n")
    try:
        for number in range(20):
            time.sleep(0.5)
            connection.sendall(f"X-Slow-{number}: a\r\n".encode())
    except (BrokenPipeError, ConnectionResetError):
        pass
    received = read_all(connection)
    assert received == b"", received
    assert 1.8 < time.monotonic() - started < 5


def test_the_header_timeout_spares_idle_keep_alive_connections_and_trickled_bodies(start_latchkey):
    server = start_latchkey(server={"idleTimeoutSeconds": 30, "headerTimeoutSeconds": 1, "requestTimeoutSeconds": 10})
    connection = connect(server)
    for address in ("first@example.com", "second@example.com"):
        head, body = send_request(address)
        connection.sendall(head)
        for start in range(0, len(body), 20):  # the body takes about 2 s: the request timeout's business, not the head's
            time.sleep(0.4)
            connection.sendall(body[start:start + 20])
        assert connection.recv(65536).startswith(b"HTTP/1.1 200 OK")
        time.sleep(2)  # idle between requests, longer than the header timeout

