"""The end-to-end harness: starting the real `latchkey` binary and talking to it as a Firebase client would."""

import email
import email.policy
import html
import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("LATCHKEY_BIN", REPO / "server" / ".build" / "debug" / "latchkey"))
TEMPLATES = REPO / "templates"

PROJECT_ID = "latchkey-e2e"
API_KEY = "e2e-api-key"
NO_RATE_LIMITS = {
    "sendPerEmail": [], "sendPerIP": [], "completePerIP": [], "signUpPerIP": [], "passwordPerIP": [], "passwordPerEmail": [],
    "apiKeyRequestsPerMinute": 0,
}
CONTINUE_URL = "http://localhost/finish"
# What several instances on one database share (conftest's `start_instances`): the secret keying every stored hash,
# and, behind one load balancer, the public URL and with it the token issuer.
SHARED_SECRET = "e2e-shared-server-secret-0123456789abcdef"
SHARED_PUBLIC_URL = "http://auth.e2e.test"

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
        server_settings = {"host": "127.0.0.1", "port": self.port, **config.pop("server", {})}
        self.config = {
            "projectId": PROJECT_ID,
            "publicURL": self.url,
            "mode": "development",
            "apiKeys": [API_KEY],
            "authorizedDomains": ["localhost", "127.0.0.1"],
            "server": server_settings,  # a test's `server` keys are added to these
            "storage": {"sqlite": {"path": "data/latchkey.sqlite"}},
            "templatesDirectory": str(TEMPLATES),
            "openAPIDocument": str(REPO / "openapi.json"),
            "tokens": {"keyDirectory": "data/keys"},
            "security": {"serverSecretFile": "data/server-secret"},
            "mail": {"transport": "file", "file": {"directory": "data/outbox"}, "from": "no-reply@localhost"},
            "emailLink": {"codeLifetimeSeconds": 600},
            # Every test client is 127.0.0.1; tests of the limits pass their own.
            "rateLimits": NO_RATE_LIMITS,
            **config,
        }
        (directory / "latchkey.json").write_text(json.dumps(self.config, indent=2))

    def logs(self):
        return self.log_path.read_text(errors="replace")

    def configure(self, **config):
        """Adds `config` to the configuration file: for a server whose address something else (a provider's
        registered redirect URI) had to know before its configuration was complete."""
        self.config.update(config)
        (self.directory / "latchkey.json").write_text(json.dumps(self.config, indent=2))
        return self

    def start(self):
        if not BINARY.is_file():
            pytest.fail(f"no latchkey binary at {BINARY}: build it, or point LATCHKEY_BIN at one")
        # The server reads LATCHKEY_* variables as configuration; keep ours (LATCHKEY_BIN) away from it.
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
        if self.config.get("mode") == "production":
            self.init()
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

    def init(self):
        """What an operator runs once before a production server first starts (it never creates its secrets itself)."""
        result = command(self, "init", timeout=60)
        assert result.returncode == 0, result.stderr
        return result

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


# --- What an operator runs --------------------------------------------------------------------


def command(server, *arguments, timeout=30):
    """Runs `latchkey ARGUMENTS --config latchkey.json` in `server`'s directory, as an operator would beside it."""
    # The server reads LATCHKEY_* variables as configuration; keep ours (LATCHKEY_BIN) away from it.
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    return subprocess.run(
        [str(BINARY), *arguments, "--config", "latchkey.json"], cwd=server.directory, env=env, capture_output=True, text=True, timeout=timeout)


def outbox(server, *arguments):
    """What `latchkey outbox` prints for `server`'s configuration: its undelivered messages."""
    result = command(server, "outbox", *arguments)
    assert result.returncode == 0, result.stderr
    return result.stdout


def wait_for_listing(server, text, timeout=15):
    """`latchkey outbox`'s listing once it shows `text`."""
    deadline = time.monotonic() + timeout
    while True:
        listing = outbox(server)
        if text in listing:
            return listing
        if time.monotonic() > deadline:
            pytest.fail(f"`latchkey outbox` never showed {text!r}:\n{listing}\n{server.logs()}")
        time.sleep(0.2)


# --- What a client does ----------------------------------------------------------------------


def post(server, path, **kwargs):
    return requests.post(f"{server.url}/v1/{path}", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, **kwargs)


def link_request(address):
    """The body of a `sendOobCode` asking for a sign-in link to `address`."""
    return {"requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": CONTINUE_URL, "canHandleCodeInApp": True}


def send(server, address):
    response = post(server, "accounts:sendOobCode", json=link_request(address))
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
    html_links = [html.unescape(href) for href in re.findall(r'href="([^"]*)"', html_part) if "/__/auth/action?" in href]
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


def verify(server, id_token, provider="password"):
    """The ID token's claims, verified against the JWKS the server publishes right now; signed in with `provider`."""
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
    assert claims["firebase"]["sign_in_provider"] == provider
    return claims


def error_message(response):
    assert response.headers["content-type"].startswith("application/json"), response.text
    return response.json()["error"]["message"]
