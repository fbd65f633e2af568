"""The typed code of the sign-in email (issue #19, `emailLink.typedCode`) through the live binary, without a browser.

With the setting on, the email shows 8 characters (`K7PM-Q3XD`) beside its link, for the device that asked when the
email is read on another. `accounts:signInWithEmailLink` takes the code as `oobCode` with the address, in any case and
with or without the hyphen; the link and the code spend each other; every wrong typed code for an address counts
against the typed codes of all that address's live requests, so five kill them all (the links stay); a code matches only its own
address; and the per-IP completion limit counts typed codes too. Neither the code nor the link appears in the log.
"""

import concurrent.futures
import re
import threading

import requests

from harness import (
    API_KEY, NO_RATE_LIMITS, TEMPLATES, code_of, complete, error_message, link_request, post, read_email, read_link, send, verify,
)

TYPED = {"codeLifetimeSeconds": 600, "typedCode": True}
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE = r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}"
OFFER = "Or type this code on the device where you asked to sign in:"
LANGUAGES = sorted(path.name for path in (TEMPLATES / "email").iterdir() if (path / "sign-in.txt.mustache").is_file())


def start(start_latchkey, name="latchkey", **config):
    """A server whose sign-in emails show a typed code."""
    return start_latchkey(name, emailLink=TYPED, **config)


def parts(message):
    return message.get_body(preferencelist=("plain",)).get_content(), message.get_body(preferencelist=("html",)).get_content()


def codes_shown(message):
    """The typed codes an email shows: on a line of their own in the text part, in an element of their own in HTML."""
    text, html_part = parts(message)
    return re.findall(rf"^\s*({CODE})\s*$", text, re.MULTILINE), re.findall(rf">\s*({CODE})\s*<", html_part)


def request(server, address, number):
    """Asks for a sign-in email to `address`, the server's `number`th: its link and its typed code (as shown)."""
    send(server, address)
    message = read_email(server, number)
    assert message["To"] == address.lower()
    text, _ = parts(message)
    in_text, in_html = codes_shown(message)
    assert len(in_text) == 1 and in_html == in_text, (in_text, in_html)
    assert re.search(rf"{re.escape(OFFER)}\s+{in_text[0]}\s", text), text
    return read_link(server, number), in_text[0]


def wrong(code, shift=1):
    """Another well-formed code: every character moved `shift` places along the alphabet."""
    return "".join(ALPHABET[(ALPHABET.index(c) + shift) % len(ALPHABET)] if c in ALPHABET else c for c in code)


def refused(response, code="INVALID_OOB_CODE"):
    assert response.status_code == 400, response.text
    assert error_message(response).split(" : ")[0] == code, response.text


def signed_in(server, response, address):
    assert response.status_code == 200, response.text
    session = response.json()
    assert session["email"] == address.lower()
    claims = verify(server, session["idToken"])
    assert claims["email"] == address.lower() and claims["email_verified"] is True
    return session


def test_the_typed_code_signs_in_in_any_case_with_or_without_the_hyphen(start_latchkey):
    server = start(start_latchkey)
    variants = {
        "ann@example.com": lambda code: code,  # as the email shows it
        "ben@example.com": str.lower,
        "cat@example.com": lambda code: code.replace("-", ""),
        "dan@example.com": lambda code: " " + code.lower().replace("-", " ") + " ",
        "Eve@Example.COM": lambda code: code[:2] + "-" + code[2:].replace("-", " "),  # and the address in another case
    }
    for number, (address, typed) in enumerate(variants.items(), start=1):
        _, code = request(server, address, number)
        session = signed_in(server, complete(server, address, typed(code)), address)
        assert session["isNewUser"] is True


def test_the_typed_code_and_the_link_spend_each_other(start_latchkey):
    server = start(start_latchkey)
    link, code = request(server, "ann@example.com", 1)
    signed_in(server, complete(server, "ann@example.com", code), "ann@example.com")
    refused(complete(server, "ann@example.com", code_of(link)))
    refused(complete(server, "ann@example.com", code))
    # The landing page, which never spends anything, tells the link's opener it was used.
    assert "already been used" in requests.get(link, timeout=10).text

    link, code = request(server, "ann@example.com", 2)
    signed_in(server, complete(server, "ann@example.com", code_of(link)), "ann@example.com")
    refused(complete(server, "ann@example.com", code))
    refused(complete(server, "ann@example.com", code.lower()))


def test_five_wrong_typed_codes_kill_every_typed_code_of_the_address_but_not_its_links(start_latchkey):
    server = start(start_latchkey)
    first, second, third = (request(server, "ann@example.com", number) for number in (1, 2, 3))
    _, bobs = request(server, "bob@example.com", 4)

    # Four wrong codes: every request of the address has four strikes, and still works.
    for shift in range(1, 5):
        refused(complete(server, "ann@example.com", wrong(first[1], shift)))
    signed_in(server, complete(server, "ann@example.com", first[1]), "ann@example.com")
    # The fifth kills the typed codes left, even the right ones; their links, 256 bits each, still sign in.
    refused(complete(server, "ann@example.com", wrong(first[1], 5)))
    for link, code in (second, third):
        refused(complete(server, "ann@example.com", code))
        signed_in(server, complete(server, "ann@example.com", code_of(link)), "ann@example.com")

    # Another address is untouched, and a request made afterwards starts afresh.
    signed_in(server, complete(server, "bob@example.com", bobs), "bob@example.com")
    _, fresh = request(server, "ann@example.com", 5)
    signed_in(server, complete(server, "ann@example.com", fresh), "ann@example.com")


def test_a_typed_code_matches_only_its_own_address(start_latchkey):
    server = start(start_latchkey)
    _, anns = request(server, "ann@example.com", 1)
    _, bobs = request(server, "bob@example.com", 2)
    for address in ("bob@example.com", "nobody@example.com"):
        refused(complete(server, address, anns))  # not even a mismatch: the code names no request of that address
    refused(complete(server, "ann@example.com", bobs))
    # Those misses counted against the other addresses, not against the codes' own.
    signed_in(server, complete(server, "ann@example.com", anns), "ann@example.com")
    signed_in(server, complete(server, "bob@example.com", bobs), "bob@example.com")


def test_the_link_and_the_typed_code_racing_sign_in_once(start_latchkey):
    server = start(start_latchkey)
    for number in range(1, 6):
        address = f"race{number}@example.com"
        link, code = request(server, address, number)
        barrier = threading.Barrier(2)

        def attempt(oob_code):
            barrier.wait(timeout=10)
            return requests.post(f"{server.url}/v1/accounts:signInWithEmailLink", params={"key": API_KEY}, timeout=10,
                                 json={"email": address, "oobCode": oob_code}, headers={"Connection": "close"})

        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(attempt, (code_of(link), code)))
        assert sorted(answer.status_code for answer in answers) == [200, 400], [answer.text for answer in answers]
        winner, loser = sorted(answers, key=lambda answer: answer.status_code)
        signed_in(server, winner, address)
        refused(loser)


def test_the_per_ip_completion_limit_counts_typed_codes(start_latchkey):
    server = start(start_latchkey, rateLimits={**NO_RATE_LIMITS, "completePerIP": [{"limit": 3, "windowSeconds": 300}]})
    _, anns = request(server, "ann@example.com", 1)
    for shift in range(1, 4):
        refused(complete(server, "bob@example.com", wrong(anns, shift)))
    limited = complete(server, "ann@example.com", anns)
    refused(limited, "TOO_MANY_ATTEMPTS_TRY_LATER")
    assert int(limited.headers["Retry-After"]) > 0


def test_every_language_shows_the_code_and_none_without_the_setting(start_latchkey):
    on = start(start_latchkey, "on")
    off = start_latchkey("off")
    for server in (on, off):
        for number, language in enumerate(LANGUAGES, start=1):
            address = f"{language.lower()}@example.com"
            response = post(server, "accounts:sendOobCode", json=link_request(address), headers={"Accept-Language": language})
            assert response.status_code == 200, response.text
            link = read_link(server, number)
            assert f"lang={language}" in link, (language, link)
            in_text, in_html = codes_shown(read_email(server, number))
            if server is on:
                # The offer, in the email's language, then the code.
                template = (TEMPLATES / "email" / language / "sign-in.txt.mustache").read_text()
                offer = template.split("{{#typedCode}}\n", 1)[1].strip().splitlines()[0]
                text, _ = parts(read_email(server, number))
                assert len(in_text) == 1 and in_html == in_text and offer in text, (language, text)
                signed_in(server, complete(server, address, in_text[0]), address)
            else:
                assert in_text == in_html == [], (language, in_text, in_html)
                assert OFFER not in parts(read_email(server, number))[0]
    # Without the setting, code-shaped guesses are no typed codes: they are refused and count against nothing.
    link = read_link(off, len(LANGUAGES))
    address = f"{LANGUAGES[-1].lower()}@example.com"
    for shift in range(1, 6):
        refused(complete(off, address, wrong("K7PM-Q3XD", shift)))
    signed_in(off, complete(off, address, code_of(link)), address)


def test_no_typed_code_or_link_in_the_log(start_latchkey):
    for mode in ("development", "production"):
        server = start(start_latchkey, mode, mode=mode, logLevel="debug")
        link, code = request(server, "ann@example.com", 1)
        guesses = [wrong(code, shift) for shift in (1, 2)]
        for guess in guesses:
            refused(complete(server, "ann@example.com", guess))
        signed_in(server, complete(server, "ann@example.com", code.lower()), "ann@example.com")
        refused(complete(server, "ann@example.com", code_of(link)))
        server.stop()

        lines = server.logs().splitlines()
        assert any("path=/v1/accounts:signInWithEmailLink" in line for line in lines), "debug lines should be on, or this proves nothing"
        for secret in {code, code.replace("-", ""), code.lower(), *guesses}:
            assert not [line for line in lines if secret in line], (mode, secret)
        with_link = [line for line in lines if code_of(link) in line]
        if mode == "development":
            # As Firebase's emulator does, development mode logs each link once, and only the link.
            assert len(with_link) == 1 and "Development mode" in with_link[0] and link in with_link[0], with_link
        else:
            assert with_link == []
