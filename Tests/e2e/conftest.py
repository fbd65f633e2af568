"""Fixtures shared by the end-to-end tests."""

import shutil
import subprocess
import tempfile
import uuid

import firebase_admin
import pytest

from harness import PROJECT_ID, REPO, SHARED_PUBLIC_URL, SHARED_SECRET, Latchkey, free_port
from oidc import OIDCProvider
from smtp import SMTPSink
from sms import SMSGateway

# Headless Chromium's fixtures (`open_browser`, `screenshot`), for the tests where a user meets the pages.
pytest_plugins = ["browser"]


@pytest.fixture
def start_latchkey(tmp_path):
    """Starts servers in `tmp_path/<name>` (or, with `started=False`, only makes them, to `configure` and `start`
    later); every one is stopped when the test ends, pass or fail."""
    servers = []

    def start(name="latchkey", started=True, **config):
        server = Latchkey(tmp_path / name, **config)
        servers.append(server)
        return server.start() if started else server

    yield start
    try:
        for server in servers:
            server.stop()
    finally:
        for server in servers:
            server.kill()


ADMIN_TOKEN = "owner"  # what Firebase's Admin SDKs send to an emulator


@pytest.fixture
def admin(start_latchkey, monkeypatch, request):
    """A Latchkey configured as the Admin SDK's emulator, and an SDK app pointed at it: (server, app). On SQLite, or on
    a fresh PostgreSQL database for a test parametrized with `indirect=["admin"]` and `"postgres"`."""
    on_postgres = getattr(request, "param", "sqlite") == "postgres"
    storage = request.getfixturevalue("database") if on_postgres else {"sqlite": {"path": "data/latchkey.sqlite"}}
    server = start_latchkey(
        adminTokens=[ADMIN_TOKEN], storage=storage,
        tokens={"keyDirectory": "data/keys", "issuer": f"https://securetoken.google.com/{PROJECT_ID}"},
    )
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", f"127.0.0.1:{server.port}")
    app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"latchkey-{uuid.uuid4()}")
    yield server, app
    firebase_admin.delete_app(app)


@pytest.fixture
def provider(tmp_path):
    """A real OpenID Connect provider on loopback (PyPI's oidc-provider-mock), stopped when the test ends."""
    provider = OIDCProvider(tmp_path / "provider.log").start()
    yield provider
    provider.stop()


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


@pytest.fixture
def start_sms_gateway(tmp_path):
    """Starts local SMS gateways (`sms.SMSGateway`, webhook and Twilio shapes) in `tmp_path/sms-N`; every one is
    stopped when the test ends. Options are `sms_gateway.py`'s (`"--fail-first", "3"`, `"--invalid-number", "+1…"`)."""
    gateways = []

    def start(*options, started=True):
        gateway = SMSGateway(tmp_path / f"sms-{len(gateways)}", *options)
        gateways.append(gateway)
        return gateway.start() if started else gateway

    yield start
    for gateway in gateways:
        gateway.stop()


@pytest.fixture(scope="module")
def postgres_server():
    """A throwaway PostgreSQL server (scripts/postgres) for one test module: (port, directory).

    It runs on a loopback port as the unprivileged user PostgreSQL insists on, from a directory outside pytest's
    (which only root may enter)."""
    directory = tempfile.mkdtemp(prefix="latchkey-pg-")
    port = free_port()
    subprocess.run([str(REPO / "scripts" / "postgres"), "start", directory, str(port)], check=True, timeout=120)
    yield port, directory
    subprocess.run([str(REPO / "scripts" / "postgres"), "stop", directory], check=False, timeout=60)
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def database(postgres_server):
    """A fresh database's `storage` settings."""
    port, _ = postgres_server
    name = "e2e_" + uuid.uuid4().hex
    subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "latchkey", "-d", "postgres", "-c", f"CREATE DATABASE {name}"],
                   check=True, capture_output=True, timeout=30)
    return {"kind": "postgres", "postgres": {"host": "127.0.0.1", "port": port, "database": name, "user": "latchkey", "tls": "disable",
                                             "connectTimeoutSeconds": 2}}


@pytest.fixture
def start_instances(start_latchkey, tmp_path, database):
    """Starts `count` instances on one fresh database, sharing what every instance must share: the server secret
    (the signing keys are in the database, sealed with it), the public URL (`SHARED_PUBLIC_URL` unless `publicURL` is
    given) and, for the file transport the tests read, the mail folder. Each is stopped when the test ends, like every
    server of `start_latchkey`."""

    def start(count, **config):
        shared = tmp_path / "shared"
        settings = {
            "publicURL": SHARED_PUBLIC_URL,
            "storage": database,
            "security": {"serverSecret": SHARED_SECRET},
            "mail": {"transport": "file", "file": {"directory": str(shared / "outbox")}, "from": "no-reply@localhost"},
            **config,
        }
        instances = [start_latchkey(f"instance-{index}", **settings) for index in range(count)]
        for instance in instances:
            instance.outbox = shared / "outbox"
        return instances

    return start


@pytest.fixture
def admin_app(monkeypatch):
    """Makes a Firebase Admin SDK app for a server, through the SDK's emulator setting (`Bearer owner`: list `owner` in
    the server's `adminTokens`); every app is deleted when the test ends."""
    apps = []

    def make(server):
        monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", f"127.0.0.1:{server.port}")
        app = firebase_admin.initialize_app(options={"projectId": PROJECT_ID}, name=f"latchkey-{uuid.uuid4()}")
        apps.append(app)
        return app

    yield make
    for app in apps:
        firebase_admin.delete_app(app)
