"""What caches and HTTP clients see of the running server: private answers never stored, HEAD like GET, and the
error details Google clients read."""

import pytest
import requests

from harness import API_KEY, code_of, complete, read_link, refresh, send


def never_stored(response):
    return response.headers.get("cache-control") == "no-store" and response.headers.get("pragma") == "no-cache"


def test_answers_with_tokens_and_error_envelopes_are_never_stored(server):
    send(server, "alice@example.com")
    session = complete(server, "alice@example.com", code_of(read_link(server, 1)))
    assert session.status_code == 200 and never_stored(session)
    refreshed = refresh(server, session.json()["refreshToken"])
    assert refreshed.status_code == 200 and never_stored(refreshed)

    legacy = requests.post(
        f"{server.url}/www.googleapis.com/identitytoolkit/v3/relyingparty/emailLinkSignin", params={"key": API_KEY},
        json={"email": "alice@example.com", "oobCode": "used-or-unknown"}, timeout=10)
    unknown_key = requests.post(f"{server.url}/v1/accounts:sendOobCode", params={"key": "nope"}, json={}, timeout=10)
    unknown_path = requests.post(f"{server.url}/v1/accounts:nothing", params={"key": API_KEY}, json={}, timeout=10)
    too_large = requests.post(f"{server.url}/securetoken.googleapis.com/v1/token", data=b"{" + b" " * 70_000 + b"}", timeout=10)
    for refused in (legacy, unknown_key, unknown_path, too_large):
        assert refused.status_code >= 400 and never_stored(refused), (refused.status_code, refused.headers)

    # Public keys are fetched often by verifiers and hold nothing private: caches may keep them.
    keys = requests.get(f"{server.url}/.well-known/jwks.json", timeout=10)
    assert keys.headers["cache-control"] == "public, max-age=3600" and "pragma" not in keys.headers


def test_an_unknown_api_key_carries_googles_error_info(server):
    error = requests.post(f"{server.url}/v1/accounts:sendOobCode", params={"key": "nope"}, json={}, timeout=10).json()["error"]
    assert error["errors"][0]["reason"] == "keyInvalid"
    assert error["details"] == [{
        "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com",
        "metadata": {"service": "identitytoolkit.googleapis.com"},
    }]


@pytest.mark.parametrize(
    "path",
    ["/.well-known/jwks.json", "/.well-known/openid-configuration", "/openapi.json", "/healthz", "/__/dev/mailbox",
     "/__/auth/action?mode=signIn&oobCode=unknown", "/.well-known/assetlinks.json"])
def test_head_answers_like_get_without_a_body(server, path):
    with requests.Session() as session:  # one connection: a stray body would garble the next answer
        head = session.head(f"{server.url}{path}", timeout=10, allow_redirects=False)
        get = session.get(f"{server.url}{path}", timeout=10, allow_redirects=False)
    assert head.status_code == get.status_code != 405
    assert head.content == b""
    for name in ("content-type", "content-length", "cache-control"):
        assert head.headers.get(name) == get.headers.get(name), name
