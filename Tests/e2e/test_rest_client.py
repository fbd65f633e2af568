"""A client written from Firebase's public REST documentation (plain `requests`), as an app without an SDK would be.

It uses the documented payloads under the emulator-style prefix a Firebase SDK puts in front of a custom host:
send → complete → refresh → lookup → delete, then checks that the deleted account is gone.
"""

import requests

from harness import API_KEY, CONTINUE_URL, HTTP_TIMEOUT, code_of, read_link


def call(server, path, body, form=False):
    url = f"{server.url}/{path}"
    send = {"data": body} if form else {"json": body}
    return requests.post(url, params={"key": API_KEY}, timeout=HTTP_TIMEOUT, **send)


def test_the_documented_rest_flow(server):
    toolkit = "identitytoolkit.googleapis.com/v1"
    sent = call(server, f"{toolkit}/accounts:sendOobCode", {
        "requestType": "EMAIL_SIGNIN", "email": "dana@example.com", "continueUrl": CONTINUE_URL, "canHandleCodeInApp": True,
    })
    assert sent.status_code == 200 and sent.json()["email"] == "dana@example.com"

    signed_in = call(server, f"{toolkit}/accounts:signInWithEmailLink", {
        "email": "dana@example.com", "oobCode": code_of(read_link(server, 1)),
    })
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()
    assert session["isNewUser"] is True

    refreshed = call(server, "securetoken.googleapis.com/v1/token",
                     {"grant_type": "refresh_token", "refresh_token": session["refreshToken"]}, form=True)
    assert refreshed.status_code == 200, refreshed.text
    tokens = refreshed.json()
    assert tokens["user_id"] == session["localId"]

    looked_up = call(server, f"{toolkit}/accounts:lookup", {"idToken": tokens["id_token"]})
    assert looked_up.status_code == 200
    [user] = looked_up.json()["users"]
    assert user["localId"] == session["localId"] and user["email"] == "dana@example.com" and user["emailVerified"] is True

    deleted = call(server, f"{toolkit}/accounts:delete", {"idToken": tokens["id_token"]})
    assert deleted.status_code == 200 and deleted.json() == {"kind": "identitytoolkit#DeleteAccountResponse"}

    gone = call(server, f"{toolkit}/accounts:lookup", {"idToken": tokens["id_token"]})
    assert gone.status_code == 400 and gone.json()["error"]["message"] == "USER_NOT_FOUND"
    again = call(server, "securetoken.googleapis.com/v1/token",
                 {"grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]}, form=True)
    assert again.json()["error"]["message"] == "USER_NOT_FOUND"
