"""Phone sign-in against the live binary, on both stores, with texts delivered through a local SMS gateway:
`accounts:sendVerificationCode` texts a code (the text ends with the WebOTP line), `accounts:signInWithPhoneNumber`
creates or signs in to the number's account, links a number with an ID token, answers a `temporaryProof` for a number
another account has (which then signs in there once), and refuses wrong, spent, expired and exhausted codes; an account
with second factors cannot sign in with its number, as in Firebase; `deleteProvider: ["phone"]` unlinks it."""

import re
import time
from concurrent.futures import ThreadPoolExecutor

import bcrypt
import pytest
import requests
from firebase_admin import auth

from harness import API_KEY, HTTP_TIMEOUT, PROJECT_ID, error_message, post
from sms import webhook_sms

ANN = "+16505550101"
BOB = "+442079460958"


def send_code(server, number, **extra):
    return post(server, "accounts:sendVerificationCode", json={"phoneNumber": number, **extra})


def texted_code(gateway, count, number):
    """The code of the `count`-th text the gateway accepted, which went to `number`."""
    text = gateway.wait_for(count)[count - 1]
    assert text["to"] == number, text
    code, = re.findall(r"^@[\w.:-]+ #(\d{6})$", text["body"], re.M)
    assert text["body"].startswith(code), text["body"]
    return code


def sign_in(server, session_info, code, **extra):
    return post(server, "accounts:signInWithPhoneNumber", json={"sessionInfo": session_info, "code": code, **extra})


GENEROUS = {"textPerNumber": [{"limit": 20, "windowSeconds": 60}]}


@pytest.fixture(params=["sqlite", "postgres"])
def phone_server(request, start_latchkey, start_sms_gateway, monkeypatch):
    """A server texting through a local gateway, with room for several texts a minute to one number."""
    gateway = start_sms_gateway()
    storage = request.getfixturevalue("database") if request.param == "postgres" else {"sqlite": {"path": "data/latchkey.sqlite"}}
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch), storage=storage, mfa={"state": "ENABLED"}, rateLimits=GENEROUS)
    return server, gateway


def test_one_text_a_minute_per_number_by_default(start_latchkey, start_sms_gateway, monkeypatch):
    gateway = start_sms_gateway()
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch))
    assert send_code(server, ANN).status_code == 200
    assert error_message(send_code(server, "+1 650 555 0101")) == "TOO_MANY_ATTEMPTS_TRY_LATER"
    assert send_code(server, BOB).status_code == 200
    assert [text["to"] for text in gateway.wait_for(2)] == [ANN, BOB]


def test_a_texted_code_creates_then_signs_in_to_the_numbers_account(phone_server):
    server, gateway = phone_server
    sent = send_code(server, "+1 (650) 555-0101")
    assert sent.status_code == 200, sent.text
    created = sign_in(server, sent.json()["sessionInfo"], texted_code(gateway, 1, ANN))
    assert created.status_code == 200, created.text
    body = created.json()
    assert body["isNewUser"] is True and body["phoneNumber"] == ANN and body["localId"]
    lookup = post(server, "accounts:lookup", json={"idToken": body["idToken"]}).json()["users"][0]
    assert lookup["phoneNumber"] == ANN and [p["providerId"] for p in lookup["providerUserInfo"]] == ["phone"]
    again = sign_in(server, send_code(server, ANN).json()["sessionInfo"], texted_code(gateway, 2, ANN))
    assert again.status_code == 200 and again.json()["isNewUser"] is False and again.json()["localId"] == body["localId"], again.text


def test_wrong_spent_and_exhausted_codes_are_refused(phone_server):
    server, gateway = phone_server
    session_info = send_code(server, ANN).json()["sessionInfo"]
    code = texted_code(gateway, 1, ANN)
    wrong = "000000" if code != "000000" else "111111"
    assert error_message(sign_in(server, session_info, wrong)) == "INVALID_CODE"
    assert error_message(sign_in(server, "not-a-session", code)) == "INVALID_SESSION_INFO"
    assert error_message(sign_in(server, session_info, "")) == "MISSING_CODE"
    assert error_message(post(server, "accounts:signInWithPhoneNumber", json={"code": code})) == "MISSING_SESSION_INFO"
    assert sign_in(server, session_info, code).status_code == 200
    assert error_message(sign_in(server, session_info, code)) == "INVALID_SESSION_INFO"  # spent

    # Concurrent wrong codes never get more than five checks: the right one comes too late.
    session_info = send_code(server, BOB).json()["sessionInfo"]
    code = texted_code(gateway, 2, BOB)
    wrong = "000000" if code != "000000" else "111111"
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: error_message(sign_in(server, session_info, wrong)), range(12)))
    assert answers.count("INVALID_CODE") == 5 and answers.count("INVALID_SESSION_INFO") == 7, answers
    assert error_message(sign_in(server, session_info, code)) == "INVALID_SESSION_INFO"


def test_bad_numbers_are_refused_before_anything_is_texted(phone_server):
    server, gateway = phone_server
    for number, message in [("", "MISSING_PHONE_NUMBER"), ("+1555", "INVALID_PHONE_NUMBER : Invalid format."),
                            ("6505550101", "INVALID_PHONE_NUMBER : Invalid format.")]:
        assert error_message(send_code(server, number)) == message, number
    time.sleep(1)
    assert gateway.texts() == []


def test_linking_a_number_and_the_temporary_proof_of_a_taken_one(phone_server):
    server, gateway = phone_server
    texts = iter(range(1, 100))

    def code_for(number, **extra):
        session_info = send_code(server, number).json()["sessionInfo"]
        return sign_in(server, session_info, texted_code(gateway, next(texts), number), **extra)

    ann = code_for(ANN).json()
    bob = post(server, "accounts:signUp", json={"email": "bob@example.com", "password": "bob's password", "returnSecureToken": True}).json()
    linked = code_for(BOB, idToken=bob["idToken"])
    assert linked.status_code == 200 and linked.json()["localId"] == bob["localId"] and linked.json()["isNewUser"] is False, linked.text
    user = post(server, "accounts:lookup", json={"idToken": linked.json()["idToken"]}).json()["users"][0]
    assert user["phoneNumber"] == BOB and {p["providerId"] for p in user["providerUserInfo"]} == {"password", "phone"}

    # Linking Ann's number to Carl's account spends the code and hands back a proof of the number, not a session.
    carl = post(server, "accounts:signUp", json={"email": "carl@example.com", "password": "carl's pw", "returnSecureToken": True}).json()
    proof = code_for(ANN, idToken=carl["idToken"])
    assert proof.status_code == 200 and "idToken" not in proof.json(), proof.text
    assert proof.json()["phoneNumber"] == ANN and proof.json()["temporaryProofExpiresIn"] == "3600"
    by_proof = post(server, "accounts:signInWithPhoneNumber", json={"temporaryProof": proof.json()["temporaryProof"], "phoneNumber": ANN})
    assert by_proof.status_code == 200 and by_proof.json()["localId"] == ann["localId"], by_proof.text
    spent = post(server, "accounts:signInWithPhoneNumber", json={"temporaryProof": proof.json()["temporaryProof"], "phoneNumber": ANN})
    assert error_message(spent) == "INVALID_TEMPORARY_PROOF"
    assert "phoneNumber" not in post(server, "accounts:lookup", json={"idToken": carl["idToken"]}).json()["users"][0]

    unlinked = post(server, "accounts:update", json={"idToken": linked.json()["idToken"], "deleteProvider": ["phone"]})
    assert unlinked.status_code == 200, unlinked.text
    [bob_now] = post(server, "accounts:lookup", json={"idToken": bob["idToken"]}).json()["users"]
    assert "phoneNumber" not in bob_now and {p["providerId"] for p in bob_now["providerUserInfo"]} == {"password"}


def test_users_imported_with_a_number_and_a_phone_factor_sign_in_with_them(start_latchkey, start_sms_gateway, monkeypatch, admin_app):
    """The Python Admin SDK's `import_users` brings phone users, who sign in with their number; an imported user given a
    phone factor as the Node Admin SDK gives one (`mfa.enrollments`: the Python SDK has no field for factors, and imports
    of `mfaInfo` are test_user_import's) passes its challenge with the texted code."""
    gateway = start_sms_gateway()
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch), mfa={"state": "ENABLED"}, rateLimits=GENEROUS, adminTokens=["owner"])
    app = admin_app(server)
    result = auth.import_users([auth.ImportUserRecord("imported", phone_number=ANN)], app=app)
    assert (result.success_count, result.failure_count) == (1, 0)
    signed_in = sign_in(server, send_code(server, ANN).json()["sessionInfo"], texted_code(gateway, 1, ANN))
    assert signed_in.status_code == 200 and signed_in.json()["localId"] == "imported" and signed_in.json()["isNewUser"] is False

    hashed = auth.UserImportHash.bcrypt()
    result = auth.import_users(
        [auth.ImportUserRecord("guarded", email="g@example.com", email_verified=True,
                               password_hash=bcrypt.hashpw(b"g's password", bcrypt.gensalt(4)))], hash_alg=hashed, app=app)
    assert result.success_count == 1
    factor = {"mfaEnrollmentId": "f1", "phoneInfo": BOB, "displayName": "work"}
    uploaded = requests.post(f"{server.url}/v1/projects/{PROJECT_ID}/accounts:update", headers={"Authorization": "Bearer owner"},
                             json={"localId": "guarded", "mfa": {"enrollments": [factor]}}, timeout=HTTP_TIMEOUT)
    assert uploaded.status_code == 200, uploaded.text
    challenge = post(server, "accounts:signInWithPassword", json={"email": "g@example.com", "password": "g's password"}).json()
    assert [hint["phoneInfo"] for hint in challenge["mfaInfo"]] == ["+********0958"]
    started = requests.post(f"{server.url}/v2/accounts/mfaSignIn:start", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, json={
        "mfaPendingCredential": challenge["mfaPendingCredential"], "mfaEnrollmentId": "f1", "phoneSignInInfo": {}})
    assert started.status_code == 200, started.text
    finished = requests.post(f"{server.url}/v2/accounts/mfaSignIn:finalize", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, json={
        "mfaPendingCredential": challenge["mfaPendingCredential"],
        "phoneVerificationInfo": {"sessionInfo": started.json()["phoneResponseInfo"]["sessionInfo"], "code": texted_code(gateway, 2, BOB)}})
    assert finished.status_code == 200 and "idToken" in finished.json(), finished.text
