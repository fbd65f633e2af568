"""A real OpenID Connect provider for the end-to-end tests: PyPI's oidc-provider-mock on a loopback port.

It signs ID tokens with RS256 and without `kid`, and takes any client id; `id_token` acts as its client to get one
for any subject and claims.
"""

import subprocess
import sys
import time
from urllib.parse import parse_qs, urlsplit

import requests

from harness import HTTP_TIMEOUT, free_port

CLIENT_ID = "latchkey-client"
REDIRECT_URI = "http://127.0.0.1/callback"


class OIDCProvider:
    def __init__(self, log_path):
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.process = None

    def start(self):
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while True:
            try:
                if requests.get(self.issuer + "/.well-known/openid-configuration", timeout=1).ok:
                    return self
            except requests.ConnectionError:
                pass
            assert self.process.poll() is None and time.monotonic() < deadline, self.log_path.read_text()
            time.sleep(0.1)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def settings(self, provider_id="oidc.mock", **extra):
        """The provider as an `identityProviders` item."""
        return {"providerId": provider_id, "issuer": self.issuer, "clientId": CLIENT_ID, "allowInsecureIssuer": True, **extra}

    def id_token(self, subject, claims=None, client_id=CLIENT_ID, nonce=None):
        """An ID token for `subject` with `claims`, through the code flow as the client `client_id`."""
        put = requests.put(f"{self.issuer}/users/{subject}", json=claims or {}, timeout=HTTP_TIMEOUT)
        assert put.status_code == 204, put.text
        query = {"client_id": client_id, "redirect_uri": REDIRECT_URI, "response_type": "code", "scope": "openid email profile", "state": "s"}
        if nonce:
            query["nonce"] = nonce
        authorized = requests.post(f"{self.issuer}/oauth2/authorize", params=query, data={"sub": subject}, allow_redirects=False,
                                   timeout=HTTP_TIMEOUT)
        assert authorized.status_code == 302, authorized.text
        code = parse_qs(urlsplit(authorized.headers["Location"]).query)["code"][0]
        token = requests.post(f"{self.issuer}/oauth2/token", auth=(client_id, "x"), timeout=HTTP_TIMEOUT,
                              data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI})
        assert token.ok, token.text
        return token.json()["id_token"]
