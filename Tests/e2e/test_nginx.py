"""End-to-end tests of deploy/nginx.conf: Debian's nginx, on loopback, in front of the real binary.

nginx runs the example file itself (its ports, paths and upstream substituted) from a temporary prefix as an
unprivileged user, terminating TLS with a certificate made at test time. Clients connect from other loopback
addresses (127.0.0.2, 127.0.0.3, …: Linux routes all of 127/8 to lo), so the address nginx sees is never its own
(127.0.0.1), the one trusted proxy. Latchkey's request log lines (`ip=` and `request.id=`) show whom it believed;
nginx returns the request id it forwarded as `X-Request-Id`.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import requests
from requests.adapters import HTTPAdapter

from harness import API_KEY, CONTINUE_URL, HTTP_TIMEOUT, REPO, Latchkey, code_of, error_message, free_port, read_link, verify
from smtp import make_certificate

EXAMPLE = REPO / "deploy" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TRUSTED = ["127.0.0.1/32", "::1/128"]


# --- nginx -----------------------------------------------------------------------------------


class Nginx:
    """nginx with deploy/nginx.conf, in a directory of its own outside pytest's (which only root may enter)."""

    def __init__(self):
        if not os.access(NGINX, os.X_OK):
            pytest.fail("nginx is not installed: run scripts/bootstrap --test")
        self.directory = Path(tempfile.mkdtemp(prefix="latchkey-nginx-"))
        self.directory.chmod(0o755)
        self.tls_port, self.http_port = free_port(), free_port()
        self.url = f"https://127.0.0.1:{self.tls_port}"
        self.http_url = f"http://127.0.0.1:{self.http_port}"
        self.certificate, self.key = make_certificate(self.directory)
        self.process = None

    def configure(self, upstream_port):
        directory = self.directory
        substitutions = [  # (text in the example, replacement, how often it must occur there)
            ("server 127.0.0.1:8080;", f"server 127.0.0.1:{upstream_port};", 1),
            ("listen 80;", f"listen 127.0.0.1:{self.http_port};", 1),
            ("listen 443 ssl;", f"listen 127.0.0.1:{self.tls_port} ssl;", 1),
            ("listen [::]:80;", "", 1),
            ("listen [::]:443 ssl;", "", 1),
            ("/etc/letsencrypt/live/auth.example.com/fullchain.pem", str(self.certificate), 1),
            ("/etc/letsencrypt/live/auth.example.com/privkey.pem", str(self.key), 1),
            ("/var/log/nginx/", f"{directory}/logs/", 3),
        ]
        text = EXAMPLE.read_text()
        for old, new, count in substitutions:
            assert text.count(old) == count, f"deploy/nginx.conf no longer has {old!r} {count} time(s): update {__file__}"
            text = text.replace(old, new)
        (directory / "latchkey.conf").write_text(text)
        # What Debian's /etc/nginx/nginx.conf provides around conf.d/, with every path in the temporary prefix.
        temp = directory / "temp"
        (directory / "nginx.conf").write_text(f"""
            worker_processes 1;
            pid {directory}/nginx.pid;
            error_log {directory}/logs/error.log notice;
            events {{ worker_connections 256; }}
            http {{
                client_body_temp_path {temp}/client_body;
                proxy_temp_path {temp}/proxy;
                fastcgi_temp_path {temp}/fastcgi;
                uwsgi_temp_path {temp}/uwsgi;
                scgi_temp_path {temp}/scgi;
                access_log {directory}/logs/access.log;
                include {directory}/latchkey.conf;
            }}
        """)
        (directory / "logs").mkdir(exist_ok=True)
        temp.mkdir(exist_ok=True)
        if os.geteuid() == 0:  # never as root: everything nginx touches belongs to nobody
            for path in [directory, *directory.rglob("*")]:
                os.chown(path, 65534, 65534)

    def run(self, *arguments, **options):
        command = [NGINX, "-p", str(self.directory), "-c", str(self.directory / "nginx.conf"),
                   "-e", str(self.directory / "logs" / "error.log"), *arguments]
        if os.geteuid() == 0:
            options.update(user=65534, group=65534, extra_groups=[])
        return command, options

    def start(self, upstream_port):
        self.configure(upstream_port)
        command, options = self.run("-t")
        checked = subprocess.run(command, capture_output=True, text=True, **options)
        assert checked.returncode == 0, f"nginx -t refused the configuration:\n{checked.stderr}"
        command, options = self.run("-g", "daemon off;")
        with open(self.directory / "stderr.log", "ab") as output:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=output, stderr=output, **options)
        deadline = time.monotonic() + 10
        while True:
            assert self.process.poll() is None, f"nginx exited:\n{self.error_log()}"
            try:
                requests.get(self.url + "/healthz", verify=str(self.certificate), timeout=1)
                return self
            except requests.ConnectionError:
                assert time.monotonic() < deadline, f"nginx did not answer within 10 s:\n{self.error_log()}"
                time.sleep(0.05)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def access_log(self):
        return (self.directory / "logs" / "latchkey.access.log").read_text(errors="replace")

    def error_log(self):
        path = self.directory / "logs" / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""


class SourceAddressAdapter(HTTPAdapter):
    def __init__(self, source):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *arguments, **options):
        super().init_poolmanager(*arguments, source_address=(self.source, 0), **options)


class Client:
    """A client whose connections come from the loopback address `source`."""

    def __init__(self, source, nginx=None):
        self.source = source
        self.session = requests.Session()
        self.session.trust_env = False
        self.session.mount("http://", SourceAddressAdapter(source))
        self.session.mount("https://", SourceAddressAdapter(source))
        if nginx:
            self.session.verify = str(nginx.certificate)

    def post(self, base, path, headers=None, **kwargs):
        return self.session.post(f"{base}/v1/{path}", params={"key": API_KEY}, headers=headers, timeout=HTTP_TIMEOUT, **kwargs)

    def send(self, base, address, headers=None):
        response = self.post(base, "accounts:sendOobCode", headers, json={
            "requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": CONTINUE_URL, "canHandleCodeInApp": True,
        })
        assert response.status_code == 200, response.text
        return response


def request_log(server, request_id):
    """The metadata of Latchkey's log line for the request with this id."""
    deadline = time.monotonic() + 5
    while True:
        for line in server.logs().splitlines():
            fields = dict(re.findall(r"(\S+)=(\S+)", line))
            if fields.get("request.id") == request_id and line.rstrip().endswith("Request"):
                return fields
        assert time.monotonic() < deadline, f"no request line with request.id={request_id}:\n{server.logs()}"
        time.sleep(0.05)


def seen_address(server, response):
    """The client address Latchkey logged for the request nginx answered with `response`."""
    return request_log(server, response.headers["X-Request-Id"])["ip"]


def start_server(directory, trusted_proxies=None, server_settings=None, **config):
    """A Latchkey in production mode with request lines logged, trusting `trusted_proxies` (the default: none)."""
    server = Latchkey(directory, mode="production", logLevel="debug", **config)
    if trusted_proxies is not None:
        server.config["server"]["trustedProxies"] = trusted_proxies
    server.config["server"].update(server_settings or {})
    (directory / "latchkey.json").write_text(json.dumps(server.config, indent=2))
    return server


@pytest.fixture
def proxied(tmp_path, monkeypatch):
    """Starts Latchkey behind nginx (public URL: nginx's); both are stopped when the test ends."""
    started = []

    def start(trusted_proxies=TRUSTED):
        nginx = Nginx()
        started.append(nginx)
        server = start_server(tmp_path / "latchkey", trusted_proxies, publicURL=nginx.url)
        started.append(server)
        server.start()
        nginx.start(server.port)
        # For the harness's own requests (JWKS, discovery), which go through nginx too.
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(nginx.certificate))
        return nginx, server

    yield start
    try:
        for process in started:
            process.stop()
    finally:
        for process in started:
            if isinstance(process, Latchkey):
                process.kill()
            else:
                process.stop()
                shutil.rmtree(process.directory, ignore_errors=True)


@pytest.fixture
def direct(tmp_path):
    servers = []

    def start(trusted_proxies, **server_settings):
        server = start_server(tmp_path / f"direct-{len(servers)}", trusted_proxies, server_settings)
        servers.append(server)
        return server.start()

    yield start
    try:
        for server in servers:
            server.stop()
    finally:
        for server in servers:
            server.kill()


class Public:
    """What the harness's `verify` needs to know of a server: the URL its users reach."""

    def __init__(self, url):
        self.url = url


# --- The stories -----------------------------------------------------------------------------


def test_sign_in_through_nginx_over_tls(proxied):
    nginx, server = proxied()
    client = Client("127.0.0.2", nginx)

    sent = client.send(nginx.url, "dora@example.com")
    assert sent.headers["Strict-Transport-Security"] == "max-age=63072000"
    assert re.fullmatch(r"[0-9a-f]{32}", sent.headers["X-Request-Id"])
    assert request_log(server, sent.headers["X-Request-Id"])["path"] == "/v1/accounts:sendOobCode"

    link = read_link(server, 1)
    assert link.startswith(nginx.url + "/__/auth/action?"), "links are built from the public URL, nginx's"
    code = code_of(link)

    # The link as a browser opens it: through nginx, Latchkey hands the code on to the web app.
    opened = client.session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert opened.status_code == 303, opened.text
    assert opened.headers["Location"].startswith(CONTINUE_URL) and code in opened.headers["Location"]

    signed_in = client.post(nginx.url, "accounts:signInWithEmailLink", json={"email": "dora@example.com", "oobCode": code})
    assert signed_in.status_code == 200, signed_in.text
    session = signed_in.json()
    claims = verify(Public(nginx.url), session["idToken"])
    assert claims["email"] == "dora@example.com"

    refreshed = client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": session["refreshToken"]})
    assert refreshed.status_code == 200, refreshed.text
    assert refreshed.json()["user_id"] == session["localId"]
    replayed = client.post(nginx.url, "token", data={"grant_type": "refresh_token", "refresh_token": session["refreshToken"]})
    assert replayed.status_code == 400 and error_message(replayed) == "INVALID_REFRESH_TOKEN"

    # The largest answer streams through nginx, which may not write temporary files.
    document = client.session.get(nginx.url + "/openapi.json", timeout=HTTP_TIMEOUT)
    assert document.status_code == 200
    assert document.content == requests.get(server.url + "/openapi.json", timeout=HTTP_TIMEOUT).content

    # nginx logged the paths, never the code or a token; Latchkey neither.
    access_log = nginx.access_log()
    assert " /__/auth/action HTTP/1.1\" 303 " in access_log, access_log
    assert " /v1/accounts:signInWithEmailLink HTTP/1.1\" 200 " in access_log, access_log
    assert sent.headers["X-Request-Id"] in access_log
    for secret in [code, session["idToken"], session["refreshToken"], refreshed.json()["refresh_token"]]:
        for name, text in [("access", access_log), ("error", nginx.error_log()), ("latchkey", server.logs())]:
            assert secret not in text, f"a secret is in the {name} log"


def test_latchkey_sees_the_address_nginx_saw_and_never_a_spoofed_one(proxied):
    """Needs `server.trustedProxies`: before it, every request through nginx seems to come from 127.0.0.1."""
    nginx, server = proxied()
    attempts = [  # (the client's loopback address, what it claims to nginx)
        ("127.0.0.2", {}),
        ("127.0.0.4", {"X-Forwarded-For": "6.6.6.6"}),
        ("127.0.0.5", {"X-Forwarded-For": "6.6.6.6, 127.0.0.1"}),  # posing as a request nginx already forwarded
        ("127.0.0.6", {"Forwarded": "for=6.6.6.6"}),
        ("127.0.0.7", {"X-Real-IP": "6.6.6.6", "X-Request-Id": "chosen-by-client"}),
    ]
    seen = {}
    for n, (source, claims) in enumerate(attempts):
        response = Client(source, nginx).send(nginx.url, f"spoof{n}@example.com", claims)
        assert response.headers["X-Request-Id"] != "chosen-by-client"
        seen[source] = seen_address(server, response)
    assert seen == {source: source for source, _ in attempts}
    assert "ip=6.6.6.6" not in server.logs()


def test_without_trusted_proxies_forwarded_headers_are_ignored(proxied):
    """The default (`trustedProxies` empty): behind nginx every client is nginx, whatever the headers say."""
    nginx, server = proxied(trusted_proxies=None)
    response = Client("127.0.0.2", nginx).send(nginx.url, "default@example.com", {"X-Forwarded-For": "6.6.6.6"})
    assert seen_address(server, response) == "127.0.0.1"


def test_an_untrusted_peer_cannot_choose_its_address(direct):
    """Straight to Latchkey from 127.0.0.3, which is not a trusted proxy: forwarding headers are ignored."""
    server = direct(TRUSTED)
    for n, claims in enumerate([
        {"X-Forwarded-For": "6.6.6.6"},
        {"X-Forwarded-For": "6.6.6.6, 127.0.0.1"},
        {"Forwarded": "for=6.6.6.6"},
        {"Forwarded": "for=6.6.6.6", "X-Forwarded-For": "6.6.6.6"},
    ]):
        request_id = f"untrusted-{n}"
        Client("127.0.0.3").send(server.url, f"direct{n}@example.com", {**claims, "X-Request-Id": request_id})
        assert request_log(server, request_id)["ip"] == "127.0.0.3", claims


@pytest.mark.parametrize("header, attempts", [
    (None, [  # the default, X-Forwarded-For
        ({"X-Forwarded-For": "198.51.100.23"}, "198.51.100.23"),
        ({"X-Forwarded-For": "6.6.6.6, 198.51.100.23, 127.0.0.1"}, "198.51.100.23"),  # the right-most untrusted hop
        ({"Forwarded": "for=198.51.100.24;proto=https"}, "127.0.0.1"),  # not the header proxies append to
    ]),
    ("Forwarded", [
        ({"Forwarded": "for=198.51.100.24;proto=https"}, "198.51.100.24"),
        ({"Forwarded": "for=6.6.6.6, for=198.51.100.24, for=127.0.0.1"}, "198.51.100.24"),
        ({"X-Forwarded-For": "198.51.100.23"}, "127.0.0.1"),
    ]),
])
def test_a_trusted_proxy_is_believed(direct, header, attempts):
    """Needs `server.trustedProxies`: a request from 127.0.0.1 (trusted) is the forwarded client's, as recorded
    in the one header proxies append to (`server.clientIPHeader`)."""
    server = direct(TRUSTED, **({"clientIPHeader": header} if header else {}))
    for n, (claims, expected) in enumerate(attempts):
        request_id = f"trusted-{n}"
        Client("127.0.0.1").send(server.url, f"trusted{n}@example.com", {**claims, "X-Request-Id": request_id})
        assert request_log(server, request_id)["ip"] == expected, claims


def test_nginx_guards_the_edge(proxied):
    nginx, server = proxied()
    client = Client("127.0.0.8", nginx)

    # Plain HTTP only redirects to HTTPS.
    redirected = client.session.get(nginx.http_url + "/v1/accounts:sendOobCode?key=x", allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert redirected.status_code == 301
    assert redirected.headers["Location"] == "https://127.0.0.1/v1/accounts:sendOobCode?key=x"

    # Bodies over 64 KiB stop at nginx; just under passes (Latchkey then judges it).
    large = client.post(nginx.url, "accounts:sendOobCode", data=b"{" + b" " * (64 * 1024) + b"}",
                        headers={"Content-Type": "application/json"})
    assert large.status_code == 413 and "nginx" in large.text
    small = client.post(nginx.url, "accounts:sendOobCode", data=b"{" + b" " * (60 * 1024) + b"}",
                        headers={"Content-Type": "application/json"})
    assert small.status_code == 400 and error_message(small), small.text

    # Metrics stay on the loopback address.
    assert client.session.get(nginx.url + "/metrics", timeout=HTTP_TIMEOUT).status_code == 404

    # A flood from one address meets nginx's limit (20 per second, bursts of 40).
    flood = [client.session.get(nginx.url + "/healthz", timeout=HTTP_TIMEOUT).status_code for _ in range(150)]
    assert set(flood) <= {200, 429} and flood[:20] == [200] * 20 and 429 in flood, flood

    # With Latchkey down, nginx answers 502 and logs the failure, but never the code of an opened link.
    server.stop()
    secret = "NeverLogThisCode1234567890"
    opened = Client("127.0.0.9", nginx).session.get(
        f"{nginx.url}/__/auth/action?mode=signIn&oobCode={secret}&apiKey={API_KEY}", timeout=HTTP_TIMEOUT)
    assert opened.status_code == 502
    failed = Client("127.0.0.9", nginx).post(nginx.url, "accounts:sendOobCode", json={})
    assert failed.status_code == 502
    assert "while connecting to upstream" in nginx.error_log(), "upstream failures should be logged, or this test proves nothing"
    assert secret not in nginx.error_log() and secret not in nginx.access_log()
