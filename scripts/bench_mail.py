"""Measures how fast the outbox delivers to a local SMTP sink over one connection.

Queues --messages sign-in emails while the sink is down (each fails once and is parked as failed), starts the
sink, requeues them all at once with `latchkey outbox --retry-failed`, and times their arrival at the sink.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "e2e"))

from harness import BINARY, Latchkey, send  # noqa: E402
from smtp import SMTPSink  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--messages", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=1, help="SMTP connections (mail.workers)")
    arguments = parser.parse_args()

    with tempfile.TemporaryDirectory() as directory:
        sink = SMTPSink(Path(directory) / "sink")
        server = Latchkey(Path(directory) / "latchkey", mode="production", mail={
            "transport": "smtp", "from": "no-reply@example.com", "workers": arguments.workers, "maxAttempts": 1,
            "smtp": {"url": f"smtp://localhost:{sink.port}", "tls": "none", "timeoutSeconds": 5},
        }).start()
        try:
            for n in range(arguments.messages):
                send(server, f"user{n}@example.com")
            wait(lambda: outbox(server).count("failed") >= arguments.messages, "every message parked as failed")
            sink.start()
            started = time.monotonic()
            outbox(server, "--retry-failed")
            wait(lambda: len(list(sink.directory.glob("*.eml"))) >= arguments.messages, "every message delivered", timeout=600)
            elapsed = time.monotonic() - started
        finally:
            server.stop()
            sink.stop()
    result = {
        "messages": arguments.messages, "connections": arguments.workers, "seconds": round(elapsed, 3),
        "messages_per_second": round(arguments.messages / elapsed, 1), "binary": str(BINARY),
    }
    print(json.dumps(result))


def outbox(server, *arguments):
    return subprocess.run(
        [str(BINARY), "outbox", "--config", "latchkey.json", "--limit", "1000000", *arguments], cwd=server.directory, capture_output=True,
        text=True, check=True,
    ).stdout


def wait(condition, what, timeout=300):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            sys.exit(f"bench-mail: timed out waiting until {what}")
        time.sleep(0.05)


if __name__ == "__main__":
    main()
