"""The local SMS gateway for the end-to-end tests (Tests/support/sms_gateway.py in a subprocess), the `sms` sections
that point a server at it, and texts queued straight into a stopped or running server's SQLite outbox.

Tests reach it through conftest's `start_sms_gateway` fixture:

    gateway = start_sms_gateway()                  # or start_sms_gateway("--fail-first", "3"), started=False, ...
    server = start_latchkey(sms=webhook_sms(gateway), mail=FAST_RETRIES)   # or twilio_sms(gateway)
    ... something queues a text ...
    [text] = gateway.wait_for(1)                   # accepted texts: dicts with shape, id, to, body, from, status
    gateway.control(status=500)                    # every text answered 500 until control(status=0); delay=, garbage=
    gateway.texts()                                # every text received, accepted or not, in arrival order
"""

import base64
import json
import os
import sqlite3
import time
from pathlib import Path

import requests
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from harness import REPO
from support_process import SupportProcess

GATEWAY = REPO / "Tests" / "support" / "sms_gateway.py"
WEBHOOK_SECRET = "whsec_" + base64.b64encode(b"e2e-sms-webhook-secret-0123456789").decode()
WEBHOOK_SECRET_VARIABLE = "E2E_SMS_WEBHOOK_SECRET"
TWILIO_SID = "AC11111111111111111111111111111111"
TWILIO_TOKEN = "e2e-twilio-token"
TWILIO_FROM = "+15005550006"
# The outbox retrying within a second, with a lease short enough for a test to outlast it after a kill.
FAST_RETRIES = {"workers": 4, "retry": {"firstDelaySeconds": 1, "maximumDelaySeconds": 1, "leaseSeconds": 5}}


class SMSGateway(SupportProcess):
    """One gateway process recording into `directory`; `start` may be called again on the same port after `stop`."""

    name = "SMS gateway"
    log = "gateway.log"
    lifetime = 600

    def __init__(self, directory, *options):
        super().__init__(GATEWAY, directory, None, "--webhook-secret", WEBHOOK_SECRET, "--twilio-sid", TWILIO_SID, "--twilio-token",
                         TWILIO_TOKEN, *options)
        self.url = f"http://127.0.0.1:{self.port}"

    def control(self, status=None, delay=None, garbage=None):
        """Changes how the gateway answers from now on (`status=0` lets it judge each text again)."""
        change = {name: value for name, value in (("status", status), ("delay", delay), ("garbage", garbage)) if value is not None}
        requests.post(self.url + "/control", json=change, timeout=10).raise_for_status()

    def texts(self):
        """Every text received, accepted or not, in arrival order."""
        path = self.directory / "texts.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def accepted(self):
        return [text for text in self.texts() if text["status"] in (200, 201)]

    def wait_for(self, count, timeout=30):
        """The accepted texts, once there are at least `count`."""
        deadline = time.monotonic() + timeout
        while len(self.accepted()) < count:
            assert time.monotonic() < deadline, f"{len(self.accepted())} of {count} texts after {timeout} s"
            time.sleep(0.05)
        return self.accepted()


def webhook_sms(gateway, monkeypatch, **settings):
    """The `sms` section sending to `gateway`'s webhook, its secret in the environment (set through `monkeypatch`)."""
    monkeypatch.setenv(WEBHOOK_SECRET_VARIABLE, WEBHOOK_SECRET)
    return {"gateway": "webhook", "timeoutSeconds": 3,
            "webhook": {"url": gateway.url + "/webhook", "secretEnv": WEBHOOK_SECRET_VARIABLE}, **settings}


def twilio_sms(gateway, token_file, **settings):
    """The `sms` section sending to `gateway` as Twilio's API, the auth token in `token_file`."""
    Path(token_file).write_text(TWILIO_TOKEN + "\n")
    return {"gateway": "twilio", "timeoutSeconds": 3,
            "twilio": {"baseURL": gateway.url, "accountSid": TWILIO_SID, "from": TWILIO_FROM, "authTokenFile": str(token_file)},
            **settings}


def sealing_key(server):
    """The key the server seals its outbox with: HKDF-SHA256 of the server secret (`data/server-secret`, base64) with
    the info `ServerSecret` uses for the outbox."""
    material = base64.b64decode((server.directory / "data" / "server-secret").read_text().strip())
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"latchkey outbox sealing v1").derive(material)


def queue_texts(server, numbers, code="123456", purpose="signIn", language="en"):
    """Queues one verification text per number straight into `server`'s SQLite outbox, sealed as the server seals a
    `VerificationText` (ChaCha20-Poly1305, nonce then ciphertext then tag), as the phone flows' one call would; returns
    the new rows' ids. The server must have started once (its store and secret exist); it may be running."""
    cipher = ChaCha20Poly1305(sealing_key(server))
    content = json.dumps({"code": code, "purpose": purpose, "language": language}).encode()
    now = time.time()
    rows = []
    for number in numbers:
        nonce = os.urandom(12)
        rows.append((number, "verification-text", nonce + cipher.encrypt(nonce, content, None), now, now))
    connection = sqlite3.connect(server.directory / "data" / "latchkey.sqlite", timeout=30)
    try:
        with connection:
            return [connection.execute(
                "INSERT INTO outbox (recipient, format, sealed_message, created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?)", row).lastrowid
                for row in rows]
    finally:
        connection.close()
