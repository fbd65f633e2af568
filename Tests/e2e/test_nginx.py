"""End-to-end tests of deploy/nginx.conf: Debian's nginx, on loopback, in front of the real binary.

nginx runs the example file itself (its ports, paths and upstream substituted; see nginx.py) from a temporary
prefix as an unprivileged user, terminating TLS with a certificate made at test time. Clients connect from other
loopback addresses, so the address nginx sees is never its own (127.0.0.1), the one trusted proxy. Latchkey's
request log lines (`ip=` and `request.id=`) show whom it believed; nginx returns the request id it forwarded as
`X-Request-Id`, which is the one id on Latchkey's line (issue #31, point 19).
"""

import json
import re

import pytest
import requests

from harness import API_KEY, CONTINUE_URL, HTTP_TIMEOUT, REPO, Latchkey, code_of, error_message, read_link, verify
from nginx import Client, Nginx, request_log, request_logs

EXAMPLE = REPO / "deploy" / "nginx.conf"
TRUSTED = ["127.0.0.1/32", "::1/128"]


def seen_address(server, response):
    """The client address Latchkey logged for the request nginx answered with `response`."""
    return request_log(server, response.headers["X-Request-Id"])["ip"]


def start_server(directory, trusted_proxies=None, server_settings=None, **config):
    """A Latchkey in production mode with request lines logged, trusting `trusted_proxies` (the default: none)."""
    server = Latchkey(directory, mode="production", logLevel="debug", **config)
    if trusted_proxies is not None:
        server.config["server"]["trustedProxies"] = trusted_proxies
    server.config["server"].update(server_settings or {})
    (directory / "latchkey.json").write_text(json.dumps(server.config, indent=2))
    return server


@pytest.fixture
def proxied(tmp_path, monkeypatch):
    """Starts Latchkey behind nginx (public URL: nginx's); both are stopped when the test ends."""
    started = []

    def start(trusted_proxies=TRUSTED):
        nginx = Nginx(EXAMPLE)
        started.append(nginx)
        server = start_server(tmp_path / "latchkey", trusted_proxies, publicURL=nginx.url)
        started.append(server)
        server.start()
        nginx.start(server.port)
        # For the harness's own requests (JWKS, discovery), which go through nginx too.
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(nginx.certificate))
        return nginx, server

    yield start
    try:
        for process in started:
            process.stop()
    finally:
        for process in started:
            if isinstance(process, Latchkey):
                process.kill()
            else:
                process.remove()


@pytest.fixture
def direct(tmp_path):
    servers = []

    def start(trusted_proxies, **server_settings):
        server = start_server(tmp_path / f"direct-{len(servers)}", trusted_proxies, server_settings)
        servers.append(server)
        return server.start()

    yield start
    try:
        for server in servers:
            server.stop()
    finally:
        for server in servers:
            server.kill()


class Public:
    """What the harness's `verify` needs to know of a server: the URL its users reach."""

    def __init__(self, url):
        self.url = url


# --- The stories -----------------------------------------------------------------------------


def test_sign_in_through_nginx_over_tls(proxied):
    nginx, server = proxied()
    client = Client("127.0.0.2", nginx)

    sent = client.send(nginx.url, "dora@example.com")
    assert sent.headers["Strict-Transport-Security"] == "max-age=63072000"
    assert re.fullmatch(r"[0-9a-f]{32}", sent.headers["X-Request-Id"])
    logged = request_log(server, sent.headers["X-Request-Id"])
    # nginx's id is the line's one id: Latchkey's own is not beside it.
    assert logged["path"] == "/v1/accounts:sendOobCode" and "hb.request.id" not in logged, logged

    link = read_link(server, 1)
    assert link.startswith(nginx.url + "/__/auth/action?"), "links are built from the public URL, nginx's"
    code = code_of(link)

    # The link as a browser opens it: through nginx, Latchkey hands the code on to the web app.
    opened = client.session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert opened.status_code == 303, opened.text
    assert opened.headers["Location"].startswith(CONTINUE_URL) and code in opened.headers["Location"]

    signed_in = client.post(nginx.url, "accounts:signInWithEmailLink", json={"email": "dora@example.com", "oobCode": code})
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()
    claims = verify(Public(nginx.url), session["idToken"])
    assert claims["email"] == "dora@example.com"

    refreshed = client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": session["refreshToken"]})
    assert refreshed.status_code == 200, refreshed.text
    assert refreshed.json()["user_id"] == session["localId"]
    replayed = client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": session["refreshToken"]})
    assert replayed.status_code == 400 and error_message(replayed) == "INVALID_REFRESH_TOKEN"

    # The largest answer streams through nginx, which may not write temporary files.
    document = client.session.get(nginx.url + "/openapi.json", timeout=HTTP_TIMEOUT)
    assert document.status_code == 200
    assert document.content == requests.get(server.url + "/openapi.json", timeout=HTTP_TIMEOUT).content

    # nginx logged the paths, never the code or a token; Latchkey neither.
    access_log = nginx.access_log()
    assert " /__/auth/action HTTP/1.1\" 303 " in access_log, access_log
    assert " /v1/accounts:signInWithEmailLink HTTP/1.1\" 200 " in access_log, access_log
    assert sent.headers["X-Request-Id"] in access_log
    for secret in [code, session["idToken"], session["refreshToken"], refreshed.json()["refresh_token"]]:
        for name, text in [("access", access_log), ("error", nginx.error_log()), ("latchkey", server.logs())]:
            assert secret not in text, f"a secret is in the {name} log"


def test_latchkey_sees_the_address_nginx_saw_and_never_a_spoofed_one(proxied):
    """Needs `server.trustedProxies`: before it, every request through nginx seems to come from 127.0.0.1."""
    nginx, server = proxied()
    attempts = [  # (the client's loopback address, what it claims to nginx)
        ("127.0.0.2", {}),
        ("127.0.0.4", {"X-Forwarded-For": "6.6.6.6"}),
        ("127.0.0.5", {"X-Forwarded-For": "6.6.6.6, 127.0.0.1"}),  # posing as a request nginx already forwarded
        ("127.0.0.6", {"Forwarded": "for=6.6.6.6"}),
        ("127.0.0.7", {"X-Real-IP": "6.6.6.6", "X-Request-Id": "chosen-by-client"}),
    ]
    seen = {}
    for n, (source, claims) in enumerate(attempts):
        response = Client(source, nginx).send(nginx.url, f"spoof{n}@example.com", claims)
        assert response.headers["X-Request-Id"] != "chosen-by-client"
        seen[source] = seen_address(server, response)
    assert seen == {source: source for source, _ in attempts}
    assert "ip=6.6.6.6" not in server.logs()


def test_without_trusted_proxies_forwarded_headers_are_ignored(proxied):
    """The default (`trustedProxies` empty): behind nginx every client is nginx, whatever the headers say."""
    nginx, server = proxied(trusted_proxies=None)
    response = Client("127.0.0.2", nginx).send(nginx.url, "default@example.com", {"X-Forwarded-For": "6.6.6.6"})
    logged = request_logs(server, "/v1/accounts:sendOobCode", 1)[-1]
    # Nor is its request id adopted: the line carries Latchkey's own.
    assert logged["ip"] == "127.0.0.1" and logged["request.id"] != response.headers["X-Request-Id"], logged


def test_an_untrusted_peer_cannot_choose_its_address(direct):
    """Straight to Latchkey from 127.0.0.3, which is not a trusted proxy: forwarding headers are ignored."""
    server = direct(TRUSTED)
    for n, claims in enumerate([
        {"X-Forwarded-For": "6.6.6.6"},
        {"X-Forwarded-For": "6.6.6.6, 127.0.0.1"},
        {"Forwarded": "for=6.6.6.6"},
        {"Forwarded": "for=6.6.6.6", "X-Forwarded-For": "6.6.6.6"},
    ]):
        request_id = f"untrusted-{n}"
        Client("127.0.0.3").send(server.url, f"direct{n}@example.com", {**claims, "X-Request-Id": request_id})
        logged = request_logs(server, "/v1/accounts:sendOobCode", n + 1)[n]
        assert logged["ip"] == "127.0.0.3" and logged["request.id"] != request_id, claims


@pytest.mark.parametrize("header, attempts", [
    (None, [  # the default, X-Forwarded-For
        ({"X-Forwarded-For": "198.51.100.23"}, "198.51.100.23"),
        ({"X-Forwarded-For": "6.6.6.6, 198.51.100.23, 127.0.0.1"}, "198.51.100.23"),  # the right-most untrusted hop
        ({"Forwarded": "for=198.51.100.24;proto=https"}, "127.0.0.1"),  # not the header proxies append to
    ]),
    ("Forwarded", [
        ({"Forwarded": "for=198.51.100.24;proto=https"}, "198.51.100.24"),
        ({"Forwarded": "for=6.6.6.6, for=198.51.100.24, for=127.0.0.1"}, "198.51.100.24"),
        ({"X-Forwarded-For": "198.51.100.23"}, "127.0.0.1"),
    ]),
])
def test_a_trusted_proxy_is_believed(direct, header, attempts):
    """Needs `server.trustedProxies`: a request from 127.0.0.1 (trusted) is the forwarded client's, as recorded
    in the one header proxies append to (`server.clientIPHeader`)."""
    server = direct(TRUSTED, **({"clientIPHeader": header} if header else {}))
    for n, (claims, expected) in enumerate(attempts):
        request_id = f"trusted-{n}"
        Client("127.0.0.1").send(server.url, f"trusted{n}@example.com", {**claims, "X-Request-Id": request_id})
        assert request_log(server, request_id)["ip"] == expected, claims


def test_nginx_guards_the_edge(proxied):
    nginx, server = proxied()
    client = Client("127.0.0.8", nginx)

    # Plain HTTP only redirects to HTTPS.
    redirected = client.session.get(nginx.http_url + "/v1/accounts:sendOobCode?key=x", allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert redirected.status_code == 301
    assert redirected.headers["Location"] == "https://127.0.0.1/v1/accounts:sendOobCode?key=x"

    # Bodies over 64 KiB stop at nginx; just under passes (Latchkey then judges it).
    large = client.post(nginx.url, "accounts:sendOobCode", data=b"{" + b" " * (64 * 1024) + b"}",
                        headers={"Content-Type": "application/json"})
    assert large.status_code == 413 and "nginx" in large.text
    small = client.post(nginx.url, "accounts:sendOobCode", data=b"{" + b" " * (60 * 1024) + b"}",
                        headers={"Content-Type": "application/json"})
    assert small.status_code == 400 and error_message(small), small.text

    # Metrics stay on the loopback address.
    assert client.session.get(nginx.url + "/metrics", timeout=HTTP_TIMEOUT).status_code == 404

    # A flood from one address meets nginx's limit (20 per second, bursts of 40).
    flood = [client.session.get(nginx.url + "/healthz", timeout=HTTP_TIMEOUT).status_code for _ in range(150)]
    assert set(flood) <= {200, 429} and flood[:20] == [200] * 20 and 429 in flood, flood

    # With Latchkey down, nginx answers 502 and logs the failure, but never the code of an opened link.
    server.stop()
    secret = "NeverLogThisCode1234567890"
    opened = Client("127.0.0.9", nginx).session.get(
        f"{nginx.url}/__/auth/action?mode=signIn&oobCode={secret}&apiKey={API_KEY}", timeout=HTTP_TIMEOUT)
    assert opened.status_code == 502
    failed = Client("127.0.0.9", nginx).post(nginx.url, "accounts:sendOobCode", json={})
    assert failed.status_code == 502
    assert "while connecting to upstream" in nginx.error_log(), "upstream failures should be logged, or this test proves nothing"
    assert secret not in nginx.error_log() and secret not in nginx.access_log()
