"""Sign-in with an identity provider through the live binary, with ID tokens from a real OpenID Connect provider
(oidc-provider-mock on loopback): sign-up, sign-in, "account exists with a different credential", the takeover of an
unverified account, linking, forged, expired, wrong-audience, wrong-issuer and wrong-nonce tokens, a provider that is
down, the Admin SDK reading the provider data, and Google, Apple and Yahoo as built-in providers pointed at the mock.
"""

import hashlib
import time
import uuid
from urllib.parse import quote

import firebase_admin
from firebase_admin import auth

from harness import PROJECT_ID, error_message, post, refresh, verify
from oidc import OIDCProvider


def sign_in(server, id_token, provider_id="oidc.mock", **extra):
    body = {"requestUri": "http://localhost", "postBody": f"id_token={id_token}&providerId={provider_id}", "returnSecureToken": True, **extra}
    return post(server, "accounts:signInWithIdp", json=body)


def test_sign_up_sign_in_and_the_admin_sdk(start_latchkey, provider, monkeypatch):
    server = start_latchkey(identityProviders=[provider.settings()], adminTokens=["owner"],
                            tokens={"keyDirectory": "data/keys", "issuer": f"https://securetoken.google.com/{PROJECT_ID}"})
    claims = {"email": "Alice@Example.com", "email_verified": True, "name": "Alice Liddell", "picture": "https://example.com/a.png"}
    first = sign_in(server, provider.id_token("alice-1", claims))
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["isNewUser"] is True and body["providerId"] == "oidc.mock" and body["federatedId"] == "alice-1"
    assert body["email"] == "alice@example.com" and body["emailVerified"] is True and body["displayName"] == "Alice Liddell"
    assert "needConfirmation" not in body and "mfaPendingCredential" not in body

    again = sign_in(server, provider.id_token("alice-1", claims)).json()
    assert again["localId"] == body["localId"] and "isNewUser" not in again
    refreshed = refresh(server, again["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    assert refreshed.json()["user_id"] == body["localId"]

    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", f"127.0.0.1:{server.port}")
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"latchkey-{uuid.uuid4()}")
    try:
        user = auth.get_user(body["localId"], app=app)
        [entry] = [info for info in user.provider_data if info.provider_id == "oidc.mock"]
        assert entry.uid == "alice-1" and entry.email == "alice@example.com" and entry.display_name == "Alice Liddell"
        assert user.display_name == "Alice Liddell" and user.email_verified
        found = auth.get_users([auth.ProviderIdentifier("oidc.mock", "alice-1")], app=app)
        assert [record.uid for record in found.users] == [user.uid] and not found.not_found
        auth.update_user(user.uid, providers_to_delete=["oidc.mock"], app=app)
        # A provider made the account: with the provider gone it lists no way in, as in Firebase, but keeps its address.
        unlinked = auth.get_user(user.uid, app=app)
        assert unlinked.provider_data == [] and unlinked.email == "alice@example.com"
    finally:
        firebase_admin.delete_app(app)


def test_the_id_token_names_the_provider(start_latchkey, provider):
    server = start_latchkey(identityProviders=[provider.settings()])
    raw_nonce = "raw-nonce-42"
    token = provider.id_token("bob-1", {"email": "bob@example.com"}, nonce=hashlib.sha256(raw_nonce.encode()).hexdigest())
    assert error_message(sign_in(server, token)) == "MISSING_OR_INVALID_NONCE"
    answer = post(server, "accounts:signInWithIdp", json={
        "requestUri": "http://localhost", "postBody": f"id_token={token}&providerId=oidc.mock&nonce={raw_nonce}"})
    assert answer.status_code == 200, answer.text
    claims = verify(server, answer.json()["idToken"], provider="oidc.mock")
    assert claims["firebase"]["identities"]["oidc.mock"] == ["bob-1"]


def test_an_address_owned_elsewhere_needs_confirmation_then_links(start_latchkey, provider):
    server = start_latchkey(identityProviders=[provider.settings()])
    owner = post(server, "accounts:signUp", json={"email": "carol@example.com", "password": "carol-password"}).json()
    token = provider.id_token("carol-1", {"email": "carol@example.com", "email_verified": False})
    answer = sign_in(server, token).json()
    # Under enumeration protection (the default) the answer names neither the account nor its providers.
    assert answer["needConfirmation"] is True and "localId" not in answer and "verifiedProvider" not in answer and "idToken" not in answer
    assert answer["email"] == "carol@example.com" and answer["providerId"] == "oidc.mock" and answer["pendingToken"]
    # The app signs the user in the old way, then links the provider's credential to the account.
    linked = sign_in(server, token, idToken=owner["idToken"])
    assert linked.status_code == 200, linked.text
    assert linked.json()["localId"] == owner["localId"]
    assert sign_in(server, token).json()["localId"] == owner["localId"]


def test_a_vouched_address_takes_over_an_unverified_account(start_latchkey, provider):
    server = start_latchkey(identityProviders=[provider.settings()])
    squatter = post(server, "accounts:signUp", json={"email": "dan@example.com", "password": "squatter-password"}).json()
    answer = sign_in(server, provider.id_token("dan-1", {"email": "dan@example.com", "email_verified": True}))
    assert answer.status_code == 200 and answer.json()["localId"] == squatter["localId"]
    password = post(server, "accounts:signInWithPassword", json={"email": "dan@example.com", "password": "squatter-password"})
    assert password.status_code == 400
    assert refresh(server, squatter["refreshToken"]).status_code == 400


def test_forged_tokens_and_a_provider_that_is_down(start_latchkey, provider, tmp_path):
    down = OIDCProvider(tmp_path / "down.log")
    server = start_latchkey(identityProviders=[provider.settings(), down.settings("oidc.down")])
    token = provider.id_token("erin-1", {"email": "erin@example.com"})
    header, payload, signature = token.split(".")
    assert error_message(sign_in(server, f"{header}.{payload}.{signature[:-4]}AAAA")).startswith("INVALID_IDP_RESPONSE")
    assert error_message(sign_in(server, provider.id_token("erin-1", client_id="someone-else"))).startswith("INVALID_IDP_RESPONSE")
    # A provider that is not running answers nothing: a clean refusal, and the server carries on.
    refused = sign_in(server, token, provider_id="oidc.down")
    assert refused.status_code == 400 and error_message(refused) == "INVALID_IDP_RESPONSE : discovery failed: could not connect"
    assert sign_in(server, token).status_code == 200
    # Once its discovery and keys are known, a provider that stops does not stop sign-ins with its tokens.
    provider.stop()
    assert sign_in(server, token).status_code == 200
    assert "eyJ" not in server.logs()


def test_expired_wrong_issuer_and_wrong_nonce_tokens_are_refused(start_latchkey, provider, tmp_path):
    brief = OIDCProvider(tmp_path / "brief.log").start("--token-max-age", "1")
    try:
        # The mock names its issuer after the Host it is asked at: as `localhost` it is another issuer with the same keys.
        alias = {**provider.settings("oidc.alias"), "issuer": provider.issuer.replace("127.0.0.1", "localhost")}
        server = start_latchkey(identityProviders=[provider.settings(), alias, brief.settings("oidc.brief", clockSkewSeconds=0)])
        token = provider.id_token("gail-1", {"email": "gail@example.com"})
        assert error_message(sign_in(server, token, provider_id="oidc.alias")) == "INVALID_IDP_RESPONSE : the ID token is from another issuer"
        expiring = brief.id_token("gail-1")
        time.sleep(2.1)
        assert error_message(sign_in(server, expiring, provider_id="oidc.brief")) == "INVALID_IDP_RESPONSE : the ID token has expired"
        hashed = hashlib.sha256(b"the-raw-nonce").hexdigest()
        with_nonce = provider.id_token("gail-1", nonce=hashed)
        body = {"requestUri": "http://localhost", "postBody": f"id_token={with_nonce}&providerId=oidc.mock&nonce=another-nonce"}
        assert error_message(post(server, "accounts:signInWithIdp", json=body)) == "MISSING_OR_INVALID_NONCE"
        assert error_message(sign_in(server, with_nonce)) == "MISSING_OR_INVALID_NONCE"
        body["postBody"] = f"id_token={with_nonce}&providerId=oidc.mock&nonce=the-raw-nonce"
        assert post(server, "accounts:signInWithIdp", json=body).status_code == 200
    finally:
        brief.stop()


def test_google_apple_and_yahoo_are_built_in_providers_pointed_at_the_local_one(start_latchkey, provider, tmp_path):
    secret = tmp_path / "yahoo-secret"
    secret.write_text("yahoo-secret")
    server = start_latchkey(identityProviders=[
        provider.settings("google.com"), provider.settings("apple.com"),
        provider.settings("yahoo.com", responseType={"code": True}, clientSecret={"file": str(secret)}),
    ], authorizedDomains=["localhost", "127.0.0.1", "app.example.com"])
    google = sign_in(server, provider.id_token("109876", {"email": "kim@gmail.com", "email_verified": True}), provider_id="google.com").json()
    assert google["providerId"] == "google.com" and google["federatedId"] == "https://accounts.google.com/109876" and google["emailVerified"]

    # Sign in with Apple as the iOS SDK sends it: the SHA-256 of the raw nonce in the token, "true" as a string, the
    # name Apple gave the app once.
    hashed = hashlib.sha256(b"apple-raw-nonce").hexdigest()
    token = provider.id_token("001234.abcd", {"email": "tim@privaterelay.appleid.com", "email_verified": "true"}, nonce=hashed)
    user = '{"name":{"firstName":"Tim","lastName":"Apfel"}}'
    apple = post(server, "accounts:signInWithIdp", json={
        "requestUri": "http://localhost", "returnSecureToken": True,
        "postBody": f"id_token={token}&providerId=apple.com&nonce=apple-raw-nonce&user={quote(user)}"}).json()
    assert apple["emailVerified"] is True and apple["displayName"] == "Tim Apfel" and apple["federatedId"] == "001234.abcd"

    # Yahoo: discovery, then the code flow that createAuthUri starts, with Yahoo's own scope and language.
    started = post(server, "accounts:createAuthUri", json={
        "providerId": "yahoo.com", "continueUri": "https://app.example.com/back", "oauthScope": "mail-r", "customParameter": {"language": "fr"}}).json()
    assert "scope=openid%20email%20profile%20mail-r" in started["authUri"] and "language=fr" in started["authUri"]
    back = provider.authorize(started["authUri"], "yuki-1", {"email": "yuki@yahoo.com", "email_verified": True})
    yahoo = post(server, "accounts:signInWithIdp", json={"requestUri": back, "sessionId": started["sessionId"], "returnSecureToken": True}).json()
    assert yahoo["providerId"] == "yahoo.com" and yahoo["federatedId"] == "yuki-1" and yahoo["oauthAccessToken"]
