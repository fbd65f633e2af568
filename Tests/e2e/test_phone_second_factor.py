"""Phone second factors against the live binary, on both stores, with texts through a local SMS gateway: enrollment
(`mfaEnrollment:start` with `phoneEnrollmentInfo`, `:finalize` with `phoneVerificationInfo`), the challenge of every
later sign-in (`mfaSignIn:start` with `phoneSignInInfo` texts the factor, `:finalize` with the code), tokens that say
`sign_in_second_factor: "phone"`, the number whole in a lookup and masked in the challenge and in the owner's notices,
and the day's budget of texts, which stops sign-in codes but never the challenge of an enrolled account."""

import re

import pytest
import requests

from conftest import ADMIN_TOKEN
from harness import API_KEY, HTTP_TIMEOUT, NO_RATE_LIMITS, PROJECT_ID, error_message, post, verify
from sms import webhook_sms
from test_second_factor import APP_NAME, Mailbox, admin, enroll, link_sign_in, lookup, signed_in_by_link, start

PHONE = "+16505550101"
MASKED = "+*******0101"
OTHER = "+442079460958"


def v2(server, method, body):
    return requests.post(f"{server.url}/v2/accounts/{method}", params={"key": API_KEY}, json=body, timeout=HTTP_TIMEOUT)


def code_of(text):
    code, = re.findall(r"^@[\w.:-]+ #(\d{6})$", text["body"], re.M)
    return code


def password_sign_in(server):
    answer = post(server, "accounts:signInWithPassword", json={"email": "ann@example.com", "password": "ann's password"})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.fixture(params=["sqlite", "postgres"])
def enrolled_by_phone(request, start_latchkey, start_sms_gateway, monkeypatch):
    """Ann (a verified address and a password) with her phone enrolled as a second factor: (server, gateway, factor id)."""
    gateway = start_sms_gateway()
    storage = request.getfixturevalue("database") if request.param == "postgres" else {"sqlite": {"path": "data/latchkey.sqlite"}}
    server = start_latchkey(
        sms=webhook_sms(gateway, monkeypatch), storage=storage, mfa={"state": "ENABLED"}, adminTokens=[ADMIN_TOKEN],
        rateLimits={"textPerNumber": [{"limit": 20, "windowSeconds": 60}], "textBudget": [{"limit": 3, "windowSeconds": 86400}]})
    created = requests.post(f"{server.url}/v1/projects/{PROJECT_ID}/accounts", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                            json={"email": "ann@example.com", "password": "ann's password", "emailVerified": True}, timeout=HTTP_TIMEOUT)
    assert created.status_code == 200, created.text
    id_token = password_sign_in(server)["idToken"]

    assert error_message(v2(server, "mfaEnrollment:start", {"idToken": id_token, "phoneEnrollmentInfo": {"phoneNumber": "+1555"}})) \
        == "INVALID_PHONE_NUMBER : Invalid format."
    started = v2(server, "mfaEnrollment:start", {"idToken": id_token, "phoneEnrollmentInfo": {"phoneNumber": "+1 650 555 0101"}})
    assert started.status_code == 200 and set(started.json()) == {"phoneSessionInfo"}, started.text
    session_info = started.json()["phoneSessionInfo"]["sessionInfo"]
    [text] = gateway.wait_for(1)
    assert text["to"] == PHONE and "add this phone" in text["body"], text
    finalize = {"idToken": id_token, "displayName": "Ann's phone", "phoneVerificationInfo": {"sessionInfo": session_info, "code": "000000"}}
    if code_of(text) != "000000":
        assert error_message(v2(server, "mfaEnrollment:finalize", finalize)) == "INVALID_CODE"
    finalize["phoneVerificationInfo"]["code"] = code_of(text)
    enrolled = v2(server, "mfaEnrollment:finalize", finalize)
    assert enrolled.status_code == 200, enrolled.text
    claims = verify(server, enrolled.json()["idToken"])
    assert claims["firebase"]["sign_in_second_factor"] == "phone"
    return server, gateway, claims["firebase"]["second_factor_identifier"], enrolled.json()["idToken"]


def test_a_phone_factor_is_enrolled_listed_and_asked_for_at_every_sign_in(enrolled_by_phone):
    server, gateway, factor_id, id_token = enrolled_by_phone
    [factor] = post(server, "accounts:lookup", json={"idToken": id_token}).json()["users"][0]["mfaInfo"]
    assert factor == {"mfaEnrollmentId": factor_id, "displayName": "Ann's phone", "phoneInfo": PHONE, "enrolledAt": factor["enrolledAt"]}
    again = v2(server, "mfaEnrollment:start", {"idToken": id_token, "phoneEnrollmentInfo": {"phoneNumber": PHONE}})
    assert error_message(again) == "SECOND_FACTOR_EXISTS : Phone number already enrolled as second factor for this account."

    challenge = password_sign_in(server)
    assert "idToken" not in challenge
    [hint] = challenge["mfaInfo"]
    assert hint["phoneInfo"] == "+*******0101" and hint["mfaEnrollmentId"] == factor_id and "totpInfo" not in hint
    credential = challenge["mfaPendingCredential"]
    texted = v2(server, "mfaSignIn:start", {"mfaPendingCredential": credential, "mfaEnrollmentId": factor_id, "phoneSignInInfo": {}})
    assert texted.status_code == 200, texted.text
    session_info = texted.json()["phoneResponseInfo"]["sessionInfo"]
    text = gateway.wait_for(2)[1]
    assert text["to"] == PHONE and "verification code" in text["body"], text

    def finalize(code, info=session_info):
        return v2(server, "mfaSignIn:finalize", {"mfaPendingCredential": credential, "phoneVerificationInfo": {"sessionInfo": info, "code": code}})

    assert error_message(finalize(code_of(text), info="not-a-session")) == "INVALID_SESSION_INFO"
    if code_of(text) != "999999":
        assert error_message(finalize("999999")) == "INVALID_CODE"
    passed = finalize(code_of(text))
    assert passed.status_code == 200, passed.text
    claims = verify(server, passed.json()["idToken"])
    assert (claims["firebase"]["sign_in_second_factor"], claims["firebase"]["second_factor_identifier"]) == ("phone", factor_id)
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert error_message(finalize(code_of(text))) == "INVALID_MFA_PENDING_CREDENTIAL"  # the challenge is over

    # A code texted for enrolling never passes a challenge: the purposes are kept apart.
    challenge = password_sign_in(server)["mfaPendingCredential"]
    enrolling = v2(server, "mfaEnrollment:start", {"idToken": passed.json()["idToken"], "phoneEnrollmentInfo": {"phoneNumber": OTHER}})
    assert enrolling.status_code == 200, enrolling.text
    other = gateway.wait_for(3)[2]
    crossed = v2(server, "mfaSignIn:finalize", {"mfaPendingCredential": challenge, "phoneVerificationInfo": {
        "sessionInfo": enrolling.json()["phoneSessionInfo"]["sessionInfo"], "code": code_of(other)}})
    assert error_message(crossed) == "INVALID_SESSION_INFO"


def test_the_owner_is_told_of_the_phone_added_and_withdrawn_by_its_masked_number(enrolled_by_phone):
    """The notices name the phone as Firebase's challenge shows it, never whole: the mailbox may be read by someone else."""
    server, _, factor_id, id_token = enrolled_by_phone
    mail = Mailbox(server)
    _, added = mail.take("ann@example.com", f"A phone was added to your {APP_NAME} account")
    withdrawn = v2(server, "mfaEnrollment:withdraw", {"idToken": id_token, "mfaEnrollmentId": factor_id})
    assert withdrawn.status_code == 200, withdrawn.text
    _, removed = mail.take("ann@example.com", f"A phone was removed from your {APP_NAME} account")
    for notice in (added, removed):
        text = notice.get_body(preferencelist=("plain",)).get_content()
        assert f'The phone number {MASKED} ("Ann\'s phone")' in text, text
        for body in (text, notice.get_body(preferencelist=("html",)).get_content()):
            assert MASKED in body and "5550101" not in body and "authenticator" not in body, body
    added_text = added.get_body(preferencelist=("plain",)).get_content()
    assert "signing in asks for a code texted to it" in added_text and "Every other session of the account was signed out." in added_text


def test_the_days_budget_stops_sign_in_codes_but_not_an_enrolled_accounts_challenge(enrolled_by_phone):
    server, gateway, factor_id, _ = enrolled_by_phone
    # The budget is three texts: the enrollment's, and two sign-in codes.
    for number in ["+16505550102", "+16505550103"]:
        assert post(server, "accounts:sendVerificationCode", json={"phoneNumber": number}).status_code == 200
    assert error_message(post(server, "accounts:sendVerificationCode", json={"phoneNumber": "+16505550104"})) == "QUOTA_EXCEEDED"
    credential = password_sign_in(server)["mfaPendingCredential"]
    texted = v2(server, "mfaSignIn:start", {"mfaPendingCredential": credential, "mfaEnrollmentId": factor_id, "phoneSignInInfo": {}})
    assert texted.status_code == 200, texted.text
    assert [text["to"] for text in gateway.wait_for(4)][-1] == PHONE
    # The spent budget shows in the metrics (and, once per window, in the audit trail as `rate_limited`).
    metrics = requests.get(f"{server.url}/metrics", timeout=HTTP_TIMEOUT).text
    assert 'latchkey_rate_limit_rejections_total{rule="textBudget"} 1' in metrics, metrics


def test_an_account_with_both_kinds_an_email_link_challenge_and_the_takeover_rule(start_latchkey, start_sms_gateway, monkeypatch):
    """An account may have an authenticator and a phone: an email-link sign-in lists both, and the phone's texted code
    passes it. Factors set up before an address was proven go with the takeover, phones as authenticators do."""
    gateway = start_sms_gateway()
    limits = {**NO_RATE_LIMITS, "textPerNumber": [{"limit": 20, "windowSeconds": 60}]}
    server = start(start_latchkey, sms=webhook_sms(gateway, monkeypatch), rateLimits=limits)
    mail = Mailbox(server)
    mallory = enroll(server, mail, signed_in_by_link(server, mail, "mallory@example.com"), "mallory@example.com")
    started = v2(server, "mfaEnrollment:start", {"idToken": mallory.id_token, "phoneEnrollmentInfo": {"phoneNumber": PHONE}})
    assert started.status_code == 200, started.text
    enrolled = v2(server, "mfaEnrollment:finalize", {"idToken": mallory.id_token, "phoneVerificationInfo": {
        "sessionInfo": started.json()["phoneSessionInfo"]["sessionInfo"], "code": code_of(gateway.wait_for(1)[0])}})
    assert enrolled.status_code == 200, enrolled.text

    answer, _ = link_sign_in(server, mail, "mallory@example.com")
    hints = answer.json()["mfaInfo"]
    assert sorted("phoneInfo" in hint for hint in hints) == [False, True] and any("totpInfo" in hint for hint in hints), hints
    phone_hint = next(hint for hint in hints if "phoneInfo" in hint)
    credential = answer.json()["mfaPendingCredential"]
    texted = v2(server, "mfaSignIn:start", {"mfaPendingCredential": credential, "mfaEnrollmentId": phone_hint["mfaEnrollmentId"]})
    assert texted.status_code == 200, texted.text
    passed = v2(server, "mfaSignIn:finalize", {"mfaPendingCredential": credential, "phoneVerificationInfo": {
        "sessionInfo": texted.json()["phoneResponseInfo"]["sessionInfo"], "code": code_of(gateway.wait_for(2)[1])}})
    assert passed.status_code == 200, passed.text
    claims = verify(server, passed.json()["idToken"])
    assert claims["firebase"]["sign_in_second_factor"] == "phone" and claims["firebase"]["sign_in_provider"] == "password"

    # The account ends up on the victim's address, unproven (an admin puts it there): the victim's email link takes it
    # over without either factor's code, and both factors go.
    moved = admin(server, "accounts:update", {"localId": mallory.local_id, "email": "victim@example.com"})
    assert moved.status_code == 200, moved.text
    victim = signed_in_by_link(server, mail, "victim@example.com")
    assert victim["localId"] == mallory.local_id
    assert "mfaInfo" not in lookup(server, victim["idToken"])


def test_an_identity_provider_sign_in_stops_at_a_phone_factor(start_latchkey, start_sms_gateway, monkeypatch, provider):
    gateway = start_sms_gateway()
    server = start(start_latchkey, sms=webhook_sms(gateway, monkeypatch), identityProviders=[provider.settings()],
                   rateLimits={**NO_RATE_LIMITS, "textPerNumber": [{"limit": 20, "windowSeconds": 60}]})
    claims = {"email": "carol@example.com", "email_verified": True}

    def sign_in():
        body = {"requestUri": "http://localhost", "postBody": f"id_token={provider.id_token('carol-1', claims)}&providerId=oidc.mock",
                "returnSecureToken": True}
        return post(server, "accounts:signInWithIdp", json=body)

    first = sign_in().json()
    started = v2(server, "mfaEnrollment:start", {"idToken": first["idToken"], "phoneEnrollmentInfo": {"phoneNumber": PHONE}})
    enrolled = v2(server, "mfaEnrollment:finalize", {"idToken": first["idToken"], "phoneVerificationInfo": {
        "sessionInfo": started.json()["phoneSessionInfo"]["sessionInfo"], "code": code_of(gateway.wait_for(1)[0])}})
    assert enrolled.status_code == 200, enrolled.text

    challenge = sign_in().json()
    assert "idToken" not in challenge and challenge["federatedId"] == "carol-1", challenge
    [hint] = challenge["mfaInfo"]
    texted = v2(server, "mfaSignIn:start", {"mfaPendingCredential": challenge["mfaPendingCredential"], "mfaEnrollmentId": hint["mfaEnrollmentId"]})
    finished = v2(server, "mfaSignIn:finalize", {"mfaPendingCredential": challenge["mfaPendingCredential"], "phoneVerificationInfo": {
        "sessionInfo": texted.json()["phoneResponseInfo"]["sessionInfo"], "code": code_of(gateway.wait_for(2)[1])}})
    assert finished.status_code == 200, finished.text
    token_claims = verify(server, finished.json()["idToken"], provider="oidc.mock")
    assert token_claims["firebase"]["sign_in_second_factor"] == "phone"
