"""Firebase's other email actions (issue #19) through the live binary: password reset, address verification, address
change and its undo, each asked for with `accounts:sendOobCode`, looked at with `accounts:resetPassword` and used with
`accounts:resetPassword` or `accounts:update` (`applyActionCode`), and the Admin SDK's link generators.

Codes are read from the emails the server writes; nothing here reads the database.
"""

import re
import uuid

import firebase_admin
import pytest
import requests
from firebase_admin import auth

from harness import (
    API_KEY, CONTINUE_URL, HTTP_TIMEOUT, PROJECT_ID, code_of, command, complete, error_message, post, read_email, refresh, send,
)

PASSWORD = "correct horse battery"
NEW_PASSWORD = "staple of the ages"
ADMIN_TOKEN = "owner"


def sign_up(server, address, password=PASSWORD):
    response = post(server, "accounts:signUp", json={"email": address, "password": password, "returnSecureToken": True})
    assert response.status_code == 200, response.text
    return response.json()


def verified(server, address, number):
    """A password account whose address its owner proved with the verification link, the server's `number`th email."""
    session = sign_up(server, address)
    assert ask(server, "VERIFY_EMAIL", idToken=session["idToken"]).status_code == 200
    assert apply(server, code_of(action_link(server, number, "verifyEmail", address))).status_code == 200
    return session


def password_sign_in(server, address, password):
    return post(server, "accounts:signInWithPassword", json={"email": address, "password": password, "returnSecureToken": True})


def lookup(server, id_token):
    response = post(server, "accounts:lookup", json={"idToken": id_token})
    assert response.status_code == 200, response.text
    return response.json()["users"][0]


def ask(server, request_type, **fields):
    return post(server, "accounts:sendOobCode", json={"requestType": request_type, **fields})


def action_link(server, number, mode, recipient, in_app=False):
    """The link of the server's `number`th email, checked to be for `mode` and addressed to `recipient`, and on the path
    apps claim only if it is a sign-in link or one the app handles (`in_app`)."""
    message = read_email(server, number)
    assert message["To"] == recipient
    text = message.get_body(preferencelist=("plain",)).get_content()
    links = re.findall(r"https?://\S+/__/auth/(?:action|confirm)\?\S+", text)
    assert len(links) == 1, text
    assert f"mode={mode}&" in links[0]
    assert ("/__/auth/action?" in links[0]) == (mode == "signIn" or in_app), links[0]
    return links[0]


def check(server, code):
    return post(server, "accounts:resetPassword", json={"oobCode": code})


def apply(server, code):
    return post(server, "accounts:update", json={"oobCode": code})


def refused(response, code):
    assert response.status_code == 400, response.text
    assert error_message(response).split(" : ")[0] == code, response.text


def emails(server):
    return sorted(server.outbox.glob("*.eml")) if server.outbox.exists() else []


def test_a_password_reset_sets_the_password_verifies_the_address_and_ends_every_session(server):
    session = sign_up(server, "alice@example.com")
    answer = ask(server, "PASSWORD_RESET", email="Alice@Example.com")
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": "alice@example.com"}
    code = code_of(action_link(server, 1, "resetPassword", "alice@example.com"))

    # Looking at the code (Firebase's verifyPasswordResetCode) spends nothing, however often.
    for _ in range(2):
        looked = check(server, code)
        assert looked.status_code == 200, looked.text
        assert looked.json() == {"kind": "identitytoolkit#ResetPasswordResponse", "email": "alice@example.com", "requestType": "PASSWORD_RESET"}

    refused(post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": "short"}), "WEAK_PASSWORD")
    reset = post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": NEW_PASSWORD})
    assert reset.status_code == 200, reset.text
    assert reset.json() == {"kind": "identitytoolkit#ResetPasswordResponse", "email": "alice@example.com", "requestType": "PASSWORD_RESET"}

    refused(refresh(server, session["refreshToken"]), "TOKEN_EXPIRED")
    refused(password_sign_in(server, "alice@example.com", PASSWORD), "INVALID_LOGIN_CREDENTIALS")
    signed_in = password_sign_in(server, "alice@example.com", NEW_PASSWORD)
    assert signed_in.status_code == 200, signed_in.text
    assert lookup(server, signed_in.json()["idToken"])["emailVerified"] is True
    # Spent: neither a second reset nor a look works.
    refused(post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": "another one"}), "INVALID_OOB_CODE")
    refused(check(server, code), "INVALID_OOB_CODE")
    # Neither password nor code reaches the log.
    assert NEW_PASSWORD not in server.logs() and code not in server.logs()
    # The address was never verified: whatever else could sign in to the account was taken away, as an email link does.
    audit = command(server, "audit", "--email", "alice@example.com").stdout
    assert "password_stripped" in audit and "password_reset" in audit


def test_a_reset_spends_every_other_reset_link_of_the_address(server):
    sign_up(server, "bob@example.com")
    for _ in range(2):
        assert ask(server, "PASSWORD_RESET", email="bob@example.com").status_code == 200
    first, second = (code_of(action_link(server, n, "resetPassword", "bob@example.com")) for n in (1, 2))
    assert post(server, "accounts:resetPassword", json={"oobCode": second, "newPassword": NEW_PASSWORD}).status_code == 200
    refused(post(server, "accounts:resetPassword", json={"oobCode": first, "newPassword": PASSWORD}), "INVALID_OOB_CODE")


def test_a_reset_for_an_address_without_account_answers_alike_and_sends_nothing(server):
    sign_up(server, "carol@example.com")
    for address in ("nobody@example.com", "carol@example.com"):
        answer = ask(server, "PASSWORD_RESET", email=address)
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": address}
    assert read_email(server, 1)["To"] == "carol@example.com"
    assert len(emails(server)) == 1


def test_without_enumeration_protection_an_unknown_address_is_email_not_found(start_latchkey):
    server = start_latchkey(emailEnumerationProtection=False)
    refused(ask(server, "PASSWORD_RESET", email="nobody@example.com"), "EMAIL_NOT_FOUND")
    refused(ask(server, "PASSWORD_RESET"), "MISSING_EMAIL")


def test_a_verification_marks_the_address_verified(server):
    session = sign_up(server, "dave@example.com")
    assert lookup(server, session["idToken"])["emailVerified"] is False
    refused(ask(server, "VERIFY_EMAIL", email="dave@example.com"), "INVALID_ID_TOKEN")
    answer = ask(server, 4, idToken=session["idToken"])  # the request type by its number, as Google's JSON mapping allows
    assert answer.status_code == 200, answer.text
    assert answer.json()["email"] == "dave@example.com"
    code = code_of(action_link(server, 1, "verifyEmail", "dave@example.com"))
    looked = check(server, code)
    assert looked.json() == {"kind": "identitytoolkit#ResetPasswordResponse", "email": "dave@example.com", "requestType": "VERIFY_EMAIL"}
    # A verification code is no password reset.
    refused(post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": NEW_PASSWORD}), "INVALID_OOB_CODE")

    applied = apply(server, code)
    assert applied.status_code == 200, applied.text
    assert applied.json()["email"] == "dave@example.com" and applied.json()["emailVerified"] is True
    assert lookup(server, session["idToken"])["emailVerified"] is True  # a verification ends no session
    refused(apply(server, code), "INVALID_OOB_CODE")


def test_an_address_change_happens_when_the_new_address_is_proven_and_the_old_one_can_undo_it(server):
    session = verified(server, "erin@example.com", 1)
    refused(ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=session["idToken"]), "MISSING_NEW_EMAIL")
    refused(ask(server, "VERIFY_AND_CHANGE_EMAIL", newEmail="erin@example.net"), "MISSING_ID_TOKEN")
    answer = ask(server, 7, idToken=session["idToken"], newEmail="Erin@Example.NET")
    assert answer.status_code == 200, answer.text
    assert answer.json()["email"] == "erin@example.com"
    code = code_of(action_link(server, 2, "verifyAndChangeEmail", "erin@example.net"))
    assert lookup(server, session["idToken"])["email"] == "erin@example.com"  # nothing changes before the proof

    looked = check(server, code)
    assert looked.json() == {
        "kind": "identitytoolkit#ResetPasswordResponse", "email": "erin@example.com", "newEmail": "erin@example.net",
        "requestType": "VERIFY_AND_CHANGE_EMAIL",
    }
    applied = apply(server, code)
    assert applied.status_code == 200, applied.text
    assert applied.json()["email"] == "erin@example.net" and applied.json()["emailVerified"] is True
    refused(refresh(server, session["refreshToken"]), "TOKEN_EXPIRED")
    moved = password_sign_in(server, "erin@example.net", PASSWORD)
    assert moved.status_code == 200, moved.text

    # The old address is told, with a way to undo it.
    notice = read_email(server, 3)
    assert notice["To"] == "erin@example.com"
    assert "erin@example.net" in notice.get_body(preferencelist=("plain",)).get_content()
    undo = code_of(action_link(server, 3, "recoverEmail", "erin@example.com"))
    looked = check(server, undo)
    assert looked.json() == {
        "kind": "identitytoolkit#ResetPasswordResponse", "email": "erin@example.com", "newEmail": "erin@example.net",
        "requestType": "RECOVER_EMAIL",
    }
    restored = apply(server, undo)
    assert restored.status_code == 200, restored.text
    assert restored.json()["email"] == "erin@example.com" and restored.json()["emailVerified"] is True
    refused(refresh(server, moved.json()["refreshToken"]), "TOKEN_EXPIRED")
    # Whoever changed the address may know the password: the undo takes it away with every session; the owner resets it.
    for address in ("erin@example.net", "erin@example.com"):
        refused(password_sign_in(server, address, PASSWORD), "INVALID_LOGIN_CREDENTIALS")
    refused(apply(server, undo), "INVALID_OOB_CODE")
    assert len(emails(server)) == 3  # an undo mails nothing more; its page offers the reset


def test_an_undo_kills_the_accounts_other_codes_and_holds_the_address(server):
    """Someone with the password asks for two changes and applies one; the owner's undo must leave the other dead, and
    nobody may take the old address while its undo is pending."""
    session = verified(server, "gus@example.com", 1)
    for new in ("gus@example.net", "gus@example.org"):
        assert ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=session["idToken"], newEmail=new).status_code == 200
    first, second = code_of(action_link(server, 2, "verifyAndChangeEmail", "gus@example.net")), code_of(
        action_link(server, 3, "verifyAndChangeEmail", "gus@example.org"))
    assert apply(server, first).status_code == 200
    undo = code_of(action_link(server, 4, "recoverEmail", "gus@example.com"))
    # The change spent the other change code, and the old address waits for its owner.
    refused(apply(server, second), "INVALID_OOB_CODE")
    refused(post(server, "accounts:signUp", json={"email": "gus@example.com", "password": PASSWORD}), "EMAIL_EXISTS")
    restored = apply(server, undo)
    assert restored.status_code == 200 and restored.json()["email"] == "gus@example.com", restored.text


def test_the_first_undo_of_a_run_of_changes_wins(server):
    """Someone with the password changes X to Z, then Z (proven by the change) to W; the undo mailed to Z (theirs) must
    not kill the owner's undo mailed to X."""
    session = verified(server, "ivo@example.com", 1)
    assert ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=session["idToken"], newEmail="ivo@example.net").status_code == 200
    assert apply(server, code_of(action_link(server, 2, "verifyAndChangeEmail", "ivo@example.net"))).status_code == 200
    owners = code_of(action_link(server, 3, "recoverEmail", "ivo@example.com"))
    moved = password_sign_in(server, "ivo@example.net", PASSWORD).json()
    assert ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=moved["idToken"], newEmail="ivo@example.org").status_code == 200
    assert apply(server, code_of(action_link(server, 4, "verifyAndChangeEmail", "ivo@example.org"))).status_code == 200
    theirs = code_of(action_link(server, 5, "recoverEmail", "ivo@example.net"))
    assert apply(server, theirs).json()["email"] == "ivo@example.net"
    restored = apply(server, owners)
    assert restored.status_code == 200 and restored.json()["email"] == "ivo@example.com", restored.text
    refused(apply(server, theirs), "INVALID_OOB_CODE")


def test_a_proven_address_is_left_only_with_proof_of_the_new_one(server):
    session = verified(server, "hana@example.com", 1)
    refused(post(server, "accounts:update", json={"idToken": session["idToken"], "email": "hana@example.net"}), "OPERATION_NOT_ALLOWED")
    # An email link completed with the account's ID token proves the new address and moves the account: the old address
    # gets its undo, as after a verified change.
    send(server, "hana@example.net")
    linked = post(server, "accounts:signInWithEmailLink",
                  json={"email": "hana@example.net", "oobCode": code_of(action_link(server, 2, "signIn", "hana@example.net")),
                        "idToken": session["idToken"]})
    assert linked.status_code == 200 and linked.json()["email"] == "hana@example.net", linked.text
    undo = code_of(action_link(server, 3, "recoverEmail", "hana@example.com"))
    assert apply(server, undo).json()["email"] == "hana@example.com"



def test_an_unproven_address_gets_no_undo(server):
    """An address nobody proved (a password sign-up) is nobody's to take back: its mailbox's reader never showed it was
    theirs, so a change mails it nothing, and a direct change of it is allowed."""
    unproven = sign_up(server, "ida@example.com")
    assert ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=unproven["idToken"], newEmail="ida@example.net").status_code == 200
    assert apply(server, code_of(action_link(server, 1, "verifyAndChangeEmail", "ida@example.net"))).status_code == 200
    other = sign_up(server, "jo@example.com")
    assert post(server, "accounts:update", json={"idToken": other["idToken"], "email": "jo@example.net"}).status_code == 200
    assert len(emails(server)) == 1


def test_an_address_taken_meanwhile_is_email_exists_and_the_code_stays(server):
    session = sign_up(server, "fay@example.com")
    assert ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=session["idToken"], newEmail="gil@example.com").status_code == 200
    code = code_of(action_link(server, 1, "verifyAndChangeEmail", "gil@example.com"))
    sign_up(server, "gil@example.com")
    refused(apply(server, code), "EMAIL_EXISTS")
    assert check(server, code).status_code == 200  # not spent
    assert lookup(server, session["idToken"])["email"] == "fay@example.com"
    # An address that is already taken is answered as if free (enumeration protection), and nothing is sent.
    assert ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=session["idToken"], newEmail="gil@example.com").status_code == 200
    assert len(emails(server)) == 1
    refused(ask(server, "VERIFY_AND_CHANGE_EMAIL", idToken=session["idToken"], newEmail="fay@example.com"), "EMAIL_EXISTS")


def test_codes_work_for_their_own_action_only(server):
    sign_up(server, "hal@example.com")
    assert ask(server, "PASSWORD_RESET", email="hal@example.com").status_code == 200
    reset = code_of(action_link(server, 1, "resetPassword", "hal@example.com"))
    refused(complete(server, "hal@example.com", reset), "INVALID_OOB_CODE")
    refused(apply(server, reset), "INVALID_OOB_CODE")
    send(server, "hal@example.com")
    sign_in = code_of(action_link(server, 2, "signIn", "hal@example.com"))
    # A sign-in code tells its kind but never its address (the app must get that from its user).
    looked = check(server, sign_in)
    assert looked.json() == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "EMAIL_SIGNIN"}
    refused(apply(server, sign_in), "INVALID_OOB_CODE")
    refused(post(server, "accounts:resetPassword", json={"oobCode": sign_in, "newPassword": NEW_PASSWORD}), "INVALID_OOB_CODE")
    for body in ({}, {"oobCode": ""}):
        refused(post(server, "accounts:resetPassword", json=body), "MISSING_OOB_CODE")
    refused(check(server, "x" * 300), "INVALID_OOB_CODE")
    refused(check(server, "unknown-code"), "INVALID_OOB_CODE")
    refused(ask(server, "RECOVER_EMAIL", email="hal@example.com"), "INVALID_REQ_TYPE")


def test_a_disabled_account_cannot_use_its_codes(start_latchkey):
    server = start_latchkey(adminTokens=[ADMIN_TOKEN])
    session = sign_up(server, "ivy@example.com")
    assert ask(server, "PASSWORD_RESET", email="ivy@example.com").status_code == 200
    code = code_of(action_link(server, 1, "resetPassword", "ivy@example.com"))
    disabled = requests.post(
        f"{server.url}/v1/accounts:update", json={"localId": session["localId"], "disableUser": True},
        headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=HTTP_TIMEOUT)
    assert disabled.status_code == 200, disabled.text
    refused(post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": NEW_PASSWORD}), "USER_DISABLED")
    # A disabled account is asked for like an unknown one: nothing is sent.
    assert ask(server, "PASSWORD_RESET", email="ivy@example.com").status_code == 200
    assert len(emails(server)) == 1


def test_only_an_admin_gets_the_link_back(server):
    sign_up(server, "jan@example.com")
    answer = ask(server, "PASSWORD_RESET", email="jan@example.com", returnOobLink=True)
    assert answer.status_code == 401, answer.text
    assert not emails(server)


def test_the_v3_names_serve_the_same(server):
    sign_up(server, "kim@example.com")
    base = f"{server.url}/www.googleapis.com/identitytoolkit/v3/relyingparty"
    sent = requests.post(f"{base}/getOobConfirmationCode", params={"key": API_KEY}, json={"requestType": 1, "email": "kim@example.com"}, timeout=HTTP_TIMEOUT)
    assert sent.status_code == 200, sent.text
    code = code_of(action_link(server, 1, "resetPassword", "kim@example.com"))
    reset = requests.post(f"{base}/resetPassword", params={"key": API_KEY}, json={"oobCode": code, "newPassword": NEW_PASSWORD}, timeout=HTTP_TIMEOUT)
    assert reset.status_code == 200, reset.text
    assert password_sign_in(server, "kim@example.com", NEW_PASSWORD).status_code == 200


def test_the_landing_page_spends_nothing_on_get_or_head(server):
    session = sign_up(server, "lee@example.com")
    assert ask(server, "VERIFY_EMAIL", idToken=session["idToken"]).status_code == 200
    link = action_link(server, 1, "verifyEmail", "lee@example.com")
    for method in (requests.get, requests.head, requests.get):
        page = method(link, timeout=HTTP_TIMEOUT, allow_redirects=False)
        assert page.status_code == 200
        assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
        assert "script-src 'self'; connect-src 'self'" in page.headers["Content-Security-Policy"]
    page = requests.get(link, timeout=HTTP_TIMEOUT)
    assert "Verify my address" in page.text and "lee@example.com" in page.text
    assert lookup(server, session["idToken"])["emailVerified"] is False
    assert check(server, code_of(link)).status_code == 200
    script = requests.get(f"{server.url}/__/auth/action.js", timeout=HTTP_TIMEOUT)
    assert script.status_code == 200 and script.headers["Content-Type"].startswith("text/javascript")
    # Once used, the page says so; a link whose mode is not its code's is unknown.
    assert apply(server, code_of(link)).status_code == 200
    used = requests.get(link, timeout=HTTP_TIMEOUT)
    assert used.status_code == 410 and "already been used" in used.text
    other = requests.get(link.replace("mode=verifyEmail", "mode=resetPassword"), timeout=HTTP_TIMEOUT)
    assert other.status_code == 404


def test_a_code_the_app_handles_is_handed_to_the_web_app(server):
    sign_up(server, "max@example.com")
    answer = ask(server, "PASSWORD_RESET", email="max@example.com", continueUrl=CONTINUE_URL, canHandleCodeInApp=True)
    assert answer.status_code == 200, answer.text
    link = action_link(server, 1, "resetPassword", "max@example.com", in_app=True)
    handed = requests.get(link, timeout=HTTP_TIMEOUT, allow_redirects=False)
    assert handed.status_code == 303, handed.text
    location = handed.headers["Location"]
    assert location.startswith(CONTINUE_URL + "?") and "mode=resetPassword" in location and f"oobCode={code_of(link)}" in location
    # Without the flag the page shows a way back to the continue URL.
    assert ask(server, "PASSWORD_RESET", email="max@example.com", continueUrl=CONTINUE_URL).status_code == 200
    page = requests.get(action_link(server, 2, "resetPassword", "max@example.com"), timeout=HTTP_TIMEOUT)
    assert page.status_code == 200 and f'href="{CONTINUE_URL}"' in page.text and 'autocomplete="new-password"' in page.text
    refused(ask(server, "PASSWORD_RESET", email="max@example.com", continueUrl="https://evil.example/"), "UNAUTHORIZED_DOMAIN")


@pytest.fixture
def admin(start_latchkey, monkeypatch):
    """A Latchkey configured as the Admin SDK's emulator, and an SDK app pointed at it."""
    server = start_latchkey(adminTokens=[ADMIN_TOKEN])
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", f"127.0.0.1:{server.port}")
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"latchkey-{uuid.uuid4()}")
    yield server, app
    firebase_admin.delete_app(app)


def test_the_admin_sdk_generates_reset_and_verification_links(admin):
    server, app = admin
    session = sign_up(server, "ned@example.com")
    settings = auth.ActionCodeSettings(url=CONTINUE_URL)
    reset = auth.generate_password_reset_link("ned@example.com", settings, app=app)
    assert reset.startswith(server.url + "/__/auth/confirm?mode=resetPassword&oobCode=")
    verification = auth.generate_email_verification_link("ned@example.com", app=app)
    assert "mode=verifyEmail&" in verification
    assert not emails(server)  # links for an admin are returned, not mailed

    assert apply(server, code_of(verification)).status_code == 200
    assert post(server, "accounts:resetPassword", json={"oobCode": code_of(reset), "newPassword": NEW_PASSWORD}).status_code == 200
    refused(refresh(server, session["refreshToken"]), "TOKEN_EXPIRED")
    user = auth.get_user_by_email("ned@example.com", app=app)
    assert user.email_verified is True
    with pytest.raises(auth.EmailNotFoundError):
        auth.generate_password_reset_link("nobody@example.com", app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.generate_email_verification_link("nobody@example.com", app=app)
