"""Phone numbers on accounts against the live binary, through the Python Admin SDK and Identity Toolkit's wire:
numbers checked and normalized to E.164, one account per number, looked up by number, carried in lookups
(`phoneNumber`, the `phone` entry of `providerUserInfo`) and ID tokens (`phone_number`, `firebase.identities.phone`),
removed with `deleteProvider: ["phone"]`; and phone second factors set by an admin's `mfa.enrollments`, listed whole to
admins and masked in a sign-in challenge, as Firebase masks them."""

import pytest
import requests
from firebase_admin import auth

from conftest import ADMIN_TOKEN
from harness import HTTP_TIMEOUT, PROJECT_ID, error_message, post

ANN = "+16505550101"
BRITISH = "+442079460958"


def admin_call(server, method, body):
    """An Identity Toolkit v1 method called as the Admin SDKs do: project-scoped, with the admin token."""
    return requests.post(f"{server.url}/v1/projects/{PROJECT_ID}/{method}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                         json=body, timeout=HTTP_TIMEOUT)


def looked_up(server, **query):
    answer = admin_call(server, "accounts:lookup", query)
    assert answer.status_code == 200, answer.text
    return answer.json().get("users", [])


def password_sign_in(server, email, password):
    return post(server, "accounts:signInWithPassword", json={"email": email, "password": password, "returnSecureToken": True})


@pytest.mark.parametrize("admin", ["sqlite", "postgres"], indirect=True)
def test_an_admin_gives_takes_and_finds_a_number(admin):
    server, app = admin
    uid = auth.create_user(email="ann@example.com", password="secret-pw", phone_number=ANN, app=app).uid
    user = auth.get_user_by_phone_number(ANN, app=app)
    assert user.uid == uid and user.phone_number == ANN
    assert [(p.provider_id, p.phone_number, p.uid) for p in user.provider_data if p.provider_id == "phone"] == [("phone", ANN, ANN)]

    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.create_user(email="bob@example.com", phone_number=ANN, app=app)
    assert looked_up(server, email=["bob@example.com"]) == []
    # Typed as people type them, numbers are stored in E.164; numbers no carrier could deliver are refused, creating nothing.
    typed = admin_call(server, "accounts", {"email": "cy@example.com", "phoneNumber": "+44 (20) 7946-0958"})
    assert typed.status_code == 200, typed.text
    assert [u["phoneNumber"] for u in looked_up(server, email=["cy@example.com"])] == [BRITISH]
    for bad in ["+999 1234 5678", "+1 555", "16505550102", "+1650555010x"]:
        answer = admin_call(server, "accounts", {"email": "dee@example.com", "phoneNumber": bad})
        assert error_message(answer) == "INVALID_PHONE_NUMBER : Invalid format.", bad
    assert looked_up(server, email=["dee@example.com"]) == []

    session = password_sign_in(server, "ann@example.com", "secret-pw")
    assert session.status_code == 200, session.text
    claims = auth.verify_id_token(session.json()["idToken"], app=app)
    assert claims["phone_number"] == ANN and claims["firebase"]["identities"]["phone"] == [ANN]

    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.update_user(uid, phone_number=BRITISH, app=app)
    auth.update_user(uid, phone_number="+16505550199", app=app)
    assert auth.get_user(uid, app=app).phone_number == "+16505550199"
    assert auth.create_user(email="eve@example.com", phone_number=ANN, app=app).phone_number == ANN  # the old number is free

    auth.update_user(uid, phone_number=auth.DELETE_ATTRIBUTE, app=app)
    removed = auth.get_user(uid, app=app)
    assert removed.phone_number is None and all(p.provider_id != "phone" for p in removed.provider_data)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_phone_number("+16505550199", app=app)


@pytest.mark.parametrize("admin", ["sqlite", "postgres"], indirect=True)
def test_an_admin_sets_phone_factors_listed_whole_and_masked_in_a_challenge(admin):
    server, app = admin
    server.stop()
    server.configure(mfa={"state": "ENABLED"})
    server.start()
    uid = auth.create_user(email="ann@example.com", email_verified=True, password="secret-pw", app=app).uid

    def enroll(*entries):
        return admin_call(server, "accounts:update", {"localId": uid, "mfa": {"enrollments": list(entries)}})

    assert error_message(enroll({"phoneInfo": "+1 555"})) == "INVALID_PHONE_NUMBER : Invalid format."
    assert error_message(enroll({"phoneInfo": ANN}, {"phoneInfo": ANN})).startswith("INVALID_ARGUMENT")
    assert error_message(enroll({"totpInfo": {}, "displayName": "app"})).startswith("INVALID_ARGUMENT")
    assert "mfaInfo" not in looked_up(server, localId=[uid])[0]

    assert enroll({"phoneInfo": ANN, "displayName": "work phone"}).status_code == 200
    [factor] = looked_up(server, localId=[uid])[0]["mfaInfo"]
    assert factor["phoneInfo"] == ANN and factor["displayName"] == "work phone" and "totpInfo" not in factor

    challenge = password_sign_in(server, "ann@example.com", "secret-pw")
    assert challenge.status_code == 200 and "idToken" not in challenge.json(), challenge.text
    [hint] = challenge.json()["mfaInfo"]
    assert hint["phoneInfo"] == "+*******0101" and hint["mfaEnrollmentId"] == factor["mfaEnrollmentId"]

    # Sent back whole, a factor is kept as it was; a new one joins it; an empty list removes them all.
    kept = {key: factor[key] for key in ("mfaEnrollmentId", "displayName", "phoneInfo", "enrolledAt")}
    assert enroll(kept, {"phoneInfo": BRITISH}).status_code == 200
    factors = looked_up(server, localId=[uid])[0]["mfaInfo"]
    assert [f["phoneInfo"] for f in factors] == [ANN, BRITISH] and factors[0] == factor
    assert enroll().status_code == 200
    assert "mfaInfo" not in looked_up(server, localId=[uid])[0]
    assert "idToken" in password_sign_in(server, "ann@example.com", "secret-pw").json()
