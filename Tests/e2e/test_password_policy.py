"""The password policy against the live binary: `GET /v2/passwordPolicy` in Firebase's shape, and with `ENFORCE` a weak
password refused wherever one is set (sign-up, a change, a reset, the Admin SDK's `create_user`) in Firebase's words;
with `forceUpgradeOnSignin` a sign-in with a password set before the policy is refused too, until a reset."""

import re

import pytest
import requests
from firebase_admin import auth, exceptions

from harness import API_KEY, HTTP_TIMEOUT, PROJECT_ID, code_of, error_message, post, read_email

POLICY = {
    "enforcementState": "ENFORCE",
    "constraints": {"minLength": 8, "requireUppercase": True, "requireNumeric": True, "requireNonAlphanumeric": True},
}
MISSING = "PASSWORD_DOES_NOT_MEET_REQUIREMENTS : Missing password requirements: [{}]"
NO_CLASSES = MISSING.format(
    "Password must contain an upper case character, Password must contain a numeric character, "
    "Password must contain a non-alphanumeric character"
)


def policy(server, path="/v2/passwordPolicy"):
    answer = requests.get(server.url + path, params={"key": API_KEY}, timeout=HTTP_TIMEOUT)
    assert answer.status_code == 200, answer.text
    return answer.json()


def sign_up(server, email, password):
    return post(server, "accounts:signUp", json={"email": email, "password": password, "returnSecureToken": True})


def reset_code(server, number, email):
    assert post(server, "accounts:sendOobCode", json={"requestType": "PASSWORD_RESET", "email": email}).status_code == 200
    text = read_email(server, number).get_body(preferencelist=("plain",)).get_content()
    links = re.findall(r"https?://\S+/__/auth/(?:action|confirm)\?\S*mode=resetPassword\S*", text)
    assert len(links) == 1, text
    return code_of(links[0])


def test_without_a_policy_nothing_changes(server):
    assert policy(server) == {
        "customStrengthOptions": {
            "minPasswordLength": 6, "maxPasswordLength": 4096, "containsLowercaseCharacter": False,
            "containsUppercaseCharacter": False, "containsNumericCharacter": False, "containsNonAlphanumericCharacter": False,
        },
        "allowedNonAlphanumericCharacters": list("^$*.[]{}()?\"!@#%&/\\,><':;|_~`"),
        "enforcementState": "OFF",
        "forceUpgradeOnSignin": False,
        "schemaVersion": 1,
    }
    assert sign_up(server, "al@example.com", "abcdef").status_code == 200
    assert error_message(sign_up(server, "bo@example.com", "abc")) == "WEAK_PASSWORD : Password should be at least 6 characters"


@pytest.mark.parametrize("path", [
    "/v2/passwordPolicy", f"/v2/projects/{PROJECT_ID}/passwordPolicy", "/identitytoolkit.googleapis.com/v2/passwordPolicy",
    f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/passwordPolicy",
])
def test_the_policy_is_published_on_every_v2_path(start_latchkey, path):
    server = start_latchkey(passwordPolicy=POLICY)
    published = policy(server, path)
    assert published["enforcementState"] == "ENFORCE" and published["schemaVersion"] == 1
    assert published["customStrengthOptions"]["minPasswordLength"] == 8
    assert published["customStrengthOptions"]["containsUppercaseCharacter"] is True


@pytest.mark.parametrize("admin", ["sqlite", "postgres"], indirect=True)
def test_an_enforced_policy_refuses_weak_passwords_wherever_one_is_set(admin):
    server, app = admin
    server.stop()
    server.configure(passwordPolicy=POLICY)
    server.start()

    assert error_message(sign_up(server, "al@example.com", "password")) == NO_CLASSES
    assert error_message(sign_up(server, "al@example.com", "Ab1!")) == MISSING.format("Password must contain at least 8 characters")
    session = sign_up(server, "al@example.com", "Str0ng!pw")
    assert session.status_code == 200, session.text
    id_token = session.json()["idToken"]

    assert error_message(post(server, "accounts:update", json={"idToken": id_token, "password": "password"})) == NO_CLASSES
    with pytest.raises(exceptions.InvalidArgumentError) as refused:  # Firebase enforces the policy on create_user too
        auth.create_user(email="cy@example.com", password="password", app=app)
    assert "(PASSWORD_DOES_NOT_MEET_REQUIREMENTS). Missing password requirements: [" in str(refused.value)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user_by_email("cy@example.com", app=app)
    assert auth.create_user(email="cy@example.com", password="Str0ng!pw", app=app).email == "cy@example.com"

    code = reset_code(server, 1, "al@example.com")
    assert error_message(post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": "password"})) == NO_CLASSES
    reset = post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": "N3w!password"})
    assert reset.status_code == 200, reset.text
    signed_in = post(server, "accounts:signInWithPassword", json={"email": "al@example.com", "password": "N3w!password"})
    assert signed_in.status_code == 200, signed_in.text


@pytest.mark.parametrize("store", ["sqlite", "postgres"])
def test_force_upgrade_on_sign_in_refuses_a_password_set_before_the_policy(start_latchkey, request, store):
    server = start_latchkey(**({"storage": request.getfixturevalue("database")} if store == "postgres" else {}))
    assert sign_up(server, "old@example.com", "oldpassword").status_code == 200
    server.stop()
    server.configure(passwordPolicy=POLICY)
    server.start()
    # Enforced without forceUpgradeOnSignin: the old password still signs in.
    old = {"email": "old@example.com", "password": "oldpassword"}
    assert post(server, "accounts:signInWithPassword", json=old).status_code == 200

    server.stop()
    server.configure(passwordPolicy=POLICY | {"forceUpgradeOnSignin": True})
    server.start()
    assert policy(server)["forceUpgradeOnSignin"] is True
    assert error_message(post(server, "accounts:signInWithPassword", json=old)) == NO_CLASSES
    wrong = post(server, "accounts:signInWithPassword", json=old | {"password": "oldpassworx"})
    assert error_message(wrong) == "INVALID_LOGIN_CREDENTIALS"

    code = reset_code(server, 1, "old@example.com")
    assert post(server, "accounts:resetPassword", json={"oobCode": code, "newPassword": "N3w!password"}).status_code == 200
    renewed = post(server, "accounts:signInWithPassword", json=old | {"password": "N3w!password"})
    assert renewed.status_code == 200, renewed.text


def test_the_admin_config_shows_the_policy_as_the_node_admin_sdk_reads_it(start_latchkey):
    """`GET /v2/projects/{p}/config`'s `passwordPolicyConfig`, which firebase-admin-node's `getProjectConfig()` reads."""
    server = start_latchkey(adminTokens=["owner"], passwordPolicy=POLICY | {"forceUpgradeOnSignin": True})
    answer = requests.get(f"{server.url}/v2/projects/{PROJECT_ID}/config", headers={"Authorization": "Bearer owner"}, timeout=HTTP_TIMEOUT)
    assert answer.status_code == 200, answer.text
    assert answer.json()["passwordPolicyConfig"] == {
        "passwordPolicyEnforcementState": "ENFORCE", "forceUpgradeOnSignin": True,
        "passwordPolicyVersions": [{"customStrengthOptions": policy(server)["customStrengthOptions"]}],
    }
    assert answer.json()["passwordPolicyConfig"]["passwordPolicyVersions"][0]["customStrengthOptions"]["minPasswordLength"] == 8
