"""A second real OpenID Connect provider for the end-to-end tests: PyPI's django-oidc-provider on a loopback port.

Unlike oidc-provider-mock (oidc.py) it checks the PKCE code_verifier when the authorization request carried a
code_challenge, supports the implicit flow (`response_type=id_token`, the token in the URL fragment), puts `kid`
in ID-token headers and has a real log-in form. The project is Tests/support/django_oidc; its database and signing
key live in `work_dir`. One user, alice, and one confidential RS256 client that never asks for consent.

What it hands out: `sub` is the Django user id ("1"), `aud` a string (the client id), and the token endpoint takes
client_secret_basic and client_secret_post.
"""

import os
import secrets
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import requests

from harness import HTTP_TIMEOUT, REPO, free_port
from oidc import LoopbackProvider

PROJECT = REPO / "Tests" / "support" / "django_oidc"


class DjangoOIDCProvider(LoopbackProvider):
    """One provider process; `start` may be called again on the same `work_dir` (same key, faster), on a new port."""

    username = "alice"
    password = "alice-password"
    email = "alice@example.com"

    def __init__(self, log_path, work_dir):
        super().__init__(log_path)
        self.work_dir = Path(work_dir)
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.client_id = None
        self.client_secret = None
        self.redirect_uris = []

    def start(self, redirect_uris, client_id="latchkey-django", client_secret="latchkey-django-secret"):
        self.port = free_port()
        self.client_id, self.client_secret, self.redirect_uris = client_id, client_secret, list(redirect_uris)
        env = {**os.environ, "SITE_URL": self.issuer, "DJANGO_OIDC_DIR": str(self.work_dir), "PYTHONDONTWRITEBYTECODE": "1"}
        # seed.py makes the tables and the key (first time only), seeds alice and the client, then serves.
        return self.launch(
            [sys.executable, str(PROJECT / "seed.py"), "--client-id", client_id, "--client-secret", client_secret,
             "--username", self.username, "--password", self.password, "--serve", str(self.port), *self.redirect_uris],
            cwd=self.work_dir, env=env)

    def settings(self, provider_id="oidc.django", **extra):
        """The provider as an `identityProviders` item (a plain-string secret: development mode only)."""
        return {"providerId": provider_id, "issuer": self.issuer, "clientId": self.client_id,
                "clientSecret": self.client_secret, "allowInsecureIssuer": True, **extra}

    def log_in(self, session):
        """Logs `session` (a requests.Session) in as alice through the Django log-in form."""
        url = self.issuer + "/accounts/login/"
        page = session.get(url, timeout=HTTP_TIMEOUT)
        assert page.ok, page.text
        posted = session.post(url, allow_redirects=False, timeout=HTTP_TIMEOUT, headers={"Referer": url}, data={
            "csrfmiddlewaretoken": session.cookies["django_oidc_csrftoken"],
            "username": self.username, "password": self.password})
        # A wrong password renders the form again (200); success redirects to LOGIN_REDIRECT_URL.
        assert posted.status_code == 302, posted.text
        return session

    def authorize(self, session, authorization_url):
        """The Location the provider sends a logged-in browser back to the relying party with, for a full
        authorization URL: `redirect_uri?code=...&state=...` or `redirect_uri#id_token=...&state=...`."""
        answer = session.get(authorization_url, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert answer.status_code == 302, (answer.status_code, answer.text[:2000])
        return answer.headers["Location"]

    def id_token(self, nonce=None):
        """A fresh ID token for alice (with `kid`, email and names), through the implicit flow."""
        state = secrets.token_urlsafe(8)
        query = {"client_id": self.client_id, "redirect_uri": self.redirect_uris[0], "response_type": "id_token",
                 "scope": "openid email profile", "state": state, "nonce": nonce or secrets.token_urlsafe(8)}
        with requests.Session() as session:
            location = self.authorize(self.log_in(session), f"{self.issuer}/authorize?{urlencode(query)}")
        fragment = parse_qs(urlsplit(location).fragment)
        assert fragment.get("state") == [state] and "id_token" in fragment, location
        return fragment["id_token"][0]
