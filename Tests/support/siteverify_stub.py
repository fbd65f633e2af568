"""A local stand-in for a captcha provider's siteverify API (reCAPTCHA, hCaptcha and Cloudflare Turnstile share it),
for the tests of app verification (issue #34).

Started as `python siteverify_stub.py --secret SECRET --record FILE` (and `--until-stdin-closes` to end with the
parent's pipe); prints `PORT n` once it listens on 127.0.0.1,
answers a form POST of `secret`, `response` and `remoteip` as the providers do, and appends each form it gets to FILE
as a JSON line. A wrong secret is `invalid-input-secret`. Tokens that play a part: `pass` passes on host `localhost`,
`low-score` passes with score 0.1, `elsewhere` passes on `evil.example`, `slow` gets no answer for a minute; any other
token is `invalid-input-response`.
"""

import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

from json_answer import answer_json


def exit_when_stdin_closes():
    """For a parent that cannot stop its children (the Swift test process): the stub ends with the parent's pipe."""
    def wait():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=wait, daemon=True).start()


def verdict(secret, fields):
    if fields.get("secret") != secret:
        return {"success": False, "error-codes": ["invalid-input-secret"]}
    token = fields.get("response")
    if token == "pass":
        return {"success": True, "hostname": "localhost", "challenge_ts": "2026-01-01T00:00:00Z"}
    if token == "low-score":
        return {"success": True, "hostname": "localhost", "score": 0.1}
    if token == "elsewhere":
        return {"success": True, "hostname": "evil.example"}
    return {"success": False, "error-codes": ["invalid-input-response"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--until-stdin-closes", action="store_true")
    arguments = parser.parse_args()
    if arguments.until_stdin_closes:
        exit_when_stdin_closes()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
            fields = {name: values[0] for name, values in parse_qs(body).items()}
            with open(arguments.record, "a") as file:
                file.write(json.dumps(fields) + "\n")
            if fields.get("response") == "slow":
                time.sleep(60)
            answer_json(self, 200, verdict(arguments.secret, fields))

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
