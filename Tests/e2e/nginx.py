"""Debian's nginx for the end-to-end tests: one of the deploy/ examples, run as it is from a temporary prefix.

Only what a test machine must change is substituted: ports, the certificate, the log directory and the upstream
servers (the instances on loopback ports; a test may substitute more, saying so). nginx terminates TLS with a certificate made at test time
and runs as an unprivileged user. Clients connect from other loopback addresses (127.0.0.2, 127.0.0.3, …: Linux
routes all of 127/8 to lo), so the address nginx sees is never its own (127.0.0.1), the one trusted proxy.
Latchkey's request log lines (`ip=` and `request.id=`) show whom it believed and which instance answered; nginx
returns the request id it forwarded as `X-Request-Id`.
"""

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

from harness import API_KEY, HTTP_TIMEOUT, free_port, link_request
from smtp import make_certificate

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# The address of an upstream server line of an example; the test puts its own instances there, in order.
UPSTREAM_SERVER = re.compile(r"^(\s*server )[^\s:;]+:\d+(?=[\s;])", re.MULTILINE)


class Nginx:
    """nginx with `example` (a file in deploy/), in a directory of its own outside pytest's (which only root may enter)."""

    def __init__(self, example):
        if not os.access(NGINX, os.X_OK):
            pytest.fail("nginx is not installed: run scripts/bootstrap --test")
        self.example = Path(example)
        self.directory = Path(tempfile.mkdtemp(prefix="latchkey-nginx-"))
        self.directory.chmod(0o755)
        self.tls_port, self.http_port = free_port(), free_port()
        self.url = f"https://127.0.0.1:{self.tls_port}"
        self.http_url = f"http://127.0.0.1:{self.http_port}"
        self.certificate, self.key = make_certificate(self.directory)
        self.process = None

    def configure(self, upstream_ports, changes=()):
        """The example with `upstream_ports` for its upstream servers, and `changes` (old, new, count) on top."""
        directory = self.directory
        name = f"deploy/{self.example.name}"
        substitutions = [  # (text in the example, replacement, how often it must occur there)
            ("listen 80;", f"listen 127.0.0.1:{self.http_port};", 1),
            ("listen 443 ssl;", f"listen 127.0.0.1:{self.tls_port} ssl;", 1),
            ("listen [::]:80;", "", 1),
            ("listen [::]:443 ssl;", "", 1),
            ("/etc/letsencrypt/live/auth.example.com/fullchain.pem", str(self.certificate), 1),
            ("/etc/letsencrypt/live/auth.example.com/privkey.pem", str(self.key), 1),
            ("/var/log/nginx/", f"{directory}/logs/", 3),
            *changes,
        ]
        text = self.example.read_text()
        servers = UPSTREAM_SERVER.findall(text)
        assert len(servers) == len(upstream_ports), f"{name} has {len(servers)} upstream servers, the test {len(upstream_ports)}"
        ports = iter(upstream_ports)
        text = UPSTREAM_SERVER.sub(lambda match: f"{match.group(1)}127.0.0.1:{next(ports)}", text)
        for old, new, count in substitutions:
            assert text.count(old) == count, f"{name} no longer has {old!r} {count} time(s): update {__file__}"
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

    def start(self, *upstream_ports, changes=()):
        self.configure(upstream_ports, changes)
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

    def remove(self):
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

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
        response = self.post(base, "accounts:sendOobCode", headers, json=link_request(address))
        assert response.status_code == 200, response.text
        return response


def find_request_log(server, request_id):
    """The metadata of Latchkey's log line for the request with this id, or None when `server` logged none."""
    for line in server.logs().splitlines():
        fields = dict(re.findall(r"(\S+)=(\S+)", line))
        if fields.get("request.id") == request_id and line.rstrip().endswith("Request"):
            return fields
    return None


def request_log(server, request_id):
    """The metadata of Latchkey's log line for the request with this id, waiting for it to be written."""
    deadline = time.monotonic() + 5
    while (fields := find_request_log(server, request_id)) is None:
        assert time.monotonic() < deadline, f"no request line with request.id={request_id}:\n{server.logs()}"
        time.sleep(0.05)
    return fields


def request_logs(server, path, count):
    """The metadata of Latchkey's request lines for `path`, in order, waiting until there are `count` of them: for
    requests from peers that are not trusted proxies, whose X-Request-Id Latchkey does not adopt."""
    deadline = time.monotonic() + 10
    while True:
        lines = [dict(re.findall(r"(\S+)=(\S+)", line)) for line in server.logs().splitlines() if line.rstrip().endswith("Request")]
        found = [fields for fields in lines if fields.get("path") == path]
        if len(found) >= count:
            return found
        assert time.monotonic() < deadline, f"fewer than {count} request lines for {path}:\n{server.logs()}"
        time.sleep(0.05)
