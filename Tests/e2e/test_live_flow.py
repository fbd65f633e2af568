"""End-to-end tests: the real `latchkey` binary, driven over HTTP the way a Firebase client would.

Each test starts the server as a subprocess on a free port with its own data directory, reads
the sign-in email from the file outbox, and verifies ID tokens against the JWKS it serves.

    python3 -m pip install -r Tests/e2e/requirements.txt
    python3 -m pytest -q Tests/e2e

Set LATCHKEY_BIN to test a binary other than `server/.build/debug/latchkey`.
"""

import concurrent.futures
import threading
from urllib.parse import parse_qs, urlsplit

import requests

from harness import (
    API_KEY, CONTINUE_URL, HTTP_TIMEOUT, PROJECT_ID, code_of, complete, error_message, read_email, read_link, refresh, send, verify,
)


# --- The stories -----------------------------------------------------------------------------


def test_sign_in_by_email_link_then_refresh(server):
    send(server, "Alice@Example.com")

    message = read_email(server, 1)
    assert message["To"] == "alice@example.com"
    assert message["From"] and "no-reply@localhost" in message["From"]
    assert message["Subject"]
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]

    link = read_link(server, 1)
    assert link.startswith(server.url + "/__/auth/action?")
    query = parse_qs(urlsplit(link).query)
    assert query["mode"] == ["signIn"]
    assert query["apiKey"] == [API_KEY]
    assert query["continueUrl"] == [CONTINUE_URL]
    assert query["lang"] == ["en"]

    response = complete(server, "alice@example.com", code_of(link))
    assert response.status_code == 200, response.text
    session = response.json()
    assert session["kind"] == "identitytoolkit#EmailLinkSigninResponse"
    assert session["email"] == "alice@example.com"
    assert session["isNewUser"] is True
    assert session["expiresIn"] == "3600"

    claims = verify(server, session["idToken"])
    assert claims["sub"] == session["localId"]
    assert claims["email"] == "alice@example.com"
    assert claims["email_verified"] is True
    assert claims["firebase"]["identities"]["email"] == ["alice@example.com"]

    response = refresh(server, session["refreshToken"])
    assert response.status_code == 200, response.text
    refreshed = response.json()
    assert refreshed["token_type"] == "Bearer"
    assert refreshed["expires_in"] == "3600"
    assert refreshed["user_id"] == session["localId"]
    assert refreshed["project_id"] == PROJECT_ID
    assert refreshed["access_token"] == refreshed["id_token"]
    assert refreshed["refresh_token"] != session["refreshToken"], "refresh tokens must rotate"
    new_claims = verify(server, refreshed["id_token"])
    assert new_claims["sub"] == session["localId"]
    assert new_claims["email"] == "alice@example.com"
    assert new_claims["auth_time"] == claims["auth_time"], "refreshing is not signing in again"

    # Someone replays the old refresh token: refused, and the whole chain goes with it.
    reused = refresh(server, session["refreshToken"])
    assert reused.status_code == 400, reused.text
    assert error_message(reused) == "INVALID_REFRESH_TOKEN"
    newest = refresh(server, refreshed["refresh_token"])
    assert newest.status_code == 400, newest.text
    assert error_message(newest) == "INVALID_REFRESH_TOKEN"


def test_links_and_sessions_survive_a_restart(server):
    # A link requested before a restart works after it (even if the email went out only after it).
    send(server, "bob@example.com")
    server.stop()
    server.start()
    response = complete(server, "bob@example.com", code_of(read_link(server, 1)))
    assert response.status_code == 200, response.text
    session = response.json()
    assert session["isNewUser"] is True

    # A session begun before a restart is still good after it.
    server.stop()
    server.start()
    claims = verify(server, session["idToken"])
    assert claims["sub"] == session["localId"]
    response = refresh(server, session["refreshToken"], as_json=True)
    assert response.status_code == 200, response.text
    assert response.json()["user_id"] == session["localId"]
    verify(server, response.json()["id_token"])


def sign_in_refresh_and_replay(server, address):
    """Runs every flow whose secrets could leak into logs; returns the link and every token seen."""
    send(server, address)
    link = read_link(server, 1)
    signed_in = complete(server, address, code_of(link))
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()
    refreshed = refresh(server, session["refreshToken"])
    assert refreshed.status_code == 200, refreshed.text
    replayed = refresh(server, session["refreshToken"])
    assert replayed.status_code == 400, replayed.text
    tokens = [session["idToken"], session["refreshToken"], refreshed.json()["id_token"], refreshed.json()["refresh_token"]]
    return link, tokens


def test_logs_hold_no_secrets(start_latchkey):
    development = start_latchkey("development")
    link, tokens = sign_in_refresh_and_replay(development, "carol@example.com")
    development.stop()
    lines = development.logs().splitlines()

    with_code = [line for line in lines if code_of(link) in line]
    assert len(with_code) == 1, "\n".join(with_code)
    assert "Development mode" in with_code[0] and link in with_code[0]
    for token in tokens:
        assert not [line for line in lines if token in line], "a token was logged"

    # Production mode, even at debug level, never logs the link.
    production = start_latchkey("production", mode="production", logLevel="debug")
    link, tokens = sign_in_refresh_and_replay(production, "carol@example.com")
    production.stop()
    logs = production.logs()
    assert "path=/v1/accounts:sendOobCode" in logs, "debug lines should be on, or this test proves nothing"
    for secret in [code_of(link), *tokens]:
        assert secret not in logs


def test_fifty_concurrent_completions_of_one_code_sign_in_once(server):
    """Fifty clients, each on its own connection, race to use one code: exactly one wins."""
    send(server, "race@example.com")
    code = code_of(read_link(server, 1))
    barrier = threading.Barrier(50)

    def attempt(_):
        barrier.wait(timeout=HTTP_TIMEOUT)
        response = requests.post(
            f"{server.url}/v1/accounts:signInWithEmailLink", params={"key": API_KEY},
            json={"email": "race@example.com", "oobCode": code}, headers={"Connection": "close"}, timeout=HTTP_TIMEOUT,
        )
        return response.status_code, response.json()

    with concurrent.futures.ThreadPoolExecutor(max_workers=50) as pool:
        results = list(pool.map(attempt, range(50)))
    assert [status for status, _ in results].count(200) == 1
    losers = [body["error"]["message"] for status, body in results if status != 200]
    assert losers == ["INVALID_OOB_CODE"] * 49
