"""`latchkey check-config`: every problem is printed with its key, and the exit status says whether the file is usable."""

import json
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("LATCHKEY_BIN", REPO / ".build" / "debug" / "latchkey"))


def check(config_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
    return subprocess.run(
        [str(BINARY), "check-config", "--config", str(config_path)], capture_output=True, text=True, timeout=30, env=env
    )


def test_shipped_configurations_are_valid():
    for name in ["latchkey.json", "production.example.json"]:
        result = check(REPO / "config" / name)
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
    broken.write_text("{ not json")
    result = check(broken)
    assert result.returncode != 0
    assert "broken.json" in result.stderr
