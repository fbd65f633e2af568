"""Classic Facebook Login through the live binary: the app's access token is checked with Facebook's Graph API
(`debug_token` with the app's own token, then `me`), here a small stub on loopback that answers as Facebook does.
"""

import json

import pytest

from harness import error_message, post
from json_stub import JSONStub

APP_ID, APP_SECRET = "fb-app", "fb-app-secret"
# Access token → (the app it was issued to, whether Facebook still honours it, its user).
TOKENS = {"fay-token": (APP_ID, True, "10001"), "other-app-token": ("another-app", True, "10002"), "revoked-token": (APP_ID, False, "10003")}
PROFILES = {"fay-token": {"id": "10001", "name": "Fay Book", "first_name": "Fay", "last_name": "Book", "email": "fay@example.com",
                          "picture": {"data": {"url": "https://example.com/fay.png"}}}}


def graph_api(method, path, query):
    """Facebook's Graph API: `debug_token` with the app's token, and `me`."""
    if path == "/debug_token" and query.get("access_token") == f"{APP_ID}|{APP_SECRET}":
        app, valid, user = TOKENS.get(query.get("input_token"), (None, False, None))
        return 200, {"data": {"app_id": app, "is_valid": valid, "user_id": user}}
    if path == "/me" and query.get("access_token") in PROFILES:
        return 200, PROFILES[query["access_token"]]
    return 400, {"error": {"message": "Invalid OAuth access token.", "type": "OAuthException", "code": 190}}


@pytest.fixture
def graph():
    stub = JSONStub(graph_api)
    yield stub
    stub.stop()


def facebook(graph_url):
    return {"providerId": "facebook.com", "clientId": APP_ID, "clientSecret": APP_SECRET, "graphURL": graph_url, "allowInsecureIssuer": True}


def sign_in(server, token):
    return post(server, "accounts:signInWithIdp", json={
        "requestUri": "http://localhost", "postBody": f"access_token={token}&providerId=facebook.com", "returnSecureToken": True})


def test_an_access_token_of_this_app_signs_in_with_the_graph_profile(start_latchkey, graph):
    server = start_latchkey(identityProviders=[facebook(graph.url)])
    answer = sign_in(server, "fay-token")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["providerId"] == "facebook.com" and body["federatedId"] == "10001" and body["isNewUser"] is True
    assert body["displayName"] == "Fay Book" and body["firstName"] == "Fay" and body["photoUrl"] == "https://example.com/fay.png"
    # Facebook does not say an address is proven: the account's address stays unverified.
    assert body["email"] == "fay@example.com" and body["emailVerified"] is False and json.loads(body["rawUserInfo"])["id"] == "10001"
    # The SDKs build the credential from the access token the answer gives back.
    assert body["oauthAccessToken"] == "fay-token" and "pendingToken" not in body
    assert [path for path, _ in graph.calls] == ["/debug_token", "/me"]
    assert sign_in(server, "fay-token").json()["localId"] == body["localId"]
    assert "fay-token" not in server.logs() and APP_SECRET not in server.logs()


def test_a_token_of_another_app_a_revoked_one_and_a_graph_that_is_down_are_refused(start_latchkey, graph):
    server = start_latchkey(identityProviders=[facebook(graph.url)])
    assert error_message(sign_in(server, "other-app-token")) == "INVALID_IDP_RESPONSE : the access token is for another app"
    assert error_message(sign_in(server, "revoked-token")) == "INVALID_IDP_RESPONSE : the access token is not valid"
    assert error_message(sign_in(server, "made-up")) == "INVALID_IDP_RESPONSE : the access token is not valid"
    graph.stop()
    refused = sign_in(server, "fay-token")
    assert refused.status_code == 400 and error_message(refused) == "INVALID_IDP_RESPONSE : Graph API failed: could not connect"


def test_a_wrong_app_secret_is_a_clean_refusal(start_latchkey, graph):
    server = start_latchkey(identityProviders=[{**facebook(graph.url), "clientSecret": "stale-secret"}])
    assert error_message(sign_in(server, "fay-token")) == "INVALID_IDP_RESPONSE : Graph API answered HTTP 400"


def test_an_address_with_an_account_needs_confirmation(start_latchkey, graph):
    server = start_latchkey(identityProviders=[facebook(graph.url)])
    owner = post(server, "accounts:signUp", json={"email": "fay@example.com", "password": "correct horse"}).json()
    body = sign_in(server, "fay-token").json()
    assert body["needConfirmation"] is True and "localId" not in body and "idToken" not in body
    assert body["pendingToken"] and body["oauthAccessToken"] == "fay-token" and owner["localId"]
