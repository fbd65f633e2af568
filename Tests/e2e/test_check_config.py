"""`latchkey check-config`: every problem is printed with its key, and the exit status says whether the file is usable."""

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import requests

from harness import free_port

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("LATCHKEY_BIN", REPO / "server" / ".build" / "debug" / "latchkey"))


def check(config_path, command="check-config", *options, cwd=None, **variables):
    """Runs `command` on the file with no LATCHKEY_ variable but `variables` (which the server would read as settings),
    from `cwd` (relative paths resolve from it), by default the file's directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")} | variables
    return subprocess.run(
        [str(BINARY), command, *options, "--config", str(config_path)], capture_output=True, text=True, timeout=30, env=env,
        cwd=cwd or Path(config_path).parent,  # relative data paths, should `serve` get that far, stay beside the file
    )


def embedded_default(**changes):
    """The embedded default configuration with `changes` made to it."""
    return json.loads((REPO / "config" / "latchkey.json").read_text()) | changes


def test_shipped_configurations_are_valid():
    # The development file is used from the repository's root (scripts/run); the production example is checked as
    # installed by test_the_documented_install_starts.
    result = check(REPO / "config" / "latchkey.json", cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout


def test_every_problem_is_named_by_its_key(tmp_path):
    config = tmp_path / "bad.json"
    config.write_text(json.dumps({
        "publicURL": "ftp://nowhere",
        "apiKeys": [],
        "mode": "staging",
        "server": {"port": 70000},
        "emailLink": {"codeLifetimeSeconds": 0},
    }))
    result = check(config)
    assert result.returncode != 0
    for key in ["projectId", "publicURL", "apiKeys", "mode", "server.port", "emailLink.codeLifetimeSeconds"]:
        assert f"{key}:" in result.stderr, result.stderr


def test_a_missing_or_malformed_file_is_refused(tmp_path):
    assert check(tmp_path / "absent.json").returncode != 0
    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "projectId": "p",\n  not json\n}')
    result = check(broken)
    assert result.returncode != 0
    assert "broken.json is not valid JSON: line 3, column 3: " in result.stderr, result.stderr


def test_unknown_keys_are_refused_with_the_key_meant(tmp_path):
    config = tmp_path / "misspelled.json"
    settings = embedded_default(projectID="typo", tokenz={"issuer": "https://example.com"})
    settings["server"] = {"port": 0, "prot": 8081}
    settings["emailLink"] = {"codeLifetimSeconds": 60}
    settings["mail"]["smtp"] = {"url": "smtp://127.0.0.1:2525"}  # kept for later: the file transport ignores it
    config.write_text(json.dumps(settings))
    expected = [
        "emailLink.codeLifetimSeconds: unknown key; did you mean `emailLink.codeLifetimeSeconds`?",
        "projectID: unknown key; did you mean `projectId`?",
        "server.prot: unknown key; did you mean `server.port`?",
        "tokenz.issuer: unknown key; did you mean `tokens.issuer`?",
    ]
    result = check(config)
    assert result.returncode != 0
    assert [line.removeprefix("  - ") for line in result.stderr.splitlines()[1:]] == expected, result.stderr
    # `serve` refuses the same file rather than run with the misspelled settings at their defaults.
    served = check(config, command="serve")
    assert served.returncode != 0
    assert all(line in served.stderr for line in expected), served.stderr


def test_a_public_url_that_is_set_but_wrong_is_named_as_given(tmp_path):
    config = tmp_path / "url.json"
    settings = embedded_default(publicURL="localhost:8080")
    del settings["mail"]["from"]  # its default would come from the public URL: only the URL is at fault
    config.write_text(json.dumps(settings))
    result = check(config, LATCHKEY_MAIL_TRANSPORT="smtp", LATCHKEY_MAIL_SMTP_URL="smtp://127.0.0.1:2525")
    assert result.returncode != 0
    assert 'publicURL: must be an absolute http(s) URL without query, e.g. https://auth.example.com; got "localhost:8080"' in result.stderr
    assert "is required" not in result.stderr and "mail.from" not in result.stderr, result.stderr


def test_a_sender_derived_from_the_public_url_says_so(tmp_path):
    config = tmp_path / "sender.json"
    settings = embedded_default()
    del settings["mail"]["from"]
    config.write_text(json.dumps(settings))
    result = check(config, LATCHKEY_MAIL_TRANSPORT="smtp", LATCHKEY_MAIL_SMTP_URL="smtp://127.0.0.1:2525")
    assert result.returncode != 0
    assert 'mail.from: not set, and the default derived from publicURL, "no-reply@localhost", is not usable' in result.stderr
    assert result.stderr.rstrip().endswith("; set mail.from"), result.stderr


def test_the_embedded_default_works_with_either_transport():
    config = REPO / "config" / "latchkey.json"
    for variables in [{}, {"LATCHKEY_MAIL_TRANSPORT": "smtp", "LATCHKEY_MAIL_SMTP_URL": "smtp://127.0.0.1:2525"}]:
        result = check(config, cwd=REPO, **variables)
        assert result.returncode == 0, (variables, result.stderr)
        assert "OK" in result.stdout


def test_an_oidc_provider_trusted_about_addresses_is_warned_of(tmp_path):
    config = tmp_path / "oidc.json"
    provider = {"providerId": "oidc.corp", "issuer": "https://sso.example.com", "clientId": "latchkey"}
    providers = [provider, {**provider, "providerId": "oidc.strict", "emailTrust": "never"}]
    config.write_text(json.dumps(embedded_default(identityProviders=providers, templatesDirectory=str(REPO / "templates"))))
    result = check(config)
    assert result.returncode == 0, result.stderr
    assert "OK" in result.stdout
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "identityProviders.0.emailTrust" in warnings[0] and "oidc.corp" in warnings[0], result.stderr


def test_check_config_says_what_serve_would_refuse(tmp_path):
    config = tmp_path / "production.json"
    settings = embedded_default(mode="production", templatesDirectory="no-templates-here")
    settings["storage"] = {"kind": "postgres", "postgres": {"host": "127.0.0.1", "port": 9, "tls": "disable", "connectTimeoutSeconds": 1}}
    config.write_text(json.dumps(settings))
    result = check(config)
    assert result.returncode == 1, result
    assert f"{config}: `serve` would refuse to start:" in result.stderr, result.stderr
    assert f"no server secret at {tmp_path}/data/server-secret" in result.stderr, result.stderr
    assert f'templatesDirectory "no-templates-here", relative to the working directory {tmp_path}: ' in result.stderr, result.stderr
    assert "postgres://" not in result.stderr  # the store is opened only when asked
    connected = check(config, "check-config", "--connect")
    assert connected.returncode == 1 and "storage.postgres: cannot use postgres://latchkey@127.0.0.1:9/latchkey" in connected.stderr, connected


def test_the_documented_install_starts(tmp_path):
    """docs/deployment.md's install, with its paths under tmp_path: the templates and the OpenAPI document installed
    in the share directory, the example configuration as /etc/latchkey/latchkey.json, the secrets the section puts in
    latchkey.env, then `check-config`, `init` and `serve` from the state directory, as the systemd unit runs it."""
    share, state = tmp_path / "share", tmp_path / "state"
    shutil.copytree(REPO / "templates", share / "templates")
    shutil.copy(REPO / "openapi.json", share / "openapi.json")
    state.mkdir()
    example = (REPO / "config" / "production.example.json").read_text()
    config = tmp_path / "latchkey.json"
    config.write_text(example.replace("/usr/local/share/latchkey", str(share)).replace("/var/lib/latchkey", str(state)))
    port = free_port()
    env = {"SMTP_PASSWORD": "from latchkey.env", "LATCHKEY_ADMIN_TOKENS": "a-long-random-admin-token", "LATCHKEY_SERVER_PORT": str(port)}

    before = check(config, cwd=state, **env)
    assert before.returncode == 1 and "run `latchkey init` once" in before.stderr, before
    assert check(config, "init", cwd=state, **env).returncode == 0
    checked = check(config, "check-config", "--connect", cwd=state, **env)
    assert checked.returncode == 0 and f"{config}: OK" in checked.stdout, checked

    process = subprocess.Popen([str(BINARY), "serve", "--config", str(config)], cwd=state, stderr=subprocess.PIPE, text=True,
                               env={k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")} | env)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert process.poll() is None, process.stderr.read()
            try:
                if requests.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                time.sleep(0.1)
        document = requests.get(url + "/openapi.json", timeout=5)
        assert document.status_code == 200 and "openapi" in document.json(), document.text
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_password_policy_outside_firebases_bounds_is_refused(tmp_path):
    config = tmp_path / "policy.json"
    config.write_text(json.dumps(embedded_default(passwordPolicy={
        "enforcementState": "STRICT",
        "constraints": {"minLength": 4, "maxLength": 5000, "requireSymbols": True},
    })))
    result = check(config)
    assert result.returncode != 0
    problems = [line.removeprefix("  - ") for line in result.stderr.splitlines()[1:]]
    assert 'passwordPolicy.enforcementState: must be one of "OFF", "ENFORCE", got "STRICT"' in problems, result.stderr
    assert "passwordPolicy.constraints.minLength: must be between 6 and 30, got 4" in problems, result.stderr
    assert "passwordPolicy.constraints.maxLength: must be between 6 and 4096, got 5000" in problems, result.stderr
    assert any(line.startswith("passwordPolicy.constraints.requireSymbols: unknown key") for line in problems), result.stderr

    config.write_text(json.dumps(embedded_default(passwordPolicy={
        "enforcementState": "ENFORCE", "forceUpgradeOnSignin": True,
        "constraints": {"minLength": 12, "maxLength": 64, "requireUppercase": True, "requireNumeric": True},
    })))
    accepted = check(config, cwd=REPO)
    assert accepted.returncode == 0, accepted.stderr
