"""Logs and metrics as an operator sees them: JSON log lines, the start-up line, metrics on their own port."""

import json
import subprocess

import requests

from harness import BINARY, code_of, complete, free_port, read_link, send


def test_json_logs_carry_request_fields_and_no_secrets(start_latchkey):
    metrics_port = free_port()
    server = start_latchkey(mode="production", logFormat="json", metrics={"port": metrics_port})
    send(server, "alice@example.com")
    link = read_link(server, 1)
    session = complete(server, "alice@example.com", code_of(link)).json()
    server.stop()

    lines = [line for line in server.logs().splitlines() if line.strip()]
    events = [json.loads(line) for line in lines]  # every line is one JSON object
    start = next(event for event in events if event["message"] == "Latchkey starting")
    assert start["version"] and start["listen"].endswith(str(server.port)) and "synchronous normal" in start["store"]
    request = next(event for event in events if event["message"] == "Request" and event["path"] == "/v1/accounts:sendOobCode")
    assert request["status"] == "200" and request["ip"] == "127.0.0.1" and request["level"] == "info"
    assert float(request["duration_ms"]) >= 0
    text = "\n".join(lines)
    for secret in (code_of(link), session["idToken"], session["refreshToken"], "alice@example.com"):
        assert secret not in text


def test_metrics_can_move_to_their_own_port(start_latchkey):
    metrics_port = free_port()
    server = start_latchkey(metrics={"port": metrics_port})
    send(server, "bob@example.com")
    assert requests.get(f"{server.url}/metrics", timeout=5).status_code == 404
    metrics = requests.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5)
    assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
    assert 'latchkey_sign_in_codes_total{outcome="issued"} 1' in metrics.text


def run_cli(server, *arguments):
    return subprocess.run(
        [str(BINARY), *arguments, "--config", str(server.directory / "latchkey.json")],
        capture_output=True, text=True, timeout=30, cwd=server.directory)


def test_migrate_and_audit_commands(start_latchkey):
    server = start_latchkey()
    send(server, "carol@example.com")
    complete(server, "carol@example.com", code_of(read_link(server, 1)))
    server.stop()

    migrate = run_cli(server, "migrate")
    assert migrate.returncode == 0 and "schema is current" in migrate.stdout, migrate.stderr
    audit = run_cli(server, "audit", "--email", "carol@example.com")
    assert audit.returncode == 0, audit.stderr
    rows = [line.split("\t") for line in audit.stdout.splitlines()[1:]]
    assert [row[1] for row in rows] == ["sign_in_completed", "code_issued"]
    assert all(row[3] == "127.0.0.1" for row in rows)
    assert run_cli(server, "audit", "--email", "nobody@example.com").stdout.startswith("no audit events")
