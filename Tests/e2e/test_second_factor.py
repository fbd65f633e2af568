"""The TOTP second factor (issue #18, spec §8) through the live binary, with `pyotp` as the authenticator app.

Enrollment after an email-link sign-in, built into an `otpauth://` URI exactly as the iOS and JS SDKs build it; the
challenge that every first factor (email link, password, identity provider) then answers with, finished by
`mfaSignIn:finalize`; wrong, reused and brute-forced codes, expired challenges and enrollment sessions; withdrawal, admin
removal, the takeover of an unverified account that carries an attacker's factor; the error envelopes; the iOS path
families; and the admin view of the configuration.

Codes: enrollment spends the current 30-second step, so every later code is taken from a later step
(`Enrolled.code`, RFC 6238 §5.2: an accepted step is never accepted again), always inside the default window of 5 steps.
"""

import base64
import email
import email.policy
import re
import sqlite3
import time
from dataclasses import dataclass
from datetime import datetime, timezone

import pyotp
import pytest
import requests

from harness import (
    API_KEY, HTTP_TIMEOUT, MAIL_TIMEOUT, NO_RATE_LIMITS, PROJECT_ID, code_of, complete, error_message, post, read_link, refresh, send,
    verify,
)

ADMIN_TOKEN = "owner"
APP_NAME = "Latchkey"  # the default `appName`: the issuer the SDKs put in the otpauth URI, and the name in email subjects
ENABLED = {"state": "ENABLED"}
MILLISECOND_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
ADDED = f"An authenticator was added to your {APP_NAME} account"
REMOVED = f"An authenticator was removed from your {APP_NAME} account"
ALL_REMOVED = f"Every second step of signing in was removed from your {APP_NAME} account"
TOKEN_FIELDS = {"idToken", "refreshToken", "expiresIn"}
CHALLENGE_FIELDS = {"mfaPendingCredential", "mfaInfo"}


# --- The server and its mail ----------------------------------------------------------------------


def start(start_latchkey, **config):
    """A server with second factors enabled and `owner` as admin token; `config` adds to (or replaces) that."""
    return start_latchkey(**{"mfa": ENABLED, "adminTokens": [ADMIN_TOKEN], **config})


class Mailbox:
    """The server's outbox, read by recipient and subject rather than by number: the tests need not know every notice
    a step sends to know that the one they expect arrived."""

    def __init__(self, server):
        self.server = server
        self.taken = set()

    def take(self, to, subject):
        """The first message not yet taken for `to` whose subject is `subject`, waiting for it to be written."""
        deadline = time.monotonic() + MAIL_TIMEOUT
        while True:
            for path in sorted(self.server.outbox.glob("*.eml")):
                if path.name in self.taken:
                    continue
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                if message["To"] == to and message["Subject"] == subject:
                    self.taken.add(path.name)
                    return int(path.stem), message
            assert time.monotonic() < deadline, f"no {subject!r} to {to} after {MAIL_TIMEOUT} s:\n{self.server.logs()}"
            time.sleep(0.05)

    def link(self, to):
        """The link of the next sign-in email to `to`."""
        number, _ = self.take(to, f"Sign in to {APP_NAME}")
        return read_link(self.server, number)


def link_sign_in(server, mail, address):
    """Sends a sign-in link to `address`, reads it and completes it: the answer, and the code (to try it again)."""
    send(server, address)
    code = code_of(mail.link(address))
    return complete(server, address, code), code


def signed_in_by_link(server, mail, address):
    answer, _ = link_sign_in(server, mail, address)
    assert answer.status_code == 200, answer.text
    assert not CHALLENGE_FIELDS & answer.json().keys(), answer.text
    return answer.json()


# --- The calls --------------------------------------------------------------------------------------


def v2(server, method, body, prefix="v2", **kwargs):
    """POST `accounts/<method>` of Identity Toolkit v2 under `prefix` (one of the path families), with the API key."""
    return requests.post(f"{server.url}/{prefix}/accounts/{method}", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, json=body, **kwargs)


def admin(server, method, body):
    """An Identity Toolkit v1 method called as the Admin SDK does: project-scoped, with the admin token."""
    return requests.post(f"{server.url}/v1/projects/{PROJECT_ID}/{method}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                         json=body, timeout=HTTP_TIMEOUT)


def lookup(server, id_token):
    answer = post(server, "accounts:lookup", json={"idToken": id_token})
    assert answer.status_code == 200, answer.text
    [user] = answer.json()["users"]
    return user


def refused(answer, code):
    """`answer` is Identity Toolkit's 400 envelope for `code` (the part of the message before " : ")."""
    assert answer.status_code == 400, (code, answer.status_code, answer.text)
    assert error_message(answer).split(" : ")[0] == code, (code, answer.text)
    return answer


def refused_as_malformed(answer, field=None):
    """`answer` is the 400 Google gives a body that does not fit the method's schema: not a JSON object, or `field` (a
    dotted path) of the wrong type. (Fields with a code of their own, such as `idToken`, earn that code instead.)"""
    assert answer.status_code == 400, answer.text
    envelope = answer.json()["error"]
    assert envelope["code"] == 400 and envelope.get("status") == "INVALID_ARGUMENT", answer.text
    assert envelope["message"].startswith("Invalid JSON payload received."), answer.text
    if field:
        assert envelope["message"] == f"Invalid JSON payload received. Invalid value at '{field}'.", answer.text


def second_factor_of(claims):
    firebase = claims["firebase"]
    return firebase.get("sign_in_second_factor"), firebase.get("second_factor_identifier")


def milliseconds_time(text):
    assert MILLISECOND_TIME.match(text), text
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()


# --- TOTP as the SDKs and an authenticator app do it ------------------------------------------------


def otpauth_uri(info, account_name, issuer=APP_NAME):
    """The QR code's URL, as `TOTPSecret.generateQRCodeURL` (iOS) and `TotpSecret.generateQrCodeUrl` (JS) build it:
    no percent-encoding, no `period`."""
    return (f"otpauth://totp/{issuer}:{account_name}?secret={info['sharedSecretKey']}&issuer={issuer}"
            f"&algorithm={info['hashingAlgorithm']}&digits={info['verificationCodeLength']}")


def wrong_code(totp):
    """Six digits that are no code of any step near now."""
    near = {totp.at(time.time() + 30 * offset) for offset in range(-12, 13)}
    return next(code for code in (f"{digit}" * 6 for digit in range(10)) if code not in near)


@dataclass
class Enrolled:
    """An account with one authenticator app, and the session its enrollment returned."""

    server: object
    mail: Mailbox
    address: str
    local_id: str
    totp: pyotp.TOTP
    factor_id: str
    id_token: str
    refresh_token: str
    enrollment_code: str
    steps_ahead: int = 0

    def code(self):
        """The code of a step later than any used before (the replay rule), at most 4 steps ahead of now."""
        self.steps_ahead += 1
        assert self.steps_ahead <= 4, "a test should not need more codes than the window holds"
        return self.totp.at(time.time() + 30 * self.steps_ahead)

    def challenge(self):
        """Signs in by email link and returns the challenge's pending credential."""
        answer, _ = link_sign_in(self.server, self.mail, self.address)
        assert answer.status_code == 200, answer.text
        assert CHALLENGE_FIELDS <= answer.json().keys(), answer.text
        return answer.json()["mfaPendingCredential"]

    def finalize(self, credential, code, **kwargs):
        return finalize_sign_in(self.server, credential, self.factor_id, code, **kwargs)


def start_enrollment(server, id_token, prefix="v2"):
    answer = v2(server, "mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}}, prefix=prefix)
    assert answer.status_code == 200, answer.text
    return answer.json()["totpSessionInfo"]


def finalize_enrollment(server, id_token, session_info, code, prefix="v2", **extra):
    body = {"idToken": id_token, "totpVerificationInfo": {"sessionInfo": session_info, "verificationCode": code}, **extra}
    return v2(server, "mfaEnrollment:finalize", body, prefix=prefix)


def finalize_sign_in(server, credential, factor_id, code, prefix="v2"):
    body = {"mfaPendingCredential": credential, "mfaEnrollmentId": factor_id, "totpVerificationInfo": {"verificationCode": code}}
    return v2(server, "mfaSignIn:finalize", body, prefix=prefix)


def enroll(server, mail, session, address, provider="password"):
    """Enrolls an authenticator app for the signed-in `session` (a sign-in answer), as an SDK and its user would."""
    info = start_enrollment(server, session["idToken"])
    totp = pyotp.parse_uri(otpauth_uri(info, address))
    code = totp.now()
    answer = finalize_enrollment(server, session["idToken"], info["sessionInfo"], code)
    assert answer.status_code == 200, answer.text
    tokens = answer.json()
    _, factor_id = second_factor_of(verify(server, tokens["idToken"], provider=provider))
    mail.take(address, ADDED)
    return Enrolled(server, mail, address, session["localId"], totp, factor_id, tokens["idToken"], tokens["refreshToken"], code)


@pytest.fixture
def enrolled(start_latchkey):
    """alice@example.com, signed in by email link, with an authenticator app."""
    server = start(start_latchkey)
    mail = Mailbox(server)
    return enroll(server, mail, signed_in_by_link(server, mail, "alice@example.com"), "alice@example.com")


# --- Enrollment -------------------------------------------------------------------------------------


def test_enrollment_after_an_email_link_sign_in(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    session = signed_in_by_link(server, mail, "alice@example.com")
    first_claims = verify(server, session["idToken"])
    assert second_factor_of(first_claims) == (None, None)

    started = v2(server, "mfaEnrollment:start", {"idToken": session["idToken"], "totpEnrollmentInfo": {}})
    assert started.status_code == 200, started.text
    assert started.json().keys() == {"totpSessionInfo"}
    info = started.json()["totpSessionInfo"]
    assert info.keys() == {"sharedSecretKey", "verificationCodeLength", "hashingAlgorithm", "periodSec", "sessionInfo", "finalizeEnrollmentTime"}
    # Numbers as numbers and the algorithm as the bare Key-Uri-Format name: iOS reads them with `as? Int`/`as? String`.
    assert type(info["verificationCodeLength"]) is int and info["verificationCodeLength"] == 6
    assert type(info["periodSec"]) is int and info["periodSec"] == 30
    assert info["hashingAlgorithm"] == "SHA1"
    assert re.fullmatch(r"[A-Z2-7]{32}", info["sharedSecretKey"]), info["sharedSecretKey"]
    assert len(base64.b32decode(info["sharedSecretKey"])) == 20
    assert isinstance(info["sessionInfo"], str) and len(info["sessionInfo"]) >= 20
    assert abs(milliseconds_time(info["finalizeEnrollmentTime"]) - (time.time() + 600)) < 30

    uri = otpauth_uri(info, "alice@example.com")
    totp = pyotp.parse_uri(uri)
    assert isinstance(totp, pyotp.TOTP)
    assert (totp.secret, totp.digits, totp.interval, totp.issuer, totp.name) == (info["sharedSecretKey"], 6, 30, APP_NAME, "alice@example.com")

    finalized = finalize_enrollment(server, session["idToken"], info["sessionInfo"], totp.now(), displayName="Pixel authenticator")
    assert finalized.status_code == 200, finalized.text
    tokens = finalized.json()
    assert tokens.keys() == {"idToken", "refreshToken"}
    claims = verify(server, tokens["idToken"], provider="password")
    kind, factor_id = second_factor_of(claims)
    assert kind == "totp"
    assert re.fullmatch(r"[A-Za-z0-9]{28}", factor_id), factor_id
    assert claims["sub"] == session["localId"] and claims["auth_time"] == first_claims["auth_time"]

    # Enrolling revokes every other session of the account.
    refused(refresh(server, session["refreshToken"]), "TOKEN_EXPIRED")
    refused(post(server, "accounts:lookup", json={"idToken": session["idToken"]}), "TOKEN_EXPIRED")
    refreshed = refresh(server, tokens["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert second_factor_of(verify(server, refreshed.json()["id_token"])) == ("totp", factor_id)

    user = lookup(server, tokens["idToken"])
    [entry] = user["mfaInfo"]
    assert entry.keys() == {"mfaEnrollmentId", "displayName", "enrolledAt", "totpInfo"}
    assert entry["mfaEnrollmentId"] == factor_id and entry["displayName"] == "Pixel authenticator" and entry["totpInfo"] == {}
    assert abs(milliseconds_time(entry["enrolledAt"]) - time.time()) < 30

    _, notice = mail.take("alice@example.com", ADDED)
    text = notice.get_body(preferencelist=("plain",)).get_content()
    assert text.strip() and info["sharedSecretKey"] not in text


def test_the_shared_secret_is_neither_logged_nor_stored_in_clear(enrolled):
    secret = enrolled.totp.secret
    assert secret not in enrolled.server.logs()
    stored = b"".join(path.read_bytes() for path in (enrolled.server.directory / "data").glob("latchkey.sqlite*"))
    assert secret.encode() not in stored and base64.b32decode(secret) not in stored


def test_an_enrollment_session_is_used_once_and_a_wrong_code_does_not_use_it(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    session = signed_in_by_link(server, mail, "alice@example.com")
    info = start_enrollment(server, session["idToken"])
    totp = pyotp.TOTP(info["sharedSecretKey"])
    for code in [wrong_code(totp), "12345", "1234567", "abcdef", "12 456"]:
        refused(finalize_enrollment(server, session["idToken"], info["sessionInfo"], code), "INVALID_CODE")
    finalized = finalize_enrollment(server, session["idToken"], info["sessionInfo"], totp.now())
    assert finalized.status_code == 200, finalized.text
    again = finalize_enrollment(server, finalized.json()["idToken"], info["sessionInfo"], totp.at(time.time() + 30))
    refused(again, "INVALID_SESSION_INFO")
    assert len(lookup(server, finalized.json()["idToken"])["mfaInfo"]) == 1


def test_another_users_enrollment_session_is_refused(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    alice = signed_in_by_link(server, mail, "alice@example.com")
    bob = signed_in_by_link(server, mail, "bob@example.com")
    info = start_enrollment(server, alice["idToken"])
    code = pyotp.TOTP(info["sharedSecretKey"]).now()
    refused(finalize_enrollment(server, bob["idToken"], info["sessionInfo"], code), "INVALID_SESSION_INFO")
    assert "mfaInfo" not in lookup(server, bob["idToken"])


def test_an_expired_enrollment_session_is_refused(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    session = signed_in_by_link(server, mail, "alice@example.com")
    info = start_enrollment(server, session["idToken"])
    # Ten minutes are not waited for: the session's stored deadline is moved into the past.
    with sqlite3.connect(server.directory / "data" / "latchkey.sqlite") as database:
        assert database.execute("UPDATE pending_enrollments SET expires_at = ?", [time.time() - 1]).rowcount == 1
    answer = finalize_enrollment(server, session["idToken"], info["sessionInfo"], pyotp.TOTP(info["sharedSecretKey"]).now())
    refused(answer, "SESSION_EXPIRED")


def test_enrollment_needs_a_verified_email_and_a_first_factor_that_can_carry_it(start_latchkey):
    server = start(start_latchkey)
    unverified = post(server, "accounts:signUp", json={"email": "ursula@example.com", "password": "ursula-password"}).json()
    refused(v2(server, "mfaEnrollment:start", {"idToken": unverified["idToken"], "totpEnrollmentInfo": {}}), "UNVERIFIED_EMAIL")
    anonymous = post(server, "accounts:signUp", json={"returnSecureToken": True}).json()
    refused(v2(server, "mfaEnrollment:start", {"idToken": anonymous["idToken"], "totpEnrollmentInfo": {}}), "UNSUPPORTED_FIRST_FACTOR")


def test_the_number_of_factors_is_limited(start_latchkey):
    server = start(start_latchkey, mfa={"state": "ENABLED", "maxFactors": 1})
    mail = Mailbox(server)
    account = enroll(server, mail, signed_in_by_link(server, mail, "alice@example.com"), "alice@example.com")
    refused(v2(server, "mfaEnrollment:start", {"idToken": account.id_token, "totpEnrollmentInfo": {}}), "SECOND_FACTOR_LIMIT_EXCEEDED")


def test_enrollment_and_withdrawal_need_a_recent_sign_in(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    account = enroll(server, mail, signed_in_by_link(server, mail, "alice@example.com"), "alice@example.com")
    auth_time = verify(server, account.id_token)["auth_time"]
    server.stop()
    server.configure(security={"serverSecretFile": "data/server-secret", "recentLoginSeconds": 1}).start()
    time.sleep(max(0.0, auth_time + 2.1 - time.time()))  # usually nothing left to wait after the restart
    refused(v2(server, "mfaEnrollment:start", {"idToken": account.id_token, "totpEnrollmentInfo": {}}), "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    withdrawn = v2(server, "mfaEnrollment:withdraw", {"idToken": account.id_token, "mfaEnrollmentId": account.factor_id})
    refused(withdrawn, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
    assert len(lookup(server, account.id_token)["mfaInfo"]) == 1


# --- Signing in with the second factor ----------------------------------------------------------------


def test_an_email_link_sign_in_stops_at_the_challenge_then_the_code_finishes_it(enrolled):
    server = enrolled.server
    enrolled_claims = verify(server, enrolled.id_token)
    send(server, enrolled.address)
    code = code_of(enrolled.mail.link(enrolled.address))
    answer = complete(server, enrolled.address, code)
    assert answer.status_code == 200, answer.text
    challenge = answer.json()
    assert not TOKEN_FIELDS & challenge.keys(), challenge
    assert challenge["localId"] == enrolled.local_id and challenge["email"] == enrolled.address
    assert isinstance(challenge["mfaPendingCredential"], str) and challenge["mfaPendingCredential"]
    [entry] = challenge["mfaInfo"]
    assert entry["mfaEnrollmentId"] == enrolled.factor_id and entry["totpInfo"] == {}
    assert entry == lookup(server, enrolled.id_token)["mfaInfo"][0]
    # The link's code was spent when the challenge was issued.
    refused(complete(server, enrolled.address, code), "INVALID_OOB_CODE")

    # The challenge is no sign-in yet: lastLoginAt moves only when the second factor passes.
    last_login = lookup(server, enrolled.id_token)["lastLoginAt"]
    before = time.time()
    finished = enrolled.finalize(challenge["mfaPendingCredential"], enrolled.code())
    assert finished.status_code == 200, finished.text
    assert finished.json().keys() == {"idToken", "refreshToken"}
    claims = verify(server, finished.json()["idToken"], provider="password")
    assert claims["sub"] == enrolled.local_id
    assert second_factor_of(claims) == ("totp", enrolled.factor_id)
    assert claims["auth_time"] >= int(before) - 1 and claims["auth_time"] >= enrolled_claims["auth_time"]

    assert int(lookup(server, finished.json()["idToken"])["lastLoginAt"]) > int(last_login)

    refreshed = refresh(server, finished.json()["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert second_factor_of(verify(server, refreshed.json()["id_token"])) == ("totp", enrolled.factor_id)

    # The pending credential is spent too.
    refused(enrolled.finalize(challenge["mfaPendingCredential"], enrolled.code()), "INVALID_MFA_PENDING_CREDENTIAL")


def test_a_password_sign_in_stops_at_the_challenge(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    created = post(server, "accounts:signUp", json={"email": "bob@example.com", "password": "first-password"})
    assert created.status_code == 200, created.text
    # The link proves the address; it drops the password nobody had proven, so the owner sets one again.
    session = signed_in_by_link(server, mail, "bob@example.com")
    assert session["localId"] == created.json()["localId"]
    updated = post(server, "accounts:update", json={"idToken": session["idToken"], "password": "bob-password", "returnSecureToken": True})
    assert updated.status_code == 200, updated.text
    session = {"localId": session["localId"], "idToken": updated.json().get("idToken", session["idToken"])}
    account = enroll(server, mail, session, "bob@example.com")

    refused(post(server, "accounts:signInWithPassword", json={"email": "bob@example.com", "password": "wrong-password"}), "INVALID_LOGIN_CREDENTIALS")
    answer = post(server, "accounts:signInWithPassword", json={"email": "bob@example.com", "password": "bob-password", "returnSecureToken": True})
    assert answer.status_code == 200, answer.text
    challenge = answer.json()
    assert not TOKEN_FIELDS & challenge.keys(), challenge
    assert challenge["localId"] == account.local_id and challenge["email"] == "bob@example.com"
    assert [entry["mfaEnrollmentId"] for entry in challenge["mfaInfo"]] == [account.factor_id]

    finished = account.finalize(challenge["mfaPendingCredential"], account.code())
    assert finished.status_code == 200, finished.text
    assert second_factor_of(verify(server, finished.json()["idToken"], provider="password")) == ("totp", account.factor_id)


def test_an_identity_provider_sign_in_stops_at_the_challenge(start_latchkey, provider):
    server = start(start_latchkey, identityProviders=[provider.settings()])
    mail = Mailbox(server)
    claims = {"email": "carol@example.com", "email_verified": True}

    def sign_in():
        body = {"requestUri": "http://localhost", "postBody": f"id_token={provider.id_token('carol-1', claims)}&providerId=oidc.mock",
                "returnSecureToken": True}
        return post(server, "accounts:signInWithIdp", json=body)

    first = sign_in()
    assert first.status_code == 200, first.text
    account = enroll(server, mail, first.json(), "carol@example.com", provider="oidc.mock")

    answer = sign_in()
    assert answer.status_code == 200, answer.text
    challenge = answer.json()
    assert not TOKEN_FIELDS & challenge.keys(), challenge
    assert challenge["localId"] == account.local_id
    assert challenge["providerId"] == "oidc.mock" and challenge["federatedId"] == "carol-1" and challenge["email"] == "carol@example.com"
    assert [entry["mfaEnrollmentId"] for entry in challenge["mfaInfo"]] == [account.factor_id]

    finished = account.finalize(challenge["mfaPendingCredential"], account.code())
    assert finished.status_code == 200, finished.text
    token_claims = verify(server, finished.json()["idToken"], provider="oidc.mock")
    assert second_factor_of(token_claims) == ("totp", account.factor_id)


def test_accounts_without_a_factor_are_not_challenged(enrolled):
    """Challenges are per account: beside an enrolled one, sign-up, password, email-link and anonymous answers carry
    tokens and neither challenge field (the JS SDK takes their mere presence for a challenge)."""
    server = enrolled.server
    created = post(server, "accounts:signUp", json={"email": "dave@example.com", "password": "dave-password", "returnSecureToken": True})
    assert created.status_code == 200 and not CHALLENGE_FIELDS & created.json().keys(), created.text
    signed_in = post(server, "accounts:signInWithPassword", json={"email": "dave@example.com", "password": "dave-password"})
    assert signed_in.status_code == 200 and not CHALLENGE_FIELDS & signed_in.json().keys(), signed_in.text
    assert signed_in.json()["idToken"] and "mfaInfo" not in lookup(server, signed_in.json()["idToken"])
    assert signed_in_by_link(server, enrolled.mail, "erin@example.com")["idToken"]
    anonymous = post(server, "accounts:signUp", json={"returnSecureToken": True})
    assert anonymous.status_code == 200 and not CHALLENGE_FIELDS & anonymous.json().keys(), anonymous.text


# --- Wrong, reused and guessed codes, and expired challenges -------------------------------------------


def test_a_wrong_code_is_refused_and_the_challenge_stays_open(enrolled):
    credential = enrolled.challenge()
    refused(enrolled.finalize(credential, wrong_code(enrolled.totp)), "INVALID_CODE")
    refused(enrolled.finalize(credential, "12345"), "INVALID_CODE")
    finished = enrolled.finalize(credential, enrolled.code())
    assert finished.status_code == 200, finished.text


def test_a_code_is_accepted_once(enrolled):
    # The step spent at enrollment is refused at sign-in.
    credential = enrolled.challenge()
    refused(enrolled.finalize(credential, enrolled.enrollment_code), "INVALID_CODE")
    code = enrolled.code()
    assert enrolled.finalize(credential, code).status_code == 200
    # The same code again, on a new challenge: a replay.
    credential = enrolled.challenge()
    refused(enrolled.finalize(credential, code), "INVALID_CODE")
    assert enrolled.finalize(credential, enrolled.code()).status_code == 200


def test_five_wrong_codes_end_the_challenge(enrolled):
    credential = enrolled.challenge()
    for _ in range(5):
        refused(enrolled.finalize(credential, wrong_code(enrolled.totp)), "INVALID_CODE")
    code = enrolled.code()
    refused(enrolled.finalize(credential, code), "INVALID_MFA_PENDING_CREDENTIAL")
    # The account is not locked: a new challenge takes the same, still unused, code.
    assert enrolled.finalize(enrolled.challenge(), code).status_code == 200


def test_wrong_codes_count_per_account_across_challenges(start_latchkey):
    server = start(start_latchkey, rateLimits={**NO_RATE_LIMITS, "secondFactorPerAccount": [{"limit": 3, "windowSeconds": 3600}]})
    mail = Mailbox(server)
    account = enroll(server, mail, signed_in_by_link(server, mail, "alice@example.com"), "alice@example.com")
    for credential in [account.challenge(), account.challenge(), account.challenge()]:
        refused(account.finalize(credential, wrong_code(account.totp)), "INVALID_CODE")
    # The window is full: even the right code is refused, on a fresh challenge.
    refused(account.finalize(account.challenge(), account.code()), "TOO_MANY_ATTEMPTS_TRY_LATER")


def test_an_expired_challenge_is_refused(enrolled):
    credential = enrolled.challenge()
    # Waiting out `mfa.pendingCredentialTtlSeconds` (60 s at least) would make the suite slow: the challenge's stored
    # deadline is moved into the past instead. The Swift domain tests check the deadline itself with a fixed clock.
    with sqlite3.connect(enrolled.server.directory / "data" / "latchkey.sqlite") as database:
        moved = database.execute("UPDATE second_factor_challenges SET expires_at = ? WHERE account_id = ?", [time.time() - 1, enrolled.local_id])
        assert moved.rowcount == 1
    refused(enrolled.finalize(credential, enrolled.code()), "INVALID_MFA_PENDING_CREDENTIAL")
    refused(v2(enrolled.server, "mfaSignIn:start", {"mfaPendingCredential": credential, "mfaEnrollmentId": enrolled.factor_id}),
            "INVALID_MFA_PENDING_CREDENTIAL")


def test_a_disabled_account_cannot_finish_the_challenge(enrolled):
    credential = enrolled.challenge()
    disabled = admin(enrolled.server, "accounts:update", {"localId": enrolled.local_id, "disableUser": True})
    assert disabled.status_code == 200, disabled.text
    refused(enrolled.finalize(credential, enrolled.code()), "USER_DISABLED")


# --- Removing factors ----------------------------------------------------------------------------------


def test_a_withdrawn_factor_no_longer_challenges(enrolled):
    server = enrolled.server
    withdrawn = v2(server, "mfaEnrollment:withdraw", {"idToken": enrolled.id_token, "mfaEnrollmentId": enrolled.factor_id})
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json().keys() == {"idToken", "refreshToken"}
    claims = verify(server, withdrawn.json()["idToken"], provider="password")
    assert second_factor_of(claims) == (None, None)
    assert "mfaInfo" not in lookup(server, withdrawn.json()["idToken"])
    refreshed = refresh(server, withdrawn.json()["refreshToken"])
    assert refreshed.status_code == 200 and second_factor_of(verify(server, refreshed.json()["id_token"])) == (None, None)
    # Withdrawing does not revoke sessions (spec §8.5).
    assert refresh(server, enrolled.refresh_token).status_code == 200

    enrolled.mail.take(enrolled.address, REMOVED)
    signed_in_by_link(server, enrolled.mail, enrolled.address)
    again = v2(server, "mfaEnrollment:withdraw", {"idToken": withdrawn.json()["idToken"], "mfaEnrollmentId": enrolled.factor_id})
    refused(again, "MFA_ENROLLMENT_NOT_FOUND")


def test_an_admin_removes_every_factor(enrolled):
    server = enrolled.server
    removed = admin(server, "accounts:update", {"localId": enrolled.local_id, "mfa": {}})
    assert removed.status_code == 200, removed.text
    assert removed.json()["localId"] == enrolled.local_id
    looked_up = admin(server, "accounts:lookup", {"localId": [enrolled.local_id]})
    assert looked_up.status_code == 200, looked_up.text
    [user] = looked_up.json()["users"]
    assert "mfaInfo" not in user
    enrolled.mail.take(enrolled.address, ALL_REMOVED)
    session = signed_in_by_link(server, enrolled.mail, enrolled.address)
    assert second_factor_of(verify(server, session["idToken"])) == (None, None)


def test_an_admin_cannot_write_factors(enrolled):
    server = enrolled.server
    entry = {"mfaEnrollmentId": "x" * 28, "displayName": "forged", "enrolledAt": "2026-01-01T00:00:00.000Z", "totpInfo": {}}
    refused(admin(server, "accounts:update", {"localId": enrolled.local_id, "mfa": {"enrollments": [entry]}}), "INVALID_ARGUMENT")
    [kept] = lookup(server, enrolled.id_token)["mfaInfo"]
    assert kept["mfaEnrollmentId"] == enrolled.factor_id


def test_an_email_link_takes_over_an_unverified_account_with_its_factors(start_latchkey):
    """An account with an authenticator ends up on the victim's address, unverified. The victim's email link must take
    the account over without asking for the earlier holder's code. (A user can no longer move a proven address to an
    unproven one, so an admin puts it there.)"""
    server = start(start_latchkey)
    mail = Mailbox(server)
    attacker = enroll(server, mail, signed_in_by_link(server, mail, "mallory@example.com"), "mallory@example.com")
    refused(post(server, "accounts:update", json={"idToken": attacker.id_token, "email": "victim@example.com"}), "OPERATION_NOT_ALLOWED")
    moved = admin(server, "accounts:update", {"localId": attacker.local_id, "email": "victim@example.com"})
    assert moved.status_code == 200, moved.text
    assert moved.json()["email"] == "victim@example.com" and moved.json().get("emailVerified") is not True
    attacker_refresh, attacker_id_token = attacker.refresh_token, attacker.id_token
    user = lookup(server, attacker_id_token)
    assert user["emailVerified"] is False and len(user["mfaInfo"]) == 1

    answer, _ = link_sign_in(server, mail, "victim@example.com")
    assert answer.status_code == 200, answer.text
    victim = answer.json()
    assert not CHALLENGE_FIELDS & victim.keys(), victim
    assert victim["localId"] == attacker.local_id and victim["idToken"]
    claims = verify(server, victim["idToken"])
    assert claims["email"] == "victim@example.com" and claims["email_verified"] is True
    assert second_factor_of(claims) == (None, None)
    assert "mfaInfo" not in lookup(server, victim["idToken"])

    refused(refresh(server, attacker_refresh), "TOKEN_EXPIRED")
    refused(post(server, "accounts:lookup", json={"idToken": attacker_id_token}), "TOKEN_EXPIRED")
    # The attacker's authenticator opens nothing any more: the victim's next sign-in is not challenged either.
    signed_in_by_link(server, mail, "victim@example.com")


# --- Error envelopes -------------------------------------------------------------------------------------


def test_enrollment_start_refusals(enrolled):
    server, token = enrolled.server, enrolled.id_token
    cases = [
        ({}, "MISSING_ID_TOKEN"),
        ({"totpEnrollmentInfo": {}}, "MISSING_ID_TOKEN"),
        ({"idToken": "", "totpEnrollmentInfo": {}}, "MISSING_ID_TOKEN"),
        ({"idToken": "not.a.token", "totpEnrollmentInfo": {}}, "INVALID_ID_TOKEN"),
        ({"idToken": token}, "INVALID_ARGUMENT"),
        ({"idToken": token, "phoneEnrollmentInfo": {}}, "MISSING_PHONE_NUMBER"),
        ({"idToken": token, "phoneEnrollmentInfo": {"phoneNumber": "+1555"}}, "INVALID_PHONE_NUMBER"),
        ({"idToken": 42, "totpEnrollmentInfo": {}}, "INVALID_ID_TOKEN"),
    ]
    for body, code in cases:
        refused(v2(server, "mfaEnrollment:start", body), code)
    refused_as_malformed(v2(server, "mfaEnrollment:start", {"idToken": token, "totpEnrollmentInfo": "yes"}), "totpEnrollmentInfo")
    refused_as_malformed(v2(server, "mfaEnrollment:start", ["idToken"]))
    refused_as_malformed(v2(server, "mfaEnrollment:start", None, data="{not json", headers={"Content-Type": "application/json"}))


def test_enrollment_finalize_refusals(enrolled):
    server, token = enrolled.server, enrolled.id_token
    cases = [
        ({"totpVerificationInfo": {"sessionInfo": "s", "verificationCode": "123456"}}, "MISSING_ID_TOKEN"),
        ({"idToken": "not.a.token", "totpVerificationInfo": {"sessionInfo": "s", "verificationCode": "123456"}}, "INVALID_ID_TOKEN"),
        ({"idToken": token}, "INVALID_ARGUMENT"),
        ({"idToken": token, "totpVerificationInfo": {}}, "MISSING_SESSION_INFO"),
        ({"idToken": token, "totpVerificationInfo": {"verificationCode": "123456"}}, "MISSING_SESSION_INFO"),
        ({"idToken": token, "totpVerificationInfo": {"sessionInfo": "s"}}, "MISSING_CODE"),
        ({"idToken": token, "totpVerificationInfo": {"sessionInfo": "s", "verificationCode": ""}}, "MISSING_CODE"),
        ({"idToken": token, "totpVerificationInfo": {"sessionInfo": "unknown", "verificationCode": "123456"}}, "INVALID_SESSION_INFO"),
        ({"idToken": [token], "totpVerificationInfo": {"sessionInfo": "s", "verificationCode": "123456"}}, "INVALID_ID_TOKEN"),
        ({"idToken": token, "displayName": 7, "totpVerificationInfo": {"sessionInfo": "s", "verificationCode": "123456"}},
         "INVALID_PROFILE_ATTRIBUTE"),
    ]
    for body, code in cases:
        refused(v2(server, "mfaEnrollment:finalize", body), code)
    for body, path in [
        ({"idToken": token, "totpVerificationInfo": []}, "totpVerificationInfo"),
        ({"idToken": token, "totpVerificationInfo": {"sessionInfo": 5, "verificationCode": "123456"}}, "totpVerificationInfo.sessionInfo"),
        ({"idToken": token, "totpVerificationInfo": {"sessionInfo": "s", "verificationCode": 123456}}, "totpVerificationInfo.verificationCode"),
    ]:
        refused_as_malformed(v2(server, "mfaEnrollment:finalize", body), path)


def test_withdraw_refusals(enrolled):
    server, token = enrolled.server, enrolled.id_token
    cases = [
        ({}, "MISSING_ID_TOKEN"),
        ({"mfaEnrollmentId": enrolled.factor_id}, "MISSING_ID_TOKEN"),
        ({"idToken": "not.a.token", "mfaEnrollmentId": enrolled.factor_id}, "INVALID_ID_TOKEN"),
        ({"idToken": token}, "MFA_ENROLLMENT_NOT_FOUND"),
        ({"idToken": token, "mfaEnrollmentId": ""}, "MFA_ENROLLMENT_NOT_FOUND"),
        ({"idToken": token, "mfaEnrollmentId": "no-such-factor"}, "MFA_ENROLLMENT_NOT_FOUND"),
        ({"idToken": token, "mfaEnrollmentId": ["x"]}, "MFA_ENROLLMENT_NOT_FOUND"),
        ({"idToken": True, "mfaEnrollmentId": enrolled.factor_id}, "INVALID_ID_TOKEN"),
    ]
    for body, code in cases:
        refused(v2(server, "mfaEnrollment:withdraw", body), code)
    refused_as_malformed(v2(server, "mfaEnrollment:withdraw", "idToken"))
    assert len(lookup(server, token)["mfaInfo"]) == 1


def test_sign_in_start_refusals(enrolled):
    server = enrolled.server
    credential = enrolled.challenge()
    cases = [
        ({}, "MISSING_MFA_PENDING_CREDENTIAL"),
        ({"mfaEnrollmentId": enrolled.factor_id}, "MISSING_MFA_PENDING_CREDENTIAL"),
        ({"mfaPendingCredential": credential}, "MISSING_MFA_ENROLLMENT_ID"),
        ({"mfaPendingCredential": "unknown", "mfaEnrollmentId": enrolled.factor_id}, "INVALID_MFA_PENDING_CREDENTIAL"),
        ({"mfaPendingCredential": credential, "mfaEnrollmentId": "no-such-factor"}, "MFA_ENROLLMENT_NOT_FOUND"),
        ({"mfaPendingCredential": 1, "mfaEnrollmentId": enrolled.factor_id}, "INVALID_MFA_PENDING_CREDENTIAL"),
        ({"mfaPendingCredential": credential, "mfaEnrollmentId": {}}, "MFA_ENROLLMENT_NOT_FOUND"),
    ]
    for body, code in cases:
        refused(v2(server, "mfaSignIn:start", body), code)
    # A TOTP factor has no start step.
    totp = v2(server, "mfaSignIn:start", {"mfaPendingCredential": credential, "mfaEnrollmentId": enrolled.factor_id})
    assert totp.status_code == 400 and error_message(totp) == "INVALID_ARGUMENT : MFA provider not supported!", totp.text
    refused_as_malformed(v2(server, "mfaSignIn:start", [credential]))
    # None of that spent the challenge.
    assert enrolled.finalize(credential, enrolled.code()).status_code == 200


def test_sign_in_finalize_refusals(enrolled):
    server = enrolled.server
    credential = enrolled.challenge()
    code = enrolled.code()
    verification = {"verificationCode": code}
    cases = [
        ({}, "MISSING_CREDENTIAL"),
        ({"mfaEnrollmentId": enrolled.factor_id, "totpVerificationInfo": verification}, "MISSING_CREDENTIAL"),
        ({"mfaPendingCredential": credential, "mfaEnrollmentId": enrolled.factor_id}, "INVALID_ARGUMENT"),
        ({"mfaPendingCredential": credential, "totpVerificationInfo": verification}, "MISSING_MFA_ENROLLMENT_ID"),
        ({"mfaPendingCredential": credential, "mfaEnrollmentId": enrolled.factor_id, "totpVerificationInfo": {}}, "MISSING_CODE"),
        ({"mfaPendingCredential": "unknown", "mfaEnrollmentId": enrolled.factor_id, "totpVerificationInfo": verification},
         "INVALID_MFA_PENDING_CREDENTIAL"),
        ({"mfaPendingCredential": credential, "mfaEnrollmentId": "no-such-factor", "totpVerificationInfo": verification},
         "MFA_ENROLLMENT_NOT_FOUND"),
        ({"mfaPendingCredential": credential, "mfaEnrollmentId": 9, "totpVerificationInfo": verification}, "MFA_ENROLLMENT_NOT_FOUND"),
        ({"mfaPendingCredential": {}, "mfaEnrollmentId": enrolled.factor_id, "totpVerificationInfo": verification},
         "INVALID_MFA_PENDING_CREDENTIAL"),
    ]
    for body, expected in cases:
        refused(v2(server, "mfaSignIn:finalize", body), expected)
    wrong_type = {"mfaPendingCredential": credential, "mfaEnrollmentId": enrolled.factor_id, "totpVerificationInfo": {"verificationCode": 123456}}
    refused_as_malformed(v2(server, "mfaSignIn:finalize", wrong_type), "totpVerificationInfo.verificationCode")
    # None of that spent the challenge or the code.
    assert enrolled.finalize(credential, code).status_code == 200


def test_with_second_factors_disabled_enrollment_is_not_allowed(start_latchkey):
    server = start(start_latchkey, mfa={"state": "DISABLED"})
    mail = Mailbox(server)
    session = signed_in_by_link(server, mail, "alice@example.com")
    refused(v2(server, "mfaEnrollment:start", {"idToken": session["idToken"], "totpEnrollmentInfo": {}}), "OPERATION_NOT_ALLOWED")
    body = {"idToken": session["idToken"], "totpVerificationInfo": {"sessionInfo": "s", "verificationCode": "123456"}}
    refused(v2(server, "mfaEnrollment:finalize", body), "OPERATION_NOT_ALLOWED")


# --- Path families and the admin view ------------------------------------------------------------------


def test_the_ios_and_project_scoped_path_families(start_latchkey):
    server = start(start_latchkey)
    mail = Mailbox(server)
    ios = "identitytoolkit.googleapis.com/v2"
    scoped = f"v2/projects/{PROJECT_ID}"
    session = signed_in_by_link(server, mail, "alice@example.com")

    info = start_enrollment(server, session["idToken"], prefix=ios)
    totp = pyotp.parse_uri(otpauth_uri(info, "alice@example.com"))
    finalized = finalize_enrollment(server, session["idToken"], info["sessionInfo"], totp.now(), prefix=scoped)
    assert finalized.status_code == 200, finalized.text
    _, factor_id = second_factor_of(verify(server, finalized.json()["idToken"]))

    # The iOS SDK's legacy v3 email-link completion is challenged like v1.
    send(server, "alice@example.com")
    code = code_of(mail.link("alice@example.com"))
    v3 = requests.post(f"{server.url}/www.googleapis.com/identitytoolkit/v3/relyingparty/emailLinkSignin", params={"key": API_KEY},
                       json={"email": "alice@example.com", "oobCode": code}, timeout=HTTP_TIMEOUT)
    assert v3.status_code == 200, v3.text
    assert CHALLENGE_FIELDS <= v3.json().keys() and not TOKEN_FIELDS & v3.json().keys(), v3.text

    signed_in = finalize_sign_in(server, v3.json()["mfaPendingCredential"], factor_id, totp.at(time.time() + 30),
                                 prefix=f"identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}")
    assert signed_in.status_code == 200, signed_in.text
    assert second_factor_of(verify(server, signed_in.json()["idToken"])) == ("totp", factor_id)

    withdrawn = v2(server, "mfaEnrollment:withdraw", {"idToken": signed_in.json()["idToken"], "mfaEnrollmentId": factor_id}, prefix=ios)
    assert withdrawn.status_code == 200, withdrawn.text
    assert "mfaInfo" not in lookup(server, withdrawn.json()["idToken"])

    other_project = v2(server, "mfaEnrollment:start", {"idToken": withdrawn.json()["idToken"], "totpEnrollmentInfo": {}},
                       prefix="v2/projects/another-project")
    assert other_project.status_code == 404 and error_message(other_project) == "PROJECT_NOT_FOUND", other_project.text


def test_the_admin_config_shows_the_second_factor_settings(start_latchkey):
    server = start(start_latchkey, mfa={"state": "ENABLED", "totp": {"adjacentIntervals": 3}})
    url = f"{server.url}/v2/projects/{PROJECT_ID}/config"
    answer = requests.get(url, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=HTTP_TIMEOUT)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "name": f"projects/{PROJECT_ID}/config",
        "mfa": {"state": "ENABLED", "enabledProviders": ["PHONE_SMS"],
                "providerConfigs": [{"state": "ENABLED", "totpProviderConfig": {"adjacentIntervals": 3}}]},
        "authorizedDomains": ["127.0.0.1", "localhost"],  # sorted, as in `GET /v1/projects`
        "smsRegionConfig": {"allowByDefault": {"disallowedRegions": []}},
        "passwordPolicyConfig": {"passwordPolicyEnforcementState": "OFF", "forceUpgradeOnSignin": False, "passwordPolicyVersions": [
            {"customStrengthOptions": {
                "minPasswordLength": 6, "maxPasswordLength": 4096, "containsLowercaseCharacter": False, "containsUppercaseCharacter": False,
                "containsNumericCharacter": False, "containsNonAlphanumericCharacter": False}}]},
    }
    # An app's API key is not an admin, nor is an unknown bearer token; a request with neither has no API key.
    for denied in [requests.get(url, params={"key": API_KEY}, timeout=HTTP_TIMEOUT),
                   requests.get(url, headers={"Authorization": "Bearer someone"}, timeout=HTTP_TIMEOUT)]:
        assert denied.status_code == 401 and denied.json()["error"]["status"] == "UNAUTHENTICATED", denied.text
    anonymous = requests.get(url, timeout=HTTP_TIMEOUT)
    assert anonymous.status_code == 403 and anonymous.json()["error"]["status"] == "PERMISSION_DENIED", anonymous.text
