"""End-to-end tests: the real `latchkey` binary, driven over HTTP the way a Firebase client would.

Each test starts the server as a subprocess on a free port with its own data directory, reads
the sign-in email from the file outbox, and verifies ID tokens against the JWKS it serves.

    python3 -m pip install -r Tests/e2e/requirements.txt
    python3 -m pytest -q Tests/e2e

Set LATCHKEY_BIN to test a binary other than `.build/debug/latchkey`.
"""

import concurrent.futures
import email
import email.policy
import html
import json
import os
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("LATCHKEY_BIN", REPO / ".build" / "debug" / "latchkey"))
TEMPLATES = REPO / "templates"

PROJECT_ID = "latchkey-e2e"
API_KEY = "e2e-api-key"
CONTINUE_URL = "http://localhost/finish"

START_TIMEOUT = 30  # seconds until /healthz must answer (debug builds start slowly)
STOP_TIMEOUT = 10  # seconds a SIGTERM may take before the server is killed
MAIL_TIMEOUT = 10  # seconds until a sent email must be in the outbox
HTTP_TIMEOUT = 10  # seconds for any one request


# --- The server under test -------------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Latchkey:
    """One server: a data directory, a port, and the process while it runs.

    Stopping and starting again keeps the directory and the port (so the public URL, and with it
    the token issuer, stay the same), which is what a restart in production looks like.
    """

    def __init__(self, directory, **config):
        self.directory = directory
        self.directory.mkdir(parents=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.outbox = directory / "data" / "outbox"
        self.log_path = directory / "latchkey.log"  # stderr of every run, appended
        self.process = None
        self.config = {
            "projectId": PROJECT_ID,
            "publicURL": self.url,
            "mode": "development",
            "apiKeys": [API_KEY],
            "authorizedDomains": ["localhost", "127.0.0.1"],
            "server": {"host": "127.0.0.1", "port": self.port},
            "storage": {"sqlite": {"path": "data/latchkey.sqlite"}},
            "templatesDirectory": str(TEMPLATES),
            "tokens": {"keyDirectory": "data/keys"},
            "security": {"serverSecretFile": "data/server-secret"},
            "mail": {"transport": "file", "file": {"directory": "data/outbox"}, "from": "no-reply@localhost"},
            "emailLink": {"codeLifetimeSeconds": 600},
            **config,
        }
        (directory / "latchkey.json").write_text(json.dumps(self.config, indent=2))

    def logs(self):
        return self.log_path.read_text(errors="replace")

    def start(self):
        if not BINARY.is_file():
            pytest.fail(f"no latchkey binary at {BINARY}: build it, or point LATCHKEY_BIN at one")
        # The server reads LATCHKEY_* variables as configuration; keep ours (LATCHKEY_BIN) away from it.
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [str(BINARY), "serve", "--config", "latchkey.json"],
                cwd=self.directory, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code, self.process = self.process.returncode, None
                pytest.fail(f"latchkey exited with code {code} while starting:\n{self.logs()}")
            try:
                if requests.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.05)
        self.kill()
        pytest.fail(f"latchkey did not answer /healthz within {START_TIMEOUT} s:\n{self.logs()}")

    def stop(self):
        """SIGTERM, then a bounded wait; a graceful stop must exit with code 0."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                pytest.fail(f"latchkey ignored SIGTERM for {STOP_TIMEOUT} s and was killed:\n{self.logs()}")
        assert process.returncode == 0, f"latchkey exited with code {process.returncode}:\n{self.logs()}"

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None


@pytest.fixture
def start_latchkey(tmp_path):
    """Starts servers in `tmp_path/<name>`; every one is stopped when the test ends, pass or fail."""
    servers = []

    def start(name="latchkey", **config):
        server = Latchkey(tmp_path / name, **config)
        servers.append(server)
        return server.start()

    yield start
    try:
        for server in servers:
            server.stop()
    finally:
        for server in servers:
            server.kill()


@pytest.fixture
def server(start_latchkey):
    return start_latchkey()


# --- What a client does ----------------------------------------------------------------------


def post(server, path, **kwargs):
    return requests.post(f"{server.url}/v1/{path}", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, **kwargs)


def send(server, address):
    response = post(server, "accounts:sendOobCode", json={
        "requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": CONTINUE_URL, "canHandleCodeInApp": True,
    })
    assert response.status_code == 200, response.text
    assert response.json() == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": address.lower()}


def read_email(server, number):
    """The outbox's `number`th message (1-based), waiting for it to be written."""
    path = server.outbox / f"{number:010d}.eml"
    deadline = time.monotonic() + MAIL_TIMEOUT
    while not path.exists():
        assert time.monotonic() < deadline, f"no {path.name} after {MAIL_TIMEOUT} s:\n{server.logs()}"
        time.sleep(0.05)
    return email.message_from_bytes(path.read_bytes(), policy=email.policy.default)


def read_link(server, number):
    """The sign-in link of the `number`th email, checked to be the same in its text and HTML parts."""
    message = read_email(server, number)
    text = message.get_body(preferencelist=("plain",)).get_content()
    links = re.findall(r"https?://\S+/__/auth/action\?\S+", text)
    assert len(links) == 1, text
    html_part = message.get_body(preferencelist=("html",)).get_content()
    html_links = [html.unescape(href) for href in re.findall(r'href="([^"]*)"', html_part)]
    assert html_links and set(html_links) == set(links), (links, html_links)
    return links[0]


def code_of(link):
    return parse_qs(urlsplit(link).query)["oobCode"][0]


def complete(server, address, code):
    return post(server, "accounts:signInWithEmailLink", json={"email": address, "oobCode": code})


def refresh(server, refresh_token, as_json=False):
    if as_json:
        return post(server, "token", json={"grantType": "refresh_token", "refreshToken": refresh_token})
    return post(server, "token", data={"grant_type": "refresh_token", "refresh_token": refresh_token})


def verify(server, id_token):
    """The ID token's claims, verified against the JWKS the server publishes right now."""
    discovery = requests.get(server.url + "/.well-known/openid-configuration", timeout=HTTP_TIMEOUT).json()
    assert discovery["issuer"] == server.url
    jwks = requests.get(discovery["jwks_uri"], timeout=HTTP_TIMEOUT).json()

    header = jwt.get_unverified_header(id_token)
    assert header["alg"] == "RS256"
    keys = {key["kid"]: key for key in jwks["keys"]}
    assert header.get("kid") in keys, f"kid {header.get('kid')!r} not in JWKS {list(keys)}"
    claims = jwt.decode(
        id_token, jwt.PyJWK(keys[header["kid"]]).key, algorithms=["RS256"], audience=PROJECT_ID, issuer=server.url,
        options={"require": ["iss", "aud", "sub", "iat", "exp", "auth_time"]},
    )
    assert claims["exp"] - claims["iat"] == 3600
    assert claims["firebase"]["sign_in_provider"] == "password"
    return claims


def error_message(response):
    assert response.headers["content-type"].startswith("application/json"), response.text
    return response.json()["error"]["message"]


# --- The stories -----------------------------------------------------------------------------


def test_sign_in_by_email_link_then_refresh(server):
    send(server, "Alice@Example.com")

    message = read_email(server, 1)
    assert message["To"] == "alice@example.com"
    assert message["From"] and "no-reply@localhost" in message["From"]
    assert message["Subject"]
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]

    link = read_link(server, 1)
    assert link.startswith(server.url + "/__/auth/action?")
    query = parse_qs(urlsplit(link).query)
    assert query["mode"] == ["signIn"]
    assert query["apiKey"] == [API_KEY]
    assert query["continueUrl"] == [CONTINUE_URL]
    assert query["lang"] == ["en"]

    response = complete(server, "alice@example.com", code_of(link))
    assert response.status_code == 200, response.text
    session = response.json()
    assert session["kind"] == "identitytoolkit#EmailLinkSigninResponse"
    assert session["email"] == "alice@example.com"
    assert session["isNewUser"] is True
    assert session["expiresIn"] == "3600"

    claims = verify(server, session["idToken"])
    assert claims["sub"] == session["localId"]
    assert claims["email"] == "alice@example.com"
    assert claims["email_verified"] is True
    assert claims["firebase"]["identities"]["email"] == ["alice@example.com"]

    response = refresh(server, session["refreshToken"])
    assert response.status_code == 200, response.text
    refreshed = response.json()
    assert refreshed["token_type"] == "Bearer"
    assert refreshed["expires_in"] == "3600"
    assert refreshed["user_id"] == session["localId"]
    assert refreshed["project_id"] == PROJECT_ID
    assert refreshed["access_token"] == refreshed["id_token"]
    assert refreshed["refresh_token"] != session["refreshToken"], "refresh tokens must rotate"
    new_claims = verify(server, refreshed["id_token"])
    assert new_claims["sub"] == session["localId"]
    assert new_claims["email"] == "alice@example.com"
    assert new_claims["auth_time"] == claims["auth_time"], "refreshing is not signing in again"

    # Someone replays the old refresh token: refused, and the whole chain goes with it.
    reused = refresh(server, session["refreshToken"])
    assert reused.status_code == 400, reused.text
    assert error_message(reused) == "INVALID_REFRESH_TOKEN"
    newest = refresh(server, refreshed["refresh_token"])
    assert newest.status_code == 400, newest.text
    assert error_message(newest) == "INVALID_REFRESH_TOKEN"


def test_links_and_sessions_survive_a_restart(server):
    # A link requested before a restart works after it (even if the email went out only after it).
    send(server, "bob@example.com")
    server.stop()
    server.start()
    response = complete(server, "bob@example.com", code_of(read_link(server, 1)))
    assert response.status_code == 200, response.text
    session = response.json()
    assert session["isNewUser"] is True

    # A session begun before a restart is still good after it.
    server.stop()
    server.start()
    claims = verify(server, session["idToken"])
    assert claims["sub"] == session["localId"]
    response = refresh(server, session["refreshToken"], as_json=True)
    assert response.status_code == 200, response.text
    assert response.json()["user_id"] == session["localId"]
    verify(server, response.json()["id_token"])


def sign_in_refresh_and_replay(server, address):
    """Runs every flow whose secrets could leak into logs; returns the link and every token seen."""
    send(server, address)
    link = read_link(server, 1)
    signed_in = complete(server, address, code_of(link))
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()
    refreshed = refresh(server, session["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    replayed = refresh(server, session["refreshToken"])
    assert replayed.status_code == 400, replayed.text
    tokens = [session["idToken"], session["refreshToken"], refreshed.json()["id_token"], refreshed.json()["refresh_token"]]
    return link, tokens


def test_logs_hold_no_secrets(start_latchkey):
    development = start_latchkey("development")
    link, tokens = sign_in_refresh_and_replay(development, "carol@example.com")
    development.stop()
    lines = development.logs().splitlines()

    with_code = [line for line in lines if code_of(link) in line]
    assert len(with_code) == 1, "\n".join(with_code)
    assert "Development mode" in with_code[0] and link in with_code[0]
    for token in tokens:
        assert not [line for line in lines if token in line], "a token was logged"

    # Production mode, even at debug level, never logs the link.
    production = start_latchkey("production", mode="production", logLevel="debug")
    link, tokens = sign_in_refresh_and_replay(production, "carol@example.com")
    production.stop()
    logs = production.logs()
    assert "path=/v1/accounts:sendOobCode" in logs, "debug lines should be on, or this test proves nothing"
    for secret in [code_of(link), *tokens]:
        assert secret not in logs


def test_fifty_concurrent_completions_of_one_code_sign_in_once(server):
    """Fifty clients, each on its own connection, race to use one code: exactly one wins."""
    send(server, "race@example.com")
    code = code_of(read_link(server, 1))
    barrier = threading.Barrier(50)

    def attempt(_):
        barrier.wait(timeout=HTTP_TIMEOUT)
        response = requests.post(
            f"{server.url}/v1/accounts:signInWithEmailLink", params={"key": API_KEY},
            json={"email": "race@example.com", "oobCode": code}, headers={"Connection": "close"}, timeout=HTTP_TIMEOUT,
        )
        return response.status_code, response.json()

    with concurrent.futures.ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(attempt, range(50)))
    assert [status for status, _ in results].count(200) == 1
    losers = [body["error"]["message"] for status, body in results if status != 200]
    assert losers == ["INVALID_OOB_CODE"] * 49
