"""Session cookies through Firebase's own Admin SDK (Python, from PyPI, unmodified) against the live binary.

`create_session_cookie` trades a signed-in user's ID token for a cookie; `verify_session_cookie(check_revoked=True)`
accepts it until the account's sessions end: a revocation, a password change, a disable or a deletion. In emulator mode
the SDK checks no signature, so each cookie is also verified with PyJWT against the JWKS Latchkey publishes.
"""

import datetime
import time

import jwt
import pytest
import requests
from firebase_admin import auth, exceptions

from harness import HTTP_TIMEOUT, PROJECT_ID, post

SESSION_ISSUER = f"https://session.firebase.google.com/{PROJECT_ID}"


def signed_in(server, app, email, password="a long password"):
    """A password account made by the admin, signed in through the REST API: (uid, idToken)."""
    user = auth.create_user(email=email, password=password, app=app)
    answer = post(server, "accounts:signInWithPassword", json={"email": email, "password": password})
    assert answer.status_code == 200, answer.text
    return user.uid, answer.json()["idToken"]


def verified_signature(server, cookie):
    """The cookie's claims, its signature, issuer, audience and expiry checked with PyJWT against the published JWKS."""
    jwks = requests.get(server.url + "/.well-known/jwks.json", timeout=HTTP_TIMEOUT).json()
    keys = {key["kid"]: key for key in jwks["keys"]}
    header = jwt.get_unverified_header(cookie)
    assert header["alg"] == "RS256" and header.get("kid") in keys, (header, list(keys))
    return jwt.decode(
        cookie, jwt.PyJWK(keys[header["kid"]]).key, algorithms=["RS256"], audience=PROJECT_ID, issuer=SESSION_ISSUER,
        options={"require": ["iss", "aud", "sub", "iat", "exp", "auth_time"]})


STORES = pytest.mark.parametrize("admin", ["sqlite", "postgres"], indirect=True)


@STORES
def test_a_session_cookie_carries_the_id_tokens_claims_and_is_signed_with_a_published_key(admin):
    server, app = admin
    uid, id_token = signed_in(server, app, "alice@example.com")
    auth.set_custom_user_claims(uid, {"role": "editor"}, app=app)
    id_token = post(server, "accounts:signInWithPassword", json={"email": "alice@example.com", "password": "a long password"}).json()["idToken"]

    cookie = auth.create_session_cookie(id_token, expires_in=datetime.timedelta(hours=2), app=app)
    claims = auth.verify_session_cookie(cookie, check_revoked=True, app=app)
    assert claims["uid"] == uid and claims["email"] == "alice@example.com" and claims["role"] == "editor"
    assert claims["firebase"]["sign_in_provider"] == "password"
    signed = verified_signature(server, cookie)
    assert signed["exp"] - signed["iat"] == 7200 and signed["sub"] == uid and signed["auth_time"] == jwt.decode(
        id_token, options={"verify_signature": False})["auth_time"]

    # Out of Firebase's bounds: the SDK refuses before asking; asked anyway, so does Latchkey.
    with pytest.raises(ValueError):
        auth.create_session_cookie(id_token, expires_in=datetime.timedelta(minutes=4), app=app)
    answer = requests.post(
        f"{server.url}/v1/projects/{PROJECT_ID}:createSessionCookie", json={"idToken": id_token, "validDuration": 1_209_601},
        headers={"Authorization": "Bearer owner"}, timeout=HTTP_TIMEOUT)
    assert answer.status_code == 400 and answer.json()["error"]["message"] == "INVALID_DURATION"
    # A cookie is not an ID token.
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(cookie, app=app)
    with pytest.raises(auth.InvalidIdTokenError):
        auth.create_session_cookie(cookie, expires_in=3600, app=app)


def revoke(server, app, uid, id_token):
    auth.revoke_refresh_tokens(uid, app=app)


def change_password(server, app, uid, id_token):
    """The user changes their own password (accounts:update with the ID token)."""
    answer = post(server, "accounts:update", json={"idToken": id_token, "password": "another long password", "returnSecureToken": True})
    assert answer.status_code == 200, answer.text


def disable(server, app, uid, id_token):
    auth.update_user(uid, disabled=True, app=app)


def delete(server, app, uid, id_token):
    auth.delete_user(uid, app=app)


@STORES
@pytest.mark.parametrize("end, refusal", [
    (revoke, auth.RevokedSessionCookieError),
    (change_password, auth.RevokedSessionCookieError),
    (disable, auth.UserDisabledError),
    (delete, auth.UserNotFoundError),
], ids=["revocation", "password change", "disable", "delete"])
def test_a_session_cookie_dies_with_the_accounts_sessions(admin, end, refusal):
    server, app = admin
    uid, id_token = signed_in(server, app, "bob@example.com")
    cookie = auth.create_session_cookie(id_token, expires_in=3600, app=app)
    assert auth.verify_session_cookie(cookie, check_revoked=True, app=app)["uid"] == uid
    assert verified_signature(server, cookie)["sub"] == uid

    time.sleep(1.1)  # validSince has whole-second precision, as in Firebase
    end(server, app, uid, id_token)
    with pytest.raises(refusal):
        auth.verify_session_cookie(cookie, check_revoked=True, app=app)
    # Still well signed: only the check against the account ends it, as with Firebase.
    assert verified_signature(server, cookie)["sub"] == uid
    # Nor does the old ID token get a new cookie.
    with pytest.raises(exceptions.FirebaseError):
        auth.create_session_cookie(id_token, expires_in=3600, app=app)
