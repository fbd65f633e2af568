"""`accounts:revokeToken` (issue #33) against a local stub of Sign in with Apple, reached through the provider's issuer
override: Latchkey exchanges the app's authorization code for its refresh token and revokes it, with a `client_secret`
the configured Apple key signs (checked here as Apple checks it); Apple refusing or gone is a clean
`INVALID_IDP_RESPONSE`, never a 500; the key is never accepted inline in the configuration.
"""

import json
import time

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from harness import API_KEY, HTTP_TIMEOUT, NO_RATE_LIMITS, command, error_message, post
from json_stub import JSONStub

CLIENT_ID = "com.example.app"
KEY_ID = "ABC123DEFG"
TEAM_ID = "TEAM123456"


class Apple:
    """Apple's discovery document, keys, token endpoint and revocation endpoint on loopback (`stub`), and the ID tokens
    it signs. `status` is what the revocation answers."""

    def __init__(self, public_key):
        self.public_key, self.status = public_key, 200
        self.signing_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.stub = JSONStub(self.respond)
        self.url = self.stub.url

    def id_token(self, subject):
        """An ID token of Sign in with Apple for `subject`, as the app gets it from Apple."""
        now = int(time.time())
        claims = {"iss": self.url, "aud": CLIENT_ID, "sub": subject, "iat": now, "exp": now + 600}
        return jwt.encode(claims, self.signing_key, algorithm="RS256", headers={"kid": "apple-key"})

    def respond(self, method, path, form):
        if path == "/auth/keys":
            return 200, {"keys": [{**json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.signing_key.public_key())), "kid": "apple-key",
                                   "alg": "RS256", "use": "sig"}]}
        if method == "GET":
            return 200, {"issuer": self.url, "authorization_endpoint": self.url + "/auth/authorize", "jwks_uri": self.url + "/auth/keys",
                         "token_endpoint": self.url + "/auth/token", "revocation_endpoint": self.url + "/auth/revoke"}
        if not self.valid_secret(form.get("client_secret", "")):
            return 400, {"error": "invalid_client"}
        if path == "/auth/token":
            if form.get("code") != "apple-code":
                return 400, {"error": "invalid_grant"}
            return 200, {"access_token": "apple-access", "refresh_token": "apple-refresh", "id_token": "x.y.z"}
        return self.status, {} if self.status == 200 else {"error": "invalid_request"}

    @property
    def calls(self):
        """The forms posted to Apple, with their paths (fetches of the discovery document and keys left out)."""
        return [(path, form) for path, form in self.stub.calls if path in ("/auth/token", "/auth/revoke")]

    def valid_secret(self, secret):
        """Apple's checks of a client secret: ES256 by the registered key, its key id, the team, the app, not expired."""
        try:
            claims = jwt.decode(secret, self.public_key, algorithms=["ES256"], audience=self.url, issuer=TEAM_ID)
        except jwt.InvalidTokenError:
            return False
        return jwt.get_unverified_header(secret)["kid"] == KEY_ID and claims["sub"] == CLIENT_ID and claims["exp"] - claims["iat"] <= 300


def apple_provider(stub, key_file):
    return {"providerId": "apple.com", "issuer": stub.url, "allowInsecureIssuer": True, "clientId": CLIENT_ID,
            "appleKeyId": KEY_ID, "appleTeamId": TEAM_ID, "applePrivateKey": {"file": str(key_file)}}


@pytest.fixture(params=["sqlite", "postgres"])
def apple(start_latchkey, tmp_path, request):
    key = ec.generate_private_key(ec.SECP256R1())
    key_file = tmp_path / "AuthKey.p8"
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    stub = Apple(key.public_key())
    storage = {"storage": request.getfixturevalue("database")} if request.param == "postgres" else {}
    server = start_latchkey(mode="production", identityProviders=[apple_provider(stub, key_file)], **storage)
    yield server, stub
    stub.stub.stop()


def revoke(server, **body):
    return requests.post(f"{server.url}/v2/accounts:revokeToken", params={"key": API_KEY}, json={"providerId": "apple.com", **body},
                         timeout=HTTP_TIMEOUT)


def signed_in(server, stub, subject="001234.apple-user"):
    """The ID token of a user signed in with Apple."""
    answer = post(server, "accounts:signInWithIdp", json={
        "requestUri": "http://localhost", "postBody": f"id_token={stub.id_token(subject)}&providerId=apple.com", "returnSecureToken": True})
    assert answer.status_code == 200, answer.text
    return answer.json()["idToken"]


def test_an_authorization_code_is_exchanged_and_its_refresh_token_revoked(apple):
    server, stub = apple
    id_token = signed_in(server, stub)
    response = revoke(server, tokenType="3", token="apple-code", idToken=id_token)  # what firebase-ios-sdk sends
    assert response.status_code == 200 and response.json() == {}, response.text
    assert [path for path, _ in stub.calls] == ["/auth/token", "/auth/revoke"]
    assert stub.calls[1][1]["token"] == "apple-refresh" and stub.calls[1][1]["token_type_hint"] == "refresh_token"
    assert stub.calls[1][1]["client_id"] == CLIENT_ID

    stub.stub.calls.clear()
    response = requests.post(f"{server.url}/identitytoolkit.googleapis.com/v2/accounts:revokeToken", params={"key": API_KEY},
                             json={"providerId": "apple.com", "tokenType": "ACCESS_TOKEN", "token": "apple-access", "idToken": id_token},
                             timeout=HTTP_TIMEOUT)  # what firebase-js-sdk's revokeAccessToken sends
    assert response.status_code == 200, response.text
    assert [(path, form["token"], form["token_type_hint"]) for path, form in stub.calls] == [("/auth/revoke", "apple-access", "access_token")]
    assert "apple-code" not in server.logs() and "apple-refresh" not in server.logs()


def test_a_failure_at_apple_is_reported_never_a_500(apple):
    server, stub = apple
    id_token = signed_in(server, stub)
    stub.status = 400
    refused = revoke(server, tokenType="ACCESS_TOKEN", token="apple-access", idToken=id_token)
    assert refused.status_code == 400 and error_message(refused) == "INVALID_IDP_RESPONSE : revocation answered HTTP 400"
    bad_code = revoke(server, tokenType="CODE", token="wrong-code", idToken=id_token)
    assert bad_code.status_code == 400 and error_message(bad_code).startswith("INVALID_IDP_RESPONSE : token exchange answered HTTP 400")
    stub.stub.stop()
    gone = revoke(server, tokenType="ACCESS_TOKEN", token="apple-access", idToken=id_token)
    assert gone.status_code == 400 and error_message(gone).startswith("INVALID_IDP_RESPONSE"), gone.text


def test_the_caller_must_be_signed_in_and_the_request_whole(apple):
    server, stub = apple
    id_token = signed_in(server, stub)
    assert error_message(revoke(server, tokenType="CODE", token="apple-code")) == "MISSING_ID_TOKEN"
    assert error_message(revoke(server, tokenType="CODE", token="apple-code", idToken="forged")) == "INVALID_ID_TOKEN"
    assert error_message(revoke(server, tokenType="CODE", idToken=id_token)).startswith("INVALID_ARGUMENT")
    assert error_message(revoke(server, tokenType="SOMETHING", token="t", idToken=id_token)).startswith("INVALID_ARGUMENT")
    other = requests.post(f"{server.url}/v2/accounts:revokeToken", params={"key": API_KEY},
                          json={"providerId": "google.com", "tokenType": "CODE", "token": "t", "idToken": id_token}, timeout=HTTP_TIMEOUT)
    assert error_message(other) == "INVALID_PROVIDER_ID"
    anonymous = post(server, "accounts:signUp", json={}).json()["idToken"]
    assert error_message(revoke(server, tokenType="CODE", token="apple-code", idToken=anonymous)) == "NO_SUCH_PROVIDER"
    assert stub.calls == [], "nothing reaches Apple for a refused request"


def test_calls_to_apple_count_against_the_per_ip_limit(start_latchkey, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    key_file = tmp_path / "AuthKey.p8"
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    stub = Apple(key.public_key())
    server = start_latchkey(identityProviders=[apple_provider(stub, key_file)], rateLimits={**NO_RATE_LIMITS, "completePerIP": [
        {"limit": 3, "windowSeconds": 300}]})
    id_token = signed_in(server, stub)  # the sign-in is one completion, two revocations make three
    for _ in range(2):
        assert revoke(server, tokenType="ACCESS_TOKEN", token="apple-access", idToken=id_token).status_code == 200
    limited = revoke(server, tokenType="ACCESS_TOKEN", token="apple-access", idToken=id_token)
    assert limited.status_code == 400 and error_message(limited).startswith("TOO_MANY_ATTEMPTS_TRY_LATER"), limited.text
    assert len([path for path, _ in stub.calls if path == "/auth/revoke"]) == 2
    stub.stub.stop()


def test_the_apple_key_is_never_inline(start_latchkey, tmp_path):
    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    server = start_latchkey(started=False, mode="development", identityProviders=[{
        "providerId": "apple.com", "clientId": CLIENT_ID, "appleKeyId": KEY_ID, "appleTeamId": TEAM_ID, "applePrivateKey": pem}])
    checked = command(server, "check-config")
    assert checked.returncode != 0
    assert "applePrivateKey: give it as {\"env\": NAME} or {\"file\": PATH}, never inline in the file" in checked.stdout + checked.stderr
    assert pem.splitlines()[1] not in checked.stdout + checked.stderr
