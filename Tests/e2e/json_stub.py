"""A JSON service on loopback: the end-to-end tests' stand-in for an outside party (Facebook's Graph API, Sign in with
Apple, a service account's published keys)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit


class JSONStub:
    """Answers every request with `respond(method, path, fields)`: `(status, body)` or `(status, body, headers)`, the
    body sent as JSON; `fields` are the query's and a form body's parameters. `calls` keeps `(path, fields)` of each."""

    def __init__(self, respond):
        self.respond, self.calls = respond, []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.handle_request("GET")

            def do_POST(self):
                self.handle_request("POST")

            def handle_request(self, method):
                url = urlsplit(self.path)
                text = url.query
                if method == "POST":
                    text += "&" + self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                fields = {name: values[0] for name, values in parse_qs(text).items()}
                outer.calls.append((url.path, fields))
                status, body, *rest = outer.respond(method, url.path, fields)
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (rest[0] if rest else {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
