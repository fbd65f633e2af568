"""A real OpenID Connect provider for the end-to-end tests: PyPI's oidc-provider-mock on a loopback port.

It signs ID tokens with RS256 and without `kid`, and takes any client id; `id_token` acts as its client to get one
for any subject and claims.
"""

import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import requests

from harness import HTTP_TIMEOUT, free_port

CLIENT_ID = "latchkey-client"
REDIRECT_URI = "http://127.0.0.1/callback"
START_TIMEOUT = 30  # seconds a provider may take to answer its discovery document


class LoopbackProvider:
    """A provider process on a loopback port: launched, waited for until its discovery document answers, stopped."""

    def __init__(self, log_path):
        self.log_path = Path(log_path)
        self.port = None
        self.process = None

    @property
    def issuer(self):
        return f"http://127.0.0.1:{self.port}"

    def launch(self, command, **popen):
        """Starts `command` (logging to `log_path`) and returns once discovery answers; seconds taken in `startup_seconds`."""
        began = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, **popen)
        while True:
            try:
                if requests.get(self.issuer + "/.well-known/openid-configuration", timeout=1).ok:
                    self.startup_seconds = time.monotonic() - began
                    return self
            except requests.ConnectionError:
                pass
            assert self.process.poll() is None and time.monotonic() < began + START_TIMEOUT, self.log_path.read_text()
            time.sleep(0.05)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class OIDCProvider(LoopbackProvider):
    def __init__(self, log_path):
        super().__init__(log_path)
        self.port = free_port()

    def start(self, *options):
        """Starts the mock; `options` are its own (`--token-max-age 1` for tokens that expire at once)."""
        return self.launch([sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(self.port), *options])

    def settings(self, provider_id="oidc.mock", **extra):
        """The provider as an `identityProviders` item."""
        return {"providerId": provider_id, "issuer": self.issuer, "clientId": CLIENT_ID, "allowInsecureIssuer": True, **extra}

    def authorize(self, authorization_url, subject, claims=None):
        """Signs `subject` (with `claims`) in at the mock for a relying party's `authorization_url`, as its login form
        does (a POST of the subject), and returns where the mock sends the browser back."""
        put = requests.put(f"{self.issuer}/users/{subject}", json=claims or {}, timeout=HTTP_TIMEOUT)
        assert put.status_code == 204, put.text
        authorized = requests.post(authorization_url, data={"sub": subject}, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert authorized.status_code == 302, authorized.text
        return authorized.headers["Location"]

    def id_token(self, subject, claims=None, client_id=CLIENT_ID, nonce=None):
        """An ID token for `subject` with `claims`, through the code flow as the client `client_id`."""
        query = {"client_id": client_id, "redirect_uri": REDIRECT_URI, "response_type": "code", "scope": "openid email profile", "state": "s"}
        if nonce:
            query["nonce"] = nonce
        back = self.authorize(f"{self.issuer}/oauth2/authorize?{urlencode(query)}", subject, claims)
        code = parse_qs(urlsplit(back).query)["code"][0]
        token = requests.post(f"{self.issuer}/oauth2/token", auth=(client_id, "x"), timeout=HTTP_TIMEOUT,
                              data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI})
        assert token.ok, token.text
        return token.json()["id_token"]
