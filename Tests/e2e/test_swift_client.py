"""LatchkeyAuth, the Swift client library (issue #20), against the live binary: `latchkey-signin`, the example tool built
on it, signs in over real HTTP with the link from the email, and on a second device with the code the email shows.

The tool keeps the session in a file of mode 0600; a second run finds the user signed in and renews the ID token with
the stored refresh token; `--sign-out` forgets it. Neither the refresh token nor the code appears in what it prints.
By default the session is kept in one file per service (scheme, host and port), stored with the service it belongs
to; a session file open to other users is not used (issue #31, point 13).
"""

import json
import os
import re
import stat
import subprocess

from pathlib import Path

from harness import API_KEY, NO_RATE_LIMITS, REPO, read_email, read_link
from sms import webhook_sms

# Built by the client package at the repository's root (`swift build`), not by the server's.
SIGNIN = Path(os.environ.get("LATCHKEY_SIGNIN_BIN", REPO / ".build" / "debug" / "latchkey-signin"))
CODE = r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}"
TIMEOUT = 30


def run(server, session, *extra, answers=None):
    """Runs the tool against `server`; `answers(process)` types into it while it runs. Returns its output."""
    process = subprocess.Popen(
        [str(SIGNIN), "--service", server.url, "--api-key", API_KEY, "--session", str(session), *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    if answers:
        answers(process)
    output, errors = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, errors
    return output


def type_line(process, text):
    process.stdin.write(text + "\n")
    process.stdin.flush()


def claims_in(output):
    return json.loads(output[output.index("{"):])


def test_signs_in_with_the_link_keeps_the_session_and_signs_out(start_latchkey, tmp_path):
    server = start_latchkey(emailLink={"codeLifetimeSeconds": 600, "typedCode": True})
    session = tmp_path / "client" / "session.json"

    def answer(process):
        type_line(process, "ada@example.com")
        type_line(process, read_link(server, 1))

    output = run(server, session, answers=answer)
    assert "A sign-in link is on its way to ada@example.com." in output and "Signed in as ada@example.com." in output, output
    claims = claims_in(output)
    assert claims["email"] == "ada@example.com" and claims["email_verified"] is True
    assert claims["firebase"]["sign_in_provider"] == "password" and claims["iss"] == server.url

    assert stat.S_IMODE(session.stat().st_mode) == 0o600
    stored = json.loads(session.read_text())
    refresh_token = stored["tokens"]["refreshToken"]
    assert refresh_token not in output

    again = run(server, session)
    assert "Already signed in as ada@example.com." in again and claims_in(again)["sub"] == claims["sub"], again

    assert "Signed out." in run(server, session, "--sign-out")
    assert not session.exists()
    assert refresh_token not in server.logs()


def test_a_second_device_signs_in_with_the_typed_code(start_latchkey, tmp_path):
    server = start_latchkey(emailLink={"codeLifetimeSeconds": 600, "typedCode": True})

    def answer(process):
        type_line(process, "bea@example.com")
        text = read_email(server, 1).get_body(preferencelist=("plain",)).get_content()
        code = re.search(rf"^\s*({CODE})\s*$", text, re.MULTILINE).group(1)
        answer.code = code
        type_line(process, code.lower())

    output = run(server, tmp_path / "tablet.json", answers=answer)
    assert "Signed in as bea@example.com." in output, output
    assert claims_in(output)["email"] == "bea@example.com"
    assert answer.code not in output and answer.code not in server.logs()


def test_a_spent_link_fails_cleanly(start_latchkey, tmp_path):
    server = start_latchkey()

    def answer(process):
        type_line(process, "cy@example.com")
        answer.link = read_link(server, 1)
        type_line(process, answer.link)

    run(server, tmp_path / "one.json", answers=answer)
    process = subprocess.Popen(
        [str(SIGNIN), "--service", server.url, "--api-key", API_KEY, "--session", str(tmp_path / "two.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    type_line(process, "cy@example.com")
    read_email(server, 2)
    type_line(process, answer.link)
    _, errors = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 1
    assert "AuthError.invalidActionCode (INVALID_OOB_CODE)" in errors, errors


def run_with_config(home, service, *extra, answers=None):
    """Runs the tool with `home` as XDG_CONFIG_HOME and its default session file; returns (status, output, errors)."""
    process = subprocess.Popen(
        [str(SIGNIN), "--service", service, "--api-key", API_KEY, *extra],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "XDG_CONFIG_HOME": str(home)},
    )
    if answers:
        answers(process)
    output, errors = process.communicate(timeout=TIMEOUT)
    return process.returncode, output, errors


def test_the_default_session_is_one_per_service_and_the_owners_alone(start_latchkey, tmp_path):
    server = start_latchkey()

    def answer(process):
        type_line(process, "dee@example.com")
        type_line(process, read_link(server, 1))

    status, output, errors = run_with_config(tmp_path, server.url, answers=answer)
    assert status == 0 and "Signed in as dee@example.com." in output, errors
    session = tmp_path / "latchkey" / f"signin-http-127.0.0.1-{server.port}.json"
    assert stat.S_IMODE(session.stat().st_mode) == 0o600
    stored = json.loads(session.read_text())["service"]
    assert (stored["scheme"], stored["host"], stored["port"], stored["apiKey"]) == ("http", "127.0.0.1", server.port, API_KEY)

    # The same server under another name is another service: it is not sent this session, and asks for an address.
    status, output, _ = run_with_config(tmp_path, f"http://localhost:{server.port}")
    assert status == 1 and "Email address:" in output and "Already signed in" not in output, output
    assert run_with_config(tmp_path, server.url)[1].startswith("Already signed in as dee@example.com.")

    # A session file others may read is not used, and the tool says why.
    session.chmod(0o644)
    status, output, _ = run_with_config(tmp_path, server.url)
    assert status == 1 and "Already signed in" not in output, output
    assert "Not using the stored session" in output and "open to other users (mode 644)" in output, output


def test_help_prints_the_usage():
    process = subprocess.run([str(SIGNIN), "--help"], capture_output=True, text=True, timeout=TIMEOUT)
    assert process.returncode == 0 and process.stdout.startswith("usage: latchkey-signin"), process.stderr
    assert "--service URL" in process.stdout and "--sign-out" in process.stdout


def test_signs_in_with_a_texted_code(start_latchkey, start_sms_gateway, monkeypatch, tmp_path):
    """`--phone`: LatchkeyAuth's `PhoneAuthProvider` over real HTTP, the code read from the text at the local gateway
    (issue #34)."""
    gateway = start_sms_gateway()
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch))
    session = tmp_path / "client" / "session.json"

    def answer(process):
        [text] = gateway.wait_for(1)
        assert text["to"] == "+16505550101", text
        type_line(process, texted(text))

    output = run(server, session, "--phone", "+1 650 555 0101", answers=answer)
    assert "A code is on its way to +1 650 555 0101." in output and "Signed in as +16505550101." in output, output
    claims = claims_in(output)
    assert claims["phone_number"] == "+16505550101" and claims["firebase"]["sign_in_provider"] == "phone"
    again = run(server, session)
    assert "Already signed in as +16505550101." in again and claims_in(again)["sub"] == claims["sub"], again


def test_a_phone_second_factor_enrolled_and_passed_through_the_client(start_latchkey, start_sms_gateway, monkeypatch, tmp_path):
    """The seed's second-factor flow through LatchkeyAuth against the live binary: `--enroll-phone` enrolls the number
    (`multiFactor.session`, `PhoneAuthProvider.verifyPhoneNumber(_:multiFactorSession:)`, `enroll(with:)`); the next
    email link stops at it, and the tool takes the `MultiFactorResolver`, texts the `PhoneMultiFactorInfo` hint and
    resolves with `PhoneMultiFactorGenerator.assertion` (issue #34)."""
    gateway = start_sms_gateway()
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch), mfa={"state": "ENABLED"}, emailLink={"codeLifetimeSeconds": 600},
                            rateLimits={**NO_RATE_LIMITS, "textPerNumber": [{"limit": 5, "windowSeconds": 60}]})
    session = tmp_path / "client" / "session.json"

    def enrollment(process):
        type_line(process, "ada@example.com")
        type_line(process, read_link(server, 1))
        [text] = gateway.wait_for(1)
        type_line(process, texted(text))

    enrolled = run(server, session, "--enroll-phone", "+1 650 555 0101", answers=enrollment)
    assert "+1 650 555 0101 is now a second factor." in enrolled, enrolled
    assert claims_in(enrolled)["firebase"]["sign_in_second_factor"] == "phone"
    assert "Signed out." in run(server, session, "--sign-out")
    read_email(server, 3)  # the notice of the phone added: files are numbered by outbox row, texts included

    def challenge(process):
        type_line(process, "ada@example.com")
        type_line(process, read_link(server, 4))
        text = gateway.wait_for(2)[1]
        assert text["to"] == "+16505550101", text
        type_line(process, texted(text))

    output = run(server, session, answers=challenge)
    assert "A code is on its way to +*******0101." in output and "Signed in as ada@example.com." in output, output
    claims = claims_in(output)
    assert claims["firebase"]["sign_in_second_factor"] == "phone" and claims["firebase"]["sign_in_provider"] == "password"


def texted(text):
    """The code of a text, from its WebOTP line."""
    return re.findall(r"^@[\w.:-]+ #(\d{6})$", text["body"], re.M)[0]
