"""Firebase's own Admin SDK (Python, from PyPI) against Latchkey, through its emulator setting.

Nobody here wrote that client: if it manages users and links the way it does against Firebase, backends can keep
their code. In emulator mode the SDK does not check token signatures, so signatures are proven separately (with
PyJWT against the JWKS) in test_live_flow.py.
"""

import time

import pytest
import requests
from conftest import ADMIN_TOKEN
from firebase_admin import auth, exceptions

from harness import CONTINUE_URL, HTTP_TIMEOUT, PROJECT_ID, code_of, complete, error_message, post, refresh

def test_the_admin_sdk_generates_links_and_manages_users(admin):
    server, app = admin
    settings = auth.ActionCodeSettings(url=CONTINUE_URL, handle_code_in_app=True)
    link = auth.generate_sign_in_with_email_link("Alice@Example.com", settings, app=app)
    assert link.startswith(server.url + "/__/auth/action?mode=signIn&oobCode=")
    signed_in = complete(server, "alice@example.com", code_of(link))
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()

    user = auth.get_user_by_email("alice@example.com", app=app)
    assert user.uid == session["localId"] and user.email == "alice@example.com" and user.email_verified
    assert auth.get_user(user.uid, app=app).email == "alice@example.com"
    assert user.user_metadata.creation_timestamp and user.tokens_valid_after_timestamp
    claims = auth.verify_id_token(session["idToken"], check_revoked=True, app=app)
    assert claims["uid"] == user.uid and claims["email"] == "alice@example.com"

    auth.update_user(user.uid, disabled=True, app=app)
    assert auth.get_user(user.uid, app=app).disabled
    with pytest.raises(auth.UserDisabledError):
        auth.verify_id_token(session["idToken"], check_revoked=True, app=app)
    auth.update_user(user.uid, disabled=False, app=app)

    time.sleep(1.1)  # validSince has whole-second precision, as in Firebase
    auth.revoke_refresh_tokens(user.uid, app=app)
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(session["idToken"], check_revoked=True, app=app)
    assert refresh(server, session["refreshToken"]).json()["error"]["message"] == "TOKEN_EXPIRED"

    auth.delete_user(user.uid, app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(user.uid, app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("alice@example.com", app=app)


def test_the_admin_sdk_creates_users_that_sign_in(admin):
    server, app = admin
    created = auth.create_user(email="bob@example.com", password="s3cret-pw", display_name="Bob", app=app)
    fetched = auth.get_user(created.uid, app=app)
    assert fetched.display_name == "Bob" and fetched.email == "bob@example.com" and not fetched.email_verified

    response = post(server, "accounts:signInWithPassword", json={"email": "bob@example.com", "password": "s3cret-pw"})
    assert response.status_code == 200 and response.json()["localId"] == created.uid

    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email="bob@example.com", app=app)

    chosen = auth.create_user(uid="carol-42", email="carol@example.com", app=app)
    assert chosen.uid == "carol-42" and auth.get_user_by_email("carol@example.com", app=app).uid == "carol-42"
    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid="carol-42", app=app)



def test_the_admin_sdk_lists_every_user_page_by_page(admin):
    """`auth.list_users()` (`accounts:batchGet`): pages of `max_results` in uid order, and `iterate_all()` across them."""
    server, app = admin
    uids = sorted(f"listed-{n:02d}" for n in range(23))
    for uid in uids:
        auth.create_user(uid=uid, email=f"{uid}@example.com", app=app)
    first = auth.list_users(max_results=10, app=app)
    assert [user.uid for user in first.users] == uids[:10] and first.has_next_page
    assert [user.email for user in first.get_next_page().users] == [f"{uid}@example.com" for uid in uids[10:20]]
    assert [user.uid for user in auth.list_users(max_results=10, app=app).iterate_all()] == uids
    with pytest.raises(ValueError):
        auth.list_users(max_results=1001, app=app)


def test_custom_claims_set_by_the_admin_sdk_ride_in_the_next_id_token(admin):
    """`set_custom_user_claims`: `get_user` shows them and the next token (a refresh) carries them; `None` removes them."""
    server, app = admin
    user = auth.create_user(email="erin@example.com", password="erin's password", app=app)
    session = post(server, "accounts:signInWithPassword", json={"email": "erin@example.com", "password": "erin's password"}).json()
    auth.set_custom_user_claims(user.uid, {"role": "editor", "level": 3, "teams": ["a", "b"]}, app=app)
    assert auth.get_user(user.uid, app=app).custom_claims == {"role": "editor", "level": 3, "teams": ["a", "b"]}
    assert "role" not in auth.verify_id_token(session["idToken"], app=app)  # tokens issued before keep what they had
    renewed = refresh(server, session["refreshToken"]).json()
    claims = auth.verify_id_token(renewed["id_token"], check_revoked=True, app=app)
    assert (claims["role"], claims["level"], claims["teams"], claims["user_id"]) == ("editor", 3, ["a", "b"], user.uid)

    with pytest.raises(exceptions.FirebaseError) as refused:
        auth.set_custom_user_claims(user.uid, {"email_verified": True}, app=app)  # one of the claims the token sets itself
    assert "FORBIDDEN_CLAIM" in str(refused.value)
    auth.set_custom_user_claims(user.uid, None, app=app)
    assert auth.get_user(user.uid, app=app).custom_claims is None
    assert "role" not in auth.verify_id_token(refresh(server, renewed["refresh_token"]).json()["id_token"], app=app)


@pytest.mark.parametrize("admin", ["sqlite", "postgres"], indirect=True)
def test_the_admin_sdk_deletes_users_in_a_batch(admin):
    """`auth.delete_users` (`accounts:batchDelete`, always with `force`): the accounts go with their sessions, unknown
    uids are no error; without `force` (raw HTTP) only disabled accounts go; more than 1,000 uids are refused."""
    server, app = admin
    for uid in ("del-1", "del-2", "del-3"):
        auth.create_user(uid=uid, email=f"{uid}@example.com", password=f"{uid} password", app=app)
    session = post(server, "accounts:signInWithPassword", json={"email": "del-1@example.com", "password": "del-1 password"}).json()
    result = auth.delete_users(["del-1", "del-2", "never-was"], app=app)
    assert (result.success_count, result.failure_count, result.errors) == (3, 0, [])
    for uid in ("del-1", "del-2"):
        with pytest.raises(auth.UserNotFoundError):
            auth.get_user(uid, app=app)
    assert auth.get_user("del-3", app=app).email == "del-3@example.com"
    assert refresh(server, session["refreshToken"]).json()["error"]["message"] == "USER_NOT_FOUND"

    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    batch_delete = f"{server.url}/v1/projects/{PROJECT_ID}/accounts:batchDelete"
    auth.create_user(uid="del-4", disabled=True, app=app)
    gentle = requests.post(batch_delete, json={"localIds": ["del-3", "del-4"]}, headers=headers, timeout=HTTP_TIMEOUT)
    assert gentle.status_code == 200, gentle.text
    assert gentle.json() == {
        "errors": [{"index": 0, "localId": "del-3", "message": "NOT_DISABLED : Disable the account before batch deletion."}]
    }
    assert [user.uid for user in auth.list_users(app=app).iterate_all()] == ["del-3"]

    too_many = requests.post(
        batch_delete, json={"localIds": [f"u{n}" for n in range(1001)], "force": True}, headers=headers, timeout=HTTP_TIMEOUT
    )
    assert too_many.status_code == 400 and error_message(too_many) == "LOCAL_ID_LIST_EXCEEDS_LIMIT"
    with pytest.raises(ValueError):
        auth.delete_users([f"u{n}" for n in range(1001)], app=app)  # the SDK's own check of the same limit
    assert auth.get_user("del-3", app=app).uid == "del-3"
