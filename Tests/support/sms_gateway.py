"""A local SMS gateway for the tests: takes texts in Latchkey's two HTTP shapes and records them.

- Webhook: `POST /webhook` with a JSON body `{"id", "to", "body"}` and Standard Webhooks headers (`webhook-id`,
  `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), checked against
  `--webhook-secret` (a wrong or missing signature gets 401; a timestamp more than five minutes off too).
- Twilio: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `From` or `MessagingServiceSid`,
  `Body`, with basic auth checked against `--twilio-sid` and `--twilio-token` (401 with Twilio's error 20003 when
  wrong). A `To` listed with `--invalid-number` gets Twilio's 400 with error 21211; a 201 answers the others.

How it answers can change while it runs (`POST /control` with JSON `{"status": 500, "delay": 2.5, "garbage": false}`):
`status` other than 0 answers every text with that status (500 for an outage), `delay` waits that many seconds before
answering, `garbage` answers bytes that are not HTTP; `--status`, `--delay` and `--garbage` set them at start. `--fail-first N`
answers the first N texts with 500.

Every text is recorded, accepted or not, as one JSON line of `DIR/texts.jsonl`:
`{"shape", "id", "to", "body", "from", "status", "signature_ok"}` (`id` is the webhook's; Twilio has none, so the
body stands in). The port is written to `DIR/port` once listening. With `--exit-on-stdin-eof` the gateway exits when
its standard input closes (when the test process that started it dies).
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from json_answer import answer_json


def webhook_key(secret):
    """Standard Webhooks' `whsec_<base64>` secrets are the bytes they encode; any other secret is its UTF-8 bytes."""
    if secret.startswith("whsec_"):
        try:
            return base64.b64decode(secret[6:], validate=True)
        except ValueError:
            pass
    return secret.encode()


def signature_is_valid(secret, headers, body):
    message_id, timestamp, signatures = (headers.get(name) for name in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not (message_id and timestamp and signatures) or not timestamp.isdigit() or abs(time.time() - int(timestamp)) > 300:
        return False
    signed = f"{message_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(webhook_key(secret), signed, hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest(f"v1,{expected}", candidate) for candidate in signatures.split())


class Gateway:
    def __init__(self, options):
        self.options = options
        self.lock = threading.Lock()
        self.status, self.delay, self.garbage = options.status, options.delay, options.garbage
        self.failures_left = options.fail_first
        self.records = open(os.path.join(options.dir, "texts.jsonl"), "a", buffering=1)

    def record(self, entry):
        with self.lock:
            self.records.write(json.dumps(entry, sort_keys=True) + "\n")
            self.records.flush()

    def planned_status(self):
        """The status the next text gets apart from its own checks (0: judge it)."""
        with self.lock:
            if self.failures_left > 0:
                self.failures_left -= 1
                return 500
            return self.status


def make_handler(gateway):
    options = gateway.options

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.path == "/control":
                change = json.loads(body or b"{}")
                with gateway.lock:
                    gateway.status = int(change.get("status", gateway.status))
                    gateway.delay = float(change.get("delay", gateway.delay))
                    gateway.garbage = bool(change.get("garbage", gateway.garbage))
                return answer_json(self, 200, {"ok": True})
            if self.path == "/webhook":
                return self.webhook(body)
            parts = self.path.strip("/").split("/")
            if len(parts) == 4 and parts[0] == "2010-04-01" and parts[1] == "Accounts" and parts[3] == "Messages.json":
                return self.twilio(parts[2], body)
            answer_json(self, 404, {"error": "no such path"})

        def webhook(self, body):
            valid = signature_is_valid(options.webhook_secret, self.headers, body)
            try:
                text = json.loads(body)
            except ValueError:
                text = {}
            status = self.judge(401 if not valid else 200)
            gateway.record({"shape": "webhook", "id": text.get("id"), "to": text.get("to"), "body": text.get("body"), "from": None,
                            "status": status, "signature_ok": valid})
            self.reply(status, {"accepted": status == 200})

        def twilio(self, account, body):
            form = {name: values[0] for name, values in parse_qs(body.decode(), keep_blank_values=True).items()}
            expected = "Basic " + base64.b64encode(f"{options.twilio_sid}:{options.twilio_token}".encode()).decode()
            authorized = account == options.twilio_sid and self.headers.get("Authorization") == expected
            own = 401 if not authorized else 400 if form.get("To") in options.invalid_number or not form.get("To", "").startswith("+") else 201
            status = self.judge(own)
            gateway.record({"shape": "twilio", "id": None, "to": form.get("To"), "body": form.get("Body"),
                            "from": form.get("From") or form.get("MessagingServiceSid"), "status": status, "signature_ok": authorized})
            if status == 201:
                self.reply(201, {"sid": "SM" + hashlib.sha256(body).hexdigest()[:32], "status": "queued", "to": form.get("To")})
            elif status == 400:
                self.reply(400, {"code": 21211, "message": f"The 'To' number {form.get('To')} is not a valid phone number.", "status": 400})
            elif status == 401:
                self.reply(401, {"code": 20003, "message": "Authenticate", "status": 401})
            else:
                self.reply(status, {"code": 20500, "message": "Internal Server Error", "status": status})

        def judge(self, own):
            """The status a text gets: a planned outage first, else its own checks' verdict."""
            planned = gateway.planned_status()
            return planned if planned else own

        def reply(self, status, payload):
            with gateway.lock:
                delay, garbage = gateway.delay, gateway.garbage
            if delay:
                time.sleep(delay)
            if garbage:
                self.wfile.write(b"this is not HTTP\r\n\r\n")
                self.close_connection = True
                return
            answer_json(self, status, payload)

        def log_message(self, *args):
            pass

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--webhook-secret", default="whsec_" + base64.b64encode(b"latchkey-test-webhook-secret").decode())
    parser.add_argument("--twilio-sid", default="AC00000000000000000000000000000000")
    parser.add_argument("--twilio-token", default="twilio-test-token")
    parser.add_argument("--invalid-number", action="append", default=[])
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--status", type=int, default=0, help="answer every text with this status (as /control does)")
    parser.add_argument("--delay", type=float, default=0, help="wait this many seconds before answering")
    parser.add_argument("--garbage", action="store_true", help="answer bytes that are not HTTP")
    parser.add_argument("--lifetime", type=float, default=600, help="exit after this many seconds")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    options = parser.parse_args()
    os.makedirs(options.dir, exist_ok=True)
    gateway = Gateway(options)
    server = ThreadingHTTPServer(("127.0.0.1", options.port), make_handler(gateway))
    server.daemon_threads = True
    port_file = os.path.join(options.dir, "port")
    with open(port_file + ".tmp", "w") as file:
        file.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    if options.exit_on_stdin_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    threading.Timer(options.lifetime, lambda: os._exit(0)).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
