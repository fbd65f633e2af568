"""A real SMTP server for the end-to-end tests: Tests/support/smtp_sink.py (aiosmtpd) in a subprocess."""

import email
import email.policy
import json
import subprocess
import time
from pathlib import Path

from harness import REPO
from support_process import SupportProcess

SINK = REPO / "Tests" / "support" / "smtp_sink.py"


class SMTPSink(SupportProcess):
    """One sink process recording into `directory`; `start` may be called again on the same port after `stop`."""

    name = "SMTP sink"
    log = "sink.log"

    def __init__(self, directory, port=None, *options):
        super().__init__(SINK, directory, port, *options)

    def messages(self):
        """Every accepted message as (envelope, parsed message), in arrival order."""
        result = []
        for path in sorted(self.directory.glob("*.eml")):
            envelope = json.loads(path.with_suffix(".json").read_text())
            result.append((envelope, email.message_from_bytes(path.read_bytes(), policy=email.policy.default)))
        return result

    def wait_for(self, count, timeout=20):
        deadline = time.monotonic() + timeout
        while len(self.messages()) < count:
            assert time.monotonic() < deadline, f"{len(self.messages())} of {count} messages after {timeout} s"
            time.sleep(0.05)
        return self.messages()

    def connections(self):
        path = self.directory / "connections"
        return int(path.read_text()) if path.exists() else 0


def smtp_mail(port, **smtp):
    """The `mail` section for a sink on `port`, retrying quickly so tests stay short."""
    return {
        "transport": "smtp",
        "from": "no-reply@example.com",
        "fromName": "Latchkey Tests",
        "workers": 2,
        "retry": {"firstDelaySeconds": 1, "maximumDelaySeconds": 1, "leaseSeconds": 5},
        "smtp": {"url": f"smtp://localhost:{port}", "tls": "none", "timeoutSeconds": 3, "heloName": "latchkey.test", **smtp},
    }


def make_certificate(directory):
    """A self-signed certificate for localhost, made at test time; returns (certificate, key) paths."""
    cert, key = Path(directory) / "cert.pem", Path(directory) / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
         "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )
    return cert, key
