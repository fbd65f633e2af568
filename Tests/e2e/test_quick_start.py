"""The README's Quick start, run as written against the embedded default configuration (on a free port)."""

import json
import os
import re
import shutil
import subprocess

import requests

from harness import HTTP_TIMEOUT, REPO, Latchkey, read_link

README = REPO / "README.md"


def quick_start_commands():
    """The shell block of the Quick start that talks to the running server."""
    section = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return next(block for block in blocks if "sendOobCode" in block)


def start_embedded_default(tmp_path):
    """`scripts/run`'s server: config/latchkey.json with only its port changed, run from a folder laid out like the repository."""
    server = Latchkey(tmp_path / "quick-start")
    config = json.loads((REPO / "config" / "latchkey.json").read_text())
    config["server"]["port"] = server.port
    config["publicURL"] = config["publicURL"].replace(":8080", f":{server.port}")
    (server.directory / "latchkey.json").write_text(json.dumps(config))
    for shared in ("templates", "examples", "openapi.json"):
        (server.directory / shared).symlink_to(REPO / shared)
    return server.start()


def run(commands, server):
    script = commands.replace("localhost:8080", f"localhost:{server.port}")
    return subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=server.directory, capture_output=True, text=True, timeout=60)


def test_the_quick_start_signs_in_and_its_emailed_link_works_when_clicked(tmp_path):
    server = start_embedded_default(tmp_path)
    try:
        result = run(quick_start_commands(), server)
        assert result.returncode == 0, result.stderr
        assert '"kind":"identitytoolkit#EmailLinkSigninResponse"' in result.stdout
        assert '"token_type":"Bearer"' in result.stdout and '"keys"' in result.stdout

        # Step 1 for another address, and its emailed link clicked: the landing page hands the code to the continue URL,
        # which must be a page that exists and not a connection error.
        send = quick_start_commands().split("# 2.")[0]
        assert run(send.replace("alice@example.com", "bob@example.com"), server).returncode == 0
        landing = requests.get(read_link(server, 2), allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert landing.status_code == 303
        continue_page = requests.get(landing.headers["Location"], timeout=HTTP_TIMEOUT)
        assert continue_page.status_code == 200 and "<html" in continue_page.text

        # Running step 1 again within the minute mails nothing; development mode says why.
        assert "no email sent" not in server.logs()
        assert run(send, server).returncode == 0
        assert "no email sent" in server.logs()
    finally:
        server.stop()


def test_scripts_run_says_which_phase_it_is_in(tmp_path):
    """A first build takes minutes: scripts/run names each phase before it starts (here with its packages, the
    compiler and the binary stood in for, in a copy of the repository's layout)."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(REPO / "scripts" / "run", tmp_path / "scripts" / "run")
    fake = tmp_path / "bin"
    fake.mkdir()
    for path, body in [(tmp_path / "scripts" / "bootstrap", "echo bootstrap ran >&2"), (fake / "swift", "echo swift \"$*\" >&2"),
                       (tmp_path / "latchkey", "echo latchkey \"$*\" >&2")]:
        path.write_text(f"#!/usr/bin/env bash\n{body}\n")
        path.chmod(0o755)
    env = dict(os.environ, PATH=f"{fake}:{os.environ['PATH']}")
    first = subprocess.run([str(tmp_path / "scripts" / "run")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30)
    assert first.returncode != 0  # no binary was built by the stand-in compiler
    lines = first.stderr.splitlines()
    assert lines[:4] == [
        "scripts/run: checking the system packages (scripts/bootstrap; the first time installs them)", "bootstrap ran",
        "scripts/run: building latchkey for the first time: about 10 minutes on a quiet 2-core machine, 25 on a busy one",
        "swift build --package-path server --product latchkey"], first.stderr
    (tmp_path / "server" / ".build" / "debug").mkdir(parents=True)
    shutil.move(tmp_path / "latchkey", tmp_path / "server" / ".build" / "debug" / "latchkey")
    again = subprocess.run([str(tmp_path / "scripts" / "run")], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=30)
    assert again.returncode == 0, again.stderr
    assert again.stderr.splitlines()[2:] == [
        "scripts/run: building latchkey (seconds when little changed)", "swift build --package-path server --product latchkey",
        "scripts/run: starting server/.build/debug/latchkey serve --config config/latchkey.json", "latchkey serve --config config/latchkey.json"]
