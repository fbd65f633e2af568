""""This wasn't me" in every sign-in email (issue #19) through the live binary: the link's page changes nothing when
opened (a scanner's GET or HEAD), its button kills the address's outstanding sign-in codes and starts a cool-off
during which sign-in emails for the address are dropped without a word, and the address itself
(from the same link) or an operator (`latchkey cool-off lift`) can end it. `latchkey audit` shows it all.
"""

import html
import re

import requests

from harness import API_KEY, CONTINUE_URL, HTTP_TIMEOUT, code_of, command, complete, post, read_email, read_link, send

ADMIN_TOKEN = "owner"


def report_link(server, number):
    """The "this wasn't me" link of the `number`th email, the same in its text and HTML parts."""
    message = read_email(server, number)
    text = message.get_body(preferencelist=("plain",)).get_content()
    links = re.findall(r"https?://\S+/__/auth/not-me\?\S+", text)
    html_part = message.get_body(preferencelist=("html",)).get_content()
    html_links = [html.unescape(href) for href in re.findall(r'href="([^"]*/__/auth/not-me\?[^"]*)"', html_part)]
    assert len(links) == 1 and html_links == links, (links, html_links)
    return links[0]


def token_of(link):
    return re.search(r"token=([^&]+)", link).group(1)


def press(link, intent):
    return requests.post(link, data={"token": token_of(link), "intent": intent}, timeout=HTTP_TIMEOUT)


def mail_count(server):
    return len(list(server.outbox.glob("*.eml")))


def test_this_wasnt_me_kills_the_codes_and_pauses_sends_until_lifted(server):
    for _ in range(2):
        send(server, "ann@example.com")
    report = report_link(server, 2)
    assert report.startswith(server.url + "/__/auth/not-me?token=")

    # Opening the link, as a scanner does, changes nothing.
    for method in (requests.head, requests.get):
        page = method(report, timeout=HTTP_TIMEOUT)
        assert page.status_code == 200
        assert page.headers["Cache-Control"] == "no-store" and page.headers["Referrer-Policy"] == "no-referrer"
        assert "form-action 'self'" in page.headers["Content-Security-Policy"]
    page = requests.get(report, timeout=HTTP_TIMEOUT)
    assert "This wasn't me" in page.text and "ann@example.com" in page.text
    assert complete(server, "ann@example.com", code_of(read_link(server, 1))).status_code == 200

    reported = press(report, "report")
    assert reported.status_code == 200, reported.text
    assert "Sign-in emails are paused" in reported.text
    refused = complete(server, "ann@example.com", code_of(read_link(server, 2)))
    assert refused.status_code == 400 and "INVALID_OOB_CODE" in refused.text

    # While it cools off, sign-in sends answer as usual and mail nothing; a password reset (a way to take an account
    # back) still goes out, and other addresses are not affected.
    send(server, "ann@example.com")
    assert post(server, "accounts:sendOobCode", json={"requestType": "PASSWORD_RESET", "email": "ann@example.com"}).status_code == 200
    assert "mode=resetPassword" in read_email(server, 3).get_body(preferencelist=("plain",)).get_content()
    send(server, "bob@example.com")
    assert read_email(server, 4)["To"] == "bob@example.com"
    assert mail_count(server) == 4

    audit = command(server, "audit", "--email", "ann@example.com")
    assert audit.returncode == 0, audit.stderr
    assert "on cool-off until" in audit.stdout and "sign_in_reported" in audit.stdout

    # The page says until when in its reader's language, not as a machine timestamp (issue #31, point 19).
    for language, month in (("en", r"(January|February|March|April|May|June|July|August|September|October|November|December) \d"),
                            ("fr", r"\d (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre) 20")):
        text = requests.get(re.sub(r"lang=[^&]*", f"lang={language}", report), timeout=HTTP_TIMEOUT).text
        assert re.search(month, text) and " UTC" in text and not re.search(r"\d{4}-\d\d-\d\dT", text), text
    listing = command(server, "cool-off", "list")
    assert listing.returncode == 0 and "ann@example.com" in listing.stdout and "bob@example.com" not in listing.stdout

    # The page now offers to lift it, and the address itself can.
    assert "Send sign-in emails again" in requests.get(report, timeout=HTTP_TIMEOUT).text
    lifted = press(report, "lift")
    assert lifted.status_code == 200 and "Sign-in emails work again" in lifted.text
    send(server, "ann@example.com")
    assert read_email(server, 5)["To"] == "ann@example.com"
    assert "cool_off_lifted" in command(server, "audit", "--email", "ann@example.com").stdout
    assert token_of(report) not in server.logs()


def test_an_operator_lifts_a_cool_off(server):
    send(server, "cat@example.com")
    assert press(report_link(server, 1), "report").status_code == 200
    send(server, "cat@example.com")
    assert mail_count(server) == 1
    lift = command(server, "cool-off", "lift", "--email", "cat@example.com")
    assert lift.returncode == 0 and "lifted" in lift.stdout, lift.stderr
    assert "no address is on cool-off" in command(server, "cool-off", "list").stdout
    again = command(server, "cool-off", "lift", "--email", "cat@example.com")
    assert again.returncode == 0 and "was not on cool-off" in again.stdout
    send(server, "cat@example.com")
    assert read_email(server, 2)["To"] == "cat@example.com"
    assert "by an operator" in command(server, "audit", "--email", "cat@example.com").stdout


def test_an_admin_still_gets_links_during_a_cool_off(start_latchkey):
    server = start_latchkey(adminTokens=[ADMIN_TOKEN])
    send(server, "dan@example.com")
    assert press(report_link(server, 1), "report").status_code == 200
    returned = requests.post(
        f"{server.url}/v1/accounts:sendOobCode", params={"key": API_KEY}, headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
        json={"requestType": "EMAIL_SIGNIN", "email": "dan@example.com", "continueUrl": CONTINUE_URL, "returnOobLink": True},
        timeout=HTTP_TIMEOUT)
    assert returned.status_code == 200 and "oobLink" in returned.json(), returned.text


def test_forged_or_damaged_report_links_do_nothing(server):
    send(server, "eve@example.com")
    report = report_link(server, 1)
    token = token_of(report)
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    for bad in (forged, "", "not-a-token", "x" * 600):
        page = requests.get(f"{server.url}/__/auth/not-me", params={"token": bad}, timeout=HTTP_TIMEOUT)
        assert page.status_code == 404 and "This link isn't valid" in page.text
        pressed = requests.post(f"{server.url}/__/auth/not-me", data={"token": bad, "intent": "report"}, timeout=HTTP_TIMEOUT)
        assert pressed.status_code == 400
    assert requests.post(report, data={"token": token, "intent": "other"}, timeout=HTTP_TIMEOUT).status_code == 400
    assert complete(server, "eve@example.com", code_of(read_link(server, 1))).status_code == 200
