"""A server-rendered app signed in through Latchkey with a session cookie, as Firebase's session-cookie guide does it.

The browser signs in with Latchkey's REST API (a password sign-in, like the web demo's) and POSTs the ID token here;
this app trades it for a session cookie (`createSessionCookie`, with an admin token), sets it `HttpOnly; Secure;
SameSite=Lax`, and on each request verifies it against Latchkey's JWKS with PyJWT (signature, issuer, audience,
expiry), then asks Latchkey whether the account's sessions still stand (`accounts:lookup`: `validSince`, `disabled`).
A POST from another origin is refused, and signing out revokes the account's sessions and clears the cookie.

Run it with `python app.py` (see README.md for the settings); tests build it with `create_app`.
"""

import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

import jwt
import requests
from flask import Flask, abort, make_response, redirect, render_template, request

SESSION_COOKIE = "session"
CSRF_COOKIE = "csrf"
SESSION_DAYS = 5
RECENT_SIGN_IN_SECONDS = 5 * 60  # Firebase's guide: only a fresh sign-in gets a session cookie
HTTP_TIMEOUT = 10


@dataclass(frozen=True)
class Settings:
    latchkey_url: str  # where the browser and this app reach Latchkey, e.g. http://127.0.0.1:8080
    api_key: str  # one of Latchkey's `apiKeys`, for the browser's sign-in
    project_id: str  # Latchkey's `projectId`
    admin_token: str  # one of Latchkey's `adminTokens`: this app's server side only, never the browser

    @classmethod
    def from_environment(cls):
        return cls(
            latchkey_url=os.environ.get("SSR_LATCHKEY_URL", "http://127.0.0.1:8080").rstrip("/"),
            api_key=os.environ["SSR_API_KEY"],
            project_id=os.environ["SSR_PROJECT_ID"],
            admin_token=os.environ["SSR_ADMIN_TOKEN"],
        )


class Latchkey:
    """The admin calls this app makes, and the cookie's verification."""

    def __init__(self, settings):
        self.settings = settings
        self.issuer = f"https://session.firebase.google.com/{settings.project_id}"
        # Keys are cached and fetched again when a cookie names one not seen yet (a rotation).
        self.keys = jwt.PyJWKClient(f"{settings.latchkey_url}/.well-known/jwks.json", lifespan=300, timeout=HTTP_TIMEOUT)

    def admin(self, method, body):
        """POSTs an admin method of the project (`:createSessionCookie`, `/accounts:lookup`, …); its JSON answer."""
        return requests.post(
            f"{self.settings.latchkey_url}/v1/projects/{self.settings.project_id}{method}", json=body,
            headers={"Authorization": f"Bearer {self.settings.admin_token}"}, timeout=HTTP_TIMEOUT)

    def create_session_cookie(self, id_token):
        answer = self.admin(":createSessionCookie", {"idToken": id_token, "validDuration": SESSION_DAYS * 86_400})
        return answer.json()["sessionCookie"] if answer.status_code == 200 else None

    def verify(self, cookie):
        """The cookie's claims if it is Latchkey's, unexpired and its account's sessions still stand; else None."""
        try:
            key = self.keys.get_signing_key_from_jwt(cookie)
            claims = jwt.decode(
                cookie, key.key, algorithms=["RS256", "ES256"], audience=self.settings.project_id, issuer=self.issuer,
                options={"require": ["iss", "aud", "sub", "iat", "exp", "auth_time"]})
        except jwt.PyJWTError:
            return None
        # What verify_session_cookie(check_revoked=True) asks of the Admin SDKs: the account exists, is not disabled,
        # and its sessions were not ended (a revocation, a password change) after the cookie was made.
        users = self.admin("/accounts:lookup", {"localId": [claims["sub"]]}).json().get("users") or []
        if not users or users[0].get("disabled") or claims["iat"] < int(users[0].get("validSince", "0")):
            return None
        return claims

    def revoke(self, uid, cookie_issued_at):
        """Ends every session of `uid` (the Admin SDKs' `revoke_refresh_tokens`). `validSince` counts whole seconds, as
        Firebase's: a cookie made in the current second would survive, so wait for the next one first."""
        while int(time.time()) <= cookie_issued_at:
            time.sleep(0.05)
        self.admin("/accounts:update", {"localId": uid, "validSince": str(int(time.time()))})


def create_app(settings):
    here = Path(__file__).resolve().parent
    app = Flask(__name__, root_path=str(here))
    latchkey = Latchkey(settings)

    def same_origin():
        """A POST from this app's own pages: the browser says so (`Sec-Fetch-Site`, `Origin`), and the form carries the
        token this app put in the page and in a cookie another site can neither read nor set."""
        if request.headers.get("Sec-Fetch-Site", "same-origin") != "same-origin":
            return False
        if request.headers.get("Origin", request.host_url.rstrip("/")) != request.host_url.rstrip("/"):
            return False
        sent, expected = request.form.get("csrfToken", ""), request.cookies.get(CSRF_COOKIE, "")
        return bool(expected) and secrets.compare_digest(sent, expected)

    def signed_in():
        cookie = request.cookies.get(SESSION_COOKIE)
        return latchkey.verify(cookie) if cookie else None

    def page(template, status=200, **values):
        """A page with a fresh CSRF token (also set as a cookie), which only this app's scripts and forms send back."""
        token = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(32)
        response = make_response(render_template(template, csrf_token=token, settings=settings, **values), status)
        response.set_cookie(CSRF_COOKIE, token, httponly=True, secure=True, samesite="Strict")
        response.headers["Content-Security-Policy"] = (
            f"default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self' {settings.latchkey_url}; "
            "form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/")
    def home():
        if signed_in():
            return redirect("/profile")
        return page("signin.html")

    @app.post("/sessionLogin")
    def session_login():
        if not same_origin():
            return page("refused.html", 403)
        cookie = latchkey.create_session_cookie(request.form.get("idToken", ""))
        claims = latchkey.verify(cookie) if cookie else None
        if claims is None or time.time() - claims["auth_time"] > RECENT_SIGN_IN_SECONDS:
            abort(401)
        response = make_response("", 204)
        response.set_cookie(
            SESSION_COOKIE, cookie, max_age=SESSION_DAYS * 86_400, httponly=True, secure=True, samesite="Lax")
        return response

    @app.get("/profile")
    def profile():
        claims = signed_in()
        if claims is None:
            response = redirect("/")
            response.delete_cookie(SESSION_COOKIE, httponly=True, secure=True, samesite="Lax")
            return response
        return page("profile.html", claims=claims)

    @app.post("/sessionLogout")
    def session_logout():
        if not same_origin():
            return page("refused.html", 403)
        claims = signed_in()
        if claims:
            latchkey.revoke(claims["sub"], claims["iat"])
        response = redirect("/", code=303)
        response.delete_cookie(SESSION_COOKIE, httponly=True, secure=True, samesite="Lax")
        return response

    return app


if __name__ == "__main__":
    create_app(Settings.from_environment()).run(host="127.0.0.1", port=int(os.environ.get("SSR_PORT", "5000")))
