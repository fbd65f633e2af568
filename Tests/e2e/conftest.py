"""Fixtures shared by the end-to-end tests."""

import pytest

from harness import Latchkey
from smtp import SMTPSink


@pytest.fixture
def start_latchkey(tmp_path):
    """Starts servers in `tmp_path/<name>`; every one is stopped when the test ends, pass or fail."""
    servers = []

    def start(name="latchkey", **config):
        server = Latchkey(tmp_path / name, **config)
        servers.append(server)
        return server.start()

    yield start
    try:
        for server in servers:
            server.stop()
    finally:
        for server in servers:
            server.kill()


@pytest.fixture
def server(start_latchkey):
    return start_latchkey()


@pytest.fixture
def start_sink(tmp_path):
    """Starts SMTP sinks in `tmp_path/sink-N`; every one is stopped when the test ends."""
    sinks = []

    def start(*options, port=None, started=True):
        sink = SMTPSink(tmp_path / f"sink-{len(sinks)}", port, *options)
        sinks.append(sink)
        return sink.start() if started else sink

    yield start
    for sink in sinks:
        sink.stop()
