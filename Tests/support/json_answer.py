"""The stand-ins' one way to answer an HTTP request with JSON (Tests/support's stubs import it beside them)."""

import json


def answer_json(handler, status, payload):
    """Sends `payload` as a complete JSON answer with `status` through `handler` (a BaseHTTPRequestHandler)."""
    data = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)
