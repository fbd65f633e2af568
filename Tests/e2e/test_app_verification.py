"""App verification (issue #34) through the live binary: `accounts:verifyClient` sends an iOS app's silent push
itself, over HTTP/2 and TLS, to a local APNs (`Tests/support/apns_stub.py`, hypercorn), which checks the provider token
(ES256, `kid`, `iss`) and records the push firebase-ios-sdk's `AuthNotificationManager` would read.

A send then carrying the receipt and secret gets its text once (`accounts:sendVerificationCode`, to a local SMS
gateway); the captcha checks run in the Swift suite `AppVerificationTests`; see docs/app-verification.md.
"""

import json
import subprocess
import sys
import time

import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from harness import API_KEY, HTTP_TIMEOUT, REPO, error_message, post
from sms import webhook_sms

KEY_ID, TEAM_ID, BUNDLE_ID = "KEY1234567", "TEAM123456", "com.example.app"
BAD, SLOW, DOWN = "00" * 32, "11" * 32, "22" * 32


class APNsStub:
    """The APNs stub as a child process, with the key pair whose private half Latchkey signs with."""

    def __init__(self, directory):
        self.directory = directory
        key = ec.generate_private_key(ec.SECP256R1())
        self.key_file = directory / "AuthKey.p8"
        self.key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        public = directory / "public.pem"
        public.write_bytes(key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        self.process = subprocess.Popen(
            [sys.executable, str(REPO / "Tests/support/apns_stub.py"), "--directory", str(directory), "--key-id", KEY_ID, "--team-id", TEAM_ID,
             "--public-key", str(public)],
            stdout=subprocess.PIPE, stderr=open(directory / "apns.err", "wb"), text=True)
        line = self.process.stdout.readline()
        assert line.startswith("PORT "), (directory / "apns.err").read_text()
        self.url = f"https://127.0.0.1:{int(line.split()[1])}"

    def settings(self, **apns):
        return {
            "keyId": KEY_ID, "teamId": TEAM_ID, "keyFile": str(self.key_file), "caFile": str(self.directory / "cert.pem"),
            "productionURL": self.url + "/production", "sandboxURL": self.url + "/sandbox", **apns}

    def credential(self, token):
        """The receipt and secret the last push to `token` carried: what the app sends as `iosReceipt` and `iosSecret`."""
        credential = [push for push in self.pushes() if push["token"] == token][-1]["payload"]["com.google.firebase.auth"]
        return credential["receipt"], credential["secret"]

    def pushes(self):
        path = self.directory / "pushes.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []

    def stop(self):
        self.process.kill()
        self.process.wait()


@pytest.fixture
def apns(tmp_path):
    directory = tmp_path / "apns"
    directory.mkdir()
    stub = APNsStub(directory)
    yield stub
    stub.stop()


def verify_client(server, token, sandbox=False, bundle_id=BUNDLE_ID, path="/v1/accounts:verifyClient"):
    body = {"appToken": token, **({"isSandbox": True} if sandbox else {})}
    return requests.post(server.url + path, params={"key": API_KEY}, json=body, headers={"X-Ios-Bundle-Identifier": bundle_id},
                         timeout=HTTP_TIMEOUT)


def with_apns(start_latchkey, apns, sms=None, **settings):
    return start_latchkey(
        mode="production", apps={"ios": [{"teamId": TEAM_ID, "bundleId": BUNDLE_ID}]},
        appVerification={"apns": apns.settings(**settings)}, **({"sms": sms} if sms else {}))


def test_the_ios_sdks_flow_a_pushed_receipt_admits_one_text(start_latchkey, apns, start_sms_gateway, monkeypatch):
    """firebase-ios-sdk's order: verifyClient, the silent push, then sendVerificationCode with iosReceipt and iosSecret.
    The receipt admits one text; a send without proof, or with the receipt again, texts nothing."""
    gateway = start_sms_gateway()
    server = with_apns(start_latchkey, apns, sms=webhook_sms(gateway, monkeypatch))
    token = "C0FFEE00" * 8
    assert verify_client(server, token).status_code == 200
    receipt, secret = apns.credential(token)
    body = {"phoneNumber": "+16505550101", "iosReceipt": receipt, "iosSecret": secret}
    unproven = post(server, "accounts:sendVerificationCode", json={"phoneNumber": "+16505550101"})
    assert error_message(unproven).startswith("MISSING_APP_CREDENTIAL"), unproven.text
    wrong = post(server, "accounts:sendVerificationCode", json={**body, "iosSecret": "not-the-secret"})
    assert error_message(wrong).startswith("INVALID_APP_CREDENTIAL"), wrong.text
    sent = post(server, "accounts:sendVerificationCode", json=body)
    assert sent.status_code == 200 and "sessionInfo" in sent.json(), sent.text
    again = post(server, "accounts:sendVerificationCode", json={**body, "phoneNumber": "+16505550102"})
    assert error_message(again).startswith("INVALID_APP_CREDENTIAL"), again.text
    assert [text["to"] for text in gateway.wait_for(1)] == ["+16505550101"]
    time.sleep(0.5)
    assert len(gateway.texts()) == 1


def test_verify_client_pushes_the_receipt_and_secret_as_the_ios_sdk_reads_them(start_latchkey, apns):
    server = with_apns(start_latchkey, apns)
    token = "A1B2C3D4" * 8  # uppercase, as AuthAPNSToken.string writes it
    answer = verify_client(server, token, sandbox=True)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert set(body) == {"receipt", "suggestedTimeout"} and body["suggestedTimeout"] == "10"
    [push] = apns.pushes()
    assert push["prefix"] == "/sandbox" and push["token"] == token and push["http_version"] == "2"
    assert push["headers"] == {"apns-topic": BUNDLE_ID, "apns-push-type": "background", "apns-priority": "5"}
    assert push["payload"]["aps"] == {"content-available": 1} and set(push["payload"]["com.google.firebase.auth"]) == {"receipt", "secret"}
    receipt, secret = apns.credential(token)
    assert receipt == body["receipt"]
    # Production devices go to the production URL; every v1 path family answers.
    scoped = verify_client(server, token, path="/identitytoolkit.googleapis.com/v1/projects/latchkey-e2e/accounts:verifyClient")
    assert scoped.status_code == 200, scoped.text
    assert [push["prefix"] for push in apns.pushes()] == ["/sandbox", "/production"]
    # Neither the secret nor the receipt is written anywhere in clear: the store keeps keyed hashes, the log nothing.
    stored = b"".join(path.read_bytes() for path in (server.directory / "data").glob("latchkey.sqlite*"))
    assert secret.encode() not in stored and receipt.encode() not in stored
    assert secret not in server.logs() and receipt not in server.logs()
    assert "appVerification=APNs" in server.logs()


def test_a_refused_device_token_and_apns_down_or_slow_are_clean_refusals(start_latchkey, apns):
    server = with_apns(start_latchkey, apns, timeoutSeconds=1)
    refused = verify_client(server, BAD)
    assert refused.status_code == 400 and error_message(refused) == "INVALID_APP_CREDENTIAL : APNs refused the device token: BadDeviceToken"
    for token in (DOWN, SLOW):
        started = time.monotonic()
        answer = verify_client(server, token)
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"]["status"] == "UNAVAILABLE" and answer.headers["Retry-After"] == "5"
        assert time.monotonic() - started < 8
    apns.stop()
    gone = verify_client(server, "ab" * 32)
    assert gone.status_code == 503 and error_message(gone) == "The service is currently unavailable: APNs did not answer in time. Try again shortly."


def test_what_cannot_be_pushed_is_refused_before_any_push(start_latchkey, apns):
    server = start_latchkey(
        apps={"ios": [{"teamId": TEAM_ID, "bundleId": BUNDLE_ID}]}, appVerification={"apns": apns.settings()},
        rateLimits={"verifyClientPerIP": [{"limit": 3, "windowSeconds": 300}]})
    missing = requests.post(server.url + "/v1/accounts:verifyClient", params={"key": API_KEY}, json={}, timeout=HTTP_TIMEOUT)
    assert error_message(missing) == "MISSING_IOS_APP_TOKEN"
    assert error_message(verify_client(server, "not-hex")) == "INVALID_APP_CREDENTIAL : The APNs device token must be hexadecimal."
    assert error_message(verify_client(server, "ab" * 32, bundle_id="com.example.other")).startswith("INVALID_IOS_BUNDLE_ID")
    assert apns.pushes() == []
    assert [verify_client(server, "ab" * 32).status_code for _ in range(3)] == [200, 200, 200]
    limited = verify_client(server, "ab" * 32)
    assert limited.status_code == 400 and error_message(limited) == "TOO_MANY_ATTEMPTS_TRY_LATER" and "Retry-After" in limited.headers
    assert len(apns.pushes()) == 3


def test_without_app_verification_the_start_up_line_says_it_is_off(start_latchkey):
    server = start_latchkey(appVerification={"captcha": {"provider": "recaptcha", "secretFile": str(REPO / "README.md"), "siteKey": "site-key"}})
    assert "App verification is off" not in server.logs() and "appVerification=recaptcha" in server.logs()
    params = requests.get(server.url + "/v1/recaptchaParams", params={"key": API_KEY}, timeout=HTTP_TIMEOUT)
    assert params.json() == {"kind": "identitytoolkit#GetRecaptchaParamResponse", "recaptchaSiteKey": "site-key"}
    off = start_latchkey("off")
    assert "App verification is off" in off.logs()
    refused = requests.post(off.url + "/v1/accounts:verifyClient", params={"key": API_KEY}, json={"appToken": "ab" * 32}, timeout=HTTP_TIMEOUT)
    assert error_message(refused) == "OPERATION_NOT_ALLOWED : This server sends no silent pushes (appVerification.apns is not configured)."
    assert requests.get(off.url + "/v1/recaptchaParams", params={"key": API_KEY}, timeout=HTTP_TIMEOUT).json() == {
        "kind": "identitytoolkit#GetRecaptchaParamResponse"}
