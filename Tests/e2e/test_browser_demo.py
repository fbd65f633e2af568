"""The web demo (`examples/web/`) in a real browser: headless Chromium driven by Selenium.

A user asks for a link on `/demo/`, reads it in the development mailbox, and opens it: in the same browser
(signed in without retyping the address), in a fresh profile (asked for the address; a wrong one is refused),
and after a mail scanner has fetched it (GET, HEAD, and a headless browser that runs the page's scripts). And the
demo's provider buttons, through the hosted `/__/auth/handler` page and the login forms of two real OpenID Connect
providers on loopback, and a provider hand-off started in another profile, which the demo refuses. And a second factor: turning on an authenticator, and the code prompt at the next sign-in.
And the code the email shows beside its link (`emailLink.typedCode`), typed where the link was asked for or in a fresh
profile with the address. And a phone number: signing in with the code read among the mailbox's texts, linking a number
to an email user, and a number another account has, which the demo offers as a sign-in to that account.

Screenshots of every step go to `.ci/artifacts/browser-demo/` (not committed). Chromium and chromedriver come
from Debian (`scripts/bootstrap --test`); Selenium Manager is kept offline and never downloads anything.
"""

import json
import re
import time
from urllib.parse import parse_qs, urlencode

import pyotp
import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as visible
from selenium.webdriver.support.ui import WebDriverWait

from browser import WAIT, wait_for
from django_oidc import DjangoOIDCProvider
from harness import API_KEY, HTTP_TIMEOUT, REPO, code_of, complete, read_email, read_link, send
from oidc import OIDCProvider

DEMO = {"development": {"demoDirectory": str(REPO / "examples" / "web")}}
TYPED_CODE = {"emailLink": {"typedCode": True}}
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
# The email's typed code: the line that offers it, then the code, shown as two groups of four.
TYPED_CODE_IN_TEXT = re.compile(r"Or type this code on the device where you asked to sign in:\s+([2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4})\n")


def request_link(driver, server, address, screenshot):
    """On the demo page: type the address and ask for a link."""
    driver.get(server.url + "/demo/")
    wait_for(driver, "email").send_keys(address)
    screenshot(driver, "request-form")
    driver.find_element(By.ID, "send-button").click()
    assert address in wait_for(driver, "sent").text
    screenshot(driver, "link-sent")
    assert driver.execute_script("return localStorage.getItem('emailForSignIn')") == address


def newest_email_in_mailbox(driver, server, address, screenshot, subject=""):
    """The development mailbox, once its newest email is to `address` (and has `subject` in its subject): its row."""
    driver.get(server.url + "/__/dev/mailbox")
    deadline = time.monotonic() + WAIT
    while not ((rows := driver.find_elements(By.CSS_SELECTOR, "tr.message")) and address in rows[0].text and subject in rows[0].text):
        if time.monotonic() > deadline:
            pytest.fail(f"no email to {address} ({subject!r}) in the mailbox:\n{server.logs()}")
        time.sleep(0.1)
        driver.refresh()
    screenshot(driver, "mailbox")
    return rows[0]


def read_link_in_mailbox(driver, server, address, screenshot, subject=""):
    """The newest email's sign-in link, read the way a newcomer does: in the development mailbox."""
    newest_email_in_mailbox(driver, server, address, screenshot, subject).find_element(By.TAG_NAME, "a").click()
    wait_for(driver, "text")
    link = driver.find_element(By.CSS_SELECTOR, "a.message-link").get_attribute("href")
    screenshot(driver, "message")
    assert link.startswith(server.url + "/__/auth/action?") and "oobCode=" in link
    return link


def read_link_and_code_in_mailbox(driver, server, address, screenshot, subject=""):
    """The newest email's sign-in link and the code it shows beside it, read in the development mailbox."""
    link = read_link_in_mailbox(driver, server, address, screenshot, subject)
    text = driver.find_element(By.ID, "text").text
    match = TYPED_CODE_IN_TEXT.search(text)
    assert match, text
    return link, match.group(1)


def wrong_code(code):
    """Another well-formed code: every character moved one place along the alphabet."""
    return "".join(CODE_ALPHABET[(CODE_ALPHABET.index(c) + 1) % len(CODE_ALPHABET)] if c in CODE_ALPHABET else c for c in code)


def assert_signed_in(driver, address, screenshot, step="signed-in"):
    assert wait_for(driver, "signed-in")
    assert driver.find_element(By.ID, "user-email").text == address
    claims = json.loads(driver.find_element(By.ID, "claims").text)
    assert claims["email"] == address and claims["email_verified"] is True
    # The spent code is gone from the address bar, and the remembered address from storage.
    assert "oobCode" not in driver.current_url
    assert driver.execute_script("return localStorage.getItem('emailForSignIn')") is None
    screenshot(driver, step)
    return claims


def test_a_link_opened_in_the_same_browser_signs_in_without_retyping(start_latchkey, open_browser, screenshot):
    server = start_latchkey(**DEMO)
    browser = open_browser("user")
    request_link(browser, server, "alice@example.com", screenshot)
    # Without emailLink.typedCode the emails show no code, so the page offers none to type.
    assert not browser.find_element(By.ID, "typed").is_displayed()
    link = read_link_in_mailbox(browser, server, "alice@example.com", screenshot)

    browser.get(link)
    claims = assert_signed_in(browser, "alice@example.com", screenshot)
    # The token says `password` for an email link too, as Firebase's do; the page names the way it took.
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert browser.find_element(By.ID, "user-provider").text == "an email link"

    # The same link again: the landing page says it was used, in a page of its own, with a way back.
    browser.get(link)
    assert "already been used" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.CSS_SELECTOR, "a.button").get_attribute("href") == server.url + "/demo/"
    screenshot(browser, "link-used")

    browser.find_element(By.CSS_SELECTOR, "a.button").click()
    assert wait_for(browser, "signed-in")
    browser.find_element(By.ID, "sign-out").click()
    assert wait_for(browser, "send-form")
    screenshot(browser, "signed-out")


def test_a_link_opened_in_a_fresh_profile_asks_for_the_address(start_latchkey, open_browser, screenshot):
    server = start_latchkey(**DEMO)
    requester = open_browser("requester")
    request_link(requester, server, "bob@example.com", screenshot)
    link = read_link_in_mailbox(requester, server, "bob@example.com", screenshot)

    elsewhere = open_browser("elsewhere")
    elsewhere.get(link)
    wait_for(elsewhere, "confirm-email")
    screenshot(elsewhere, "asked-for-address")

    elsewhere.find_element(By.ID, "confirm-email").send_keys("mallory@example.com")
    elsewhere.find_element(By.ID, "confirm-button").click()
    assert "doesn't match" in wait_for(elsewhere, "error").text
    assert wait_for(elsewhere, "confirm-email")
    screenshot(elsewhere, "wrong-address-refused")

    field = elsewhere.find_element(By.ID, "confirm-email")
    field.clear()
    field.send_keys("bob@example.com")
    elsewhere.find_element(By.ID, "confirm-button").click()
    assert_signed_in(elsewhere, "bob@example.com", screenshot)


def test_a_prefetched_link_still_signs_the_user_in(start_latchkey, open_browser, screenshot):
    server = start_latchkey(**DEMO)
    user = open_browser("user")
    request_link(user, server, "carol@example.com", screenshot)
    link = read_link_in_mailbox(user, server, "carol@example.com", screenshot)

    # A mail scanner: a plain GET (following the redirect to the demo), a HEAD, then a headless browser of its
    # own that runs the page's scripts. None of them has the address, so none of them can spend the code.
    fetched = requests.get(link, timeout=HTTP_TIMEOUT)
    assert fetched.status_code == 200 and fetched.url.startswith(server.url + "/demo/?")
    assert requests.head(link, timeout=HTTP_TIMEOUT).status_code == 303
    scanner = open_browser("scanner")
    scanner.get(link)
    wait_for(scanner, "confirm-email")
    screenshot(scanner, "scanner-view")

    user.get(link)
    assert_signed_in(user, "carol@example.com", screenshot)
    # Request logs name the landing page's path, never its query.
    requests_logged = [line for line in server.logs().splitlines() if "path=/__/auth/action" in line]
    assert len(requests_logged) >= 4 and not any("oobCode" in line or "?" in line.split("path=")[1].split()[0] for line in requests_logged)


def test_a_link_for_an_app_opened_in_a_browser_offers_the_app(start_latchkey, open_browser, screenshot):
    fingerprint = ":".join(["5E"] * 32)
    server = start_latchkey(**DEMO, apps={
        "ios": [{"teamId": "ABCDE12345", "bundleId": "com.example.ios", "appStoreId": "1234567890"}],
        "android": [{"packageName": "com.example.android", "sha256CertFingerprints": [fingerprint]}],
    })
    response = requests.post(f"{server.url}/v1/accounts:sendOobCode", params={"key": "e2e-api-key"}, timeout=HTTP_TIMEOUT, json={
        "requestType": "EMAIL_SIGNIN", "email": "dave@example.com", "continueUrl": server.url + "/demo/", "canHandleCodeInApp": True,
        "iOSBundleId": "com.example.ios", "androidPackageName": "com.example.android", "androidInstallApp": True,
    }, headers={"Accept-Language": "fr-FR"})
    assert response.status_code == 200, response.text
    browser = open_browser("desktop")
    link = read_link_in_mailbox(browser, server, "dave@example.com", screenshot)
    browser.get(link)
    assert "Ouvrez ce lien dans l’application" in browser.find_element(By.TAG_NAME, "h1").text
    stores = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "main li a")]
    assert stores == ["https://apps.apple.com/app/id1234567890", "https://play.google.com/store/apps/details?id=com.example.android"]
    screenshot(browser, "open-in-app")


def test_sign_in_with_a_provider_then_link_a_second_and_use_either(start_latchkey, open_browser, screenshot, tmp_path):
    """The demo's provider buttons go through the hosted /__/auth/handler page: the code flow at oidc-provider-mock
    (its login form), then linking django-oidc-provider's implicit flow (its login form, and the ID token coming back
    in the fragment, which the handler page's script posts back). Then either provider signs in to the one account."""
    server = start_latchkey(started=False)
    handler = server.url + "/__/auth/handler"
    mock = OIDCProvider(tmp_path / "mock.log").start()
    django = DjangoOIDCProvider(tmp_path / "django.log", tmp_path / "django").start([handler])
    try:
        secret = tmp_path / "mock-secret"
        secret.write_text("mock-secret")
        requests.put(f"{mock.issuer}/users/pat-1", timeout=HTTP_TIMEOUT,
                     json={"email": django.email, "email_verified": True, "name": "Pat"}).raise_for_status()
        server.configure(**DEMO, identityProviders=[
            mock.settings(displayName="Mock SSO", responseType={"code": True}, clientSecret={"file": str(secret)}),
            django.settings(displayName="Django SSO", responseType={"idToken": True}),
        ]).start()
        browser = open_browser("user")

        browser.get(server.url + "/demo/")
        wait_for(browser, "providers").find_element(By.CSS_SELECTOR, "button[data-provider='oidc.mock']").click()
        WebDriverWait(browser, WAIT).until(visible.visibility_of_element_located((By.NAME, "sub"))).send_keys("pat-1")
        screenshot(browser, "mock-login")
        browser.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        assert wait_for(browser, "signed-in")
        assert browser.find_element(By.ID, "user-provider").text == "Mock SSO"
        first = json.loads(browser.find_element(By.ID, "claims").text)
        assert first["email"] == django.email and first["firebase"]["identities"]["oidc.mock"] == ["pat-1"]
        assert "link=" not in browser.current_url
        screenshot(browser, "signed-in-with-mock")

        wait_for(browser, "link-providers").find_element(By.CSS_SELECTOR, "button[data-provider='oidc.django']").click()
        WebDriverWait(browser, WAIT).until(visible.visibility_of_element_located((By.NAME, "username"))).send_keys(django.username)
        browser.find_element(By.NAME, "password").send_keys(django.password)
        screenshot(browser, "django-login")
        browser.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        assert wait_for(browser, "signed-in")
        WebDriverWait(browser, WAIT).until(lambda driver: driver.find_element(By.ID, "user-provider").text == "Django SSO")
        linked = json.loads(browser.find_element(By.ID, "claims").text)
        assert linked["user_id"] == first["user_id"]
        assert set(linked["firebase"]["identities"]) >= {"oidc.mock", "oidc.django", "email"}
        assert "id_token" not in browser.current_url and "link=" not in browser.current_url
        screenshot(browser, "linked-django")

        for provider, name in (("oidc.django", "Django SSO"), ("oidc.mock", "Mock SSO")):
            browser.find_element(By.ID, "sign-out").click()
            wait_for(browser, "providers").find_element(By.CSS_SELECTOR, f"button[data-provider='{provider}']").click()
            if provider == "oidc.mock":
                WebDriverWait(browser, WAIT).until(visible.visibility_of_element_located((By.NAME, "sub"))).send_keys("pat-1")
                browser.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
            # Django remembers alice's log-in: it answers at once.
            assert wait_for(browser, "signed-in")
            WebDriverWait(browser, WAIT).until(lambda driver: driver.find_element(By.ID, "user-provider").text == name)
            assert json.loads(browser.find_element(By.ID, "claims").text)["user_id"] == first["user_id"]
            screenshot(browser, f"signed-in-again-with-{provider}")
        # No provider code or token in any request log line.
        assert not any("code=" in line or "id_token" in line for line in server.logs().splitlines())
    finally:
        mock.stop()
        django.stop()


def test_a_provider_hand_off_started_in_another_browser_signs_nobody_in(start_latchkey, open_browser, screenshot, tmp_path):
    """An attacker starts a sign-in at the hosted page in their own browser, signs in at the provider as themselves,
    and sends the victim the demo's URL with the hand-off (`#link=…&sessionId=…`). The victim's demo, which never
    started it (or started one of its own), refuses it and signs no one in; the hand-off is not even spent there, since
    the attacker, who kept the eventId, still finishes it."""
    mock = OIDCProvider(tmp_path / "mock.log").start()
    try:
        secret = tmp_path / "mock-secret"
        secret.write_text("mock-secret")
        server = start_latchkey(**DEMO, identityProviders=[
            mock.settings(displayName="Mock SSO", responseType={"code": True}, clientSecret={"file": str(secret)})])
        requests.put(f"{mock.issuer}/users/mallory-1", timeout=HTTP_TIMEOUT,
                     json={"email": "mallory@example.com", "email_verified": True}).raise_for_status()

        # The attacker's browser, sent back to a page of the server's that is not the demo, so nothing finishes it.
        attacker = open_browser("attacker")
        query = urlencode({"apiKey": API_KEY, "providerId": "oidc.mock", "redirectUrl": server.url + "/held/",
                           "eventId": "mallorys-own-event-id"})
        attacker.get(f"{server.url}/__/auth/handler?{query}")
        WebDriverWait(attacker, WAIT).until(visible.visibility_of_element_located((By.NAME, "sub"))).send_keys("mallory-1")
        attacker.find_element(By.CSS_SELECTOR, "button[type='submit']").click()
        WebDriverWait(attacker, WAIT).until(lambda driver: "#link=" in driver.current_url)
        hand_off = attacker.current_url.split("#", 1)[1]
        assert "mallorys-own-event-id" not in hand_off
        bait = f"{server.url}/demo/#{hand_off}"

        # The victim opens it: the demo refuses it, in a fresh tab and in one that started a sign-in of its own.
        victim = open_browser("victim")
        victim.get(bait)
        assert "not started in this browser" in wait_for(victim, "error").text
        assert wait_for(victim, "send-form") and not victim.find_element(By.ID, "signed-in").is_displayed()
        assert victim.execute_script("return localStorage.getItem('latchkeyDemoSession')") is None
        assert "link=" not in victim.current_url
        screenshot(victim, "hand-off-refused")
        wait_for(victim, "providers").find_element(By.CSS_SELECTOR, "button[data-provider='oidc.mock']").click()
        WebDriverWait(victim, WAIT).until(visible.visibility_of_element_located((By.NAME, "sub")))
        victim.get(bait)
        assert "not started in this browser" in wait_for(victim, "error").text
        assert victim.execute_script("return localStorage.getItem('latchkeyDemoSession')") is None
        screenshot(victim, "hand-off-refused-with-a-sign-in-of-its-own")

        # Nobody was signed in with it; the attacker, who kept the eventId, still can.
        link = parse_qs(hand_off)["link"][0]
        finished = requests.post(f"{server.url}/v1/accounts:signInWithIdp", params={"key": API_KEY}, timeout=HTTP_TIMEOUT,
                                 json={"requestUri": link, "sessionId": "mallorys-own-event-id", "returnSecureToken": True})
        assert finished.status_code == 200 and finished.json()["federatedId"] == "mallory-1", finished.text
    finally:
        mock.stop()


def test_turn_on_an_authenticator_then_sign_in_with_its_code(start_latchkey, open_browser, screenshot):
    """Signed in by link, the user turns on an authenticator (the key and otpauth:// URI on the page, one code from
    pyotp); the next link sign-in stops at the code prompt, refuses a code already used, and takes the next one."""
    server = start_latchkey(**DEMO, mfa={"state": "ENABLED"}, appName="Erin & Co")
    address = "erin@example.com"
    browser = open_browser("user")
    request_link(browser, server, address, screenshot)
    browser.get(read_link_in_mailbox(browser, server, address, screenshot))
    assert_signed_in(browser, address, screenshot)
    assert wait_for(browser, "no-factors")
    assert not browser.find_element(By.ID, "factors").is_displayed()

    # Turn on an authenticator: the page shows the key and the URI the Firebase SDKs build from it.
    browser.find_element(By.ID, "enroll-start").click()
    secret = wait_for(browser, "enroll-secret").text
    uri = browser.find_element(By.ID, "enroll-uri")
    # The issuer is the app's name, as the emails say it, not the project id.
    assert len(secret) == 32 and uri.get_attribute("href") == uri.text == (
        f"otpauth://totp/Erin%20%26%20Co:erin%40example.com?secret={secret}&issuer=Erin%20%26%20Co&algorithm=SHA1&digits=6")
    totp = pyotp.parse_uri(uri.text)
    assert totp.secret == secret and totp.issuer == "Erin & Co" and totp.name == address
    screenshot(browser, "enrollment-started")
    enrollment_code = totp.now()
    name = browser.find_element(By.ID, "enroll-name")
    name.clear()
    name.send_keys("Pixel phone")
    browser.find_element(By.ID, "enroll-code").send_keys(enrollment_code)
    browser.find_element(By.ID, "enroll-button").click()
    WebDriverWait(browser, WAIT).until(lambda driver: "Pixel phone, added" in wait_for(driver, "factors").text)
    assert not browser.find_element(By.ID, "enroll").is_displayed() and not browser.find_element(By.ID, "no-factors").is_displayed()
    assert browser.find_element(By.ID, "enroll-start").text == "Add another authenticator"
    assert not browser.find_element(By.ID, "error").is_displayed()
    enrolled = json.loads(browser.find_element(By.ID, "claims").text)
    assert enrolled["firebase"]["sign_in_second_factor"] == "totp"
    factor_id = enrolled["firebase"]["second_factor_identifier"]
    screenshot(browser, "authenticator-on")
    # The user is told; then the notice is the newest email, so the next link is told apart from it.
    newest_email_in_mailbox(browser, server, address, screenshot, "An authenticator was added")

    browser.get(server.url + "/demo/")
    wait_for(browser, "sign-out").click()
    request_link(browser, server, address, screenshot)
    browser.get(read_link_in_mailbox(browser, server, address, screenshot, subject="Sign in to"))
    assert "Enter the code from your authenticator" in wait_for(browser, "second-factor").text
    assert browser.find_element(By.ID, "factor-name").text == "Pixel phone"
    assert not browser.find_element(By.ID, "factor-choice-field").is_displayed()
    assert "oobCode" not in browser.current_url and browser.execute_script("return localStorage.getItem('emailForSignIn')") is None
    screenshot(browser, "code-prompt")

    # The enrollment's code again: its time step was accepted once, so it is refused, and the prompt stays.
    browser.find_element(By.ID, "code").send_keys(enrollment_code)
    browser.find_element(By.ID, "code-button").click()
    assert "(INVALID_CODE)" in wait_for(browser, "error").text
    assert wait_for(browser, "second-factor")
    screenshot(browser, "code-refused")

    code = browser.find_element(By.ID, "code")
    code.clear()
    code.send_keys(totp.at(time.time() + 30))
    browser.find_element(By.ID, "code-button").click()
    claims = assert_signed_in(browser, address, screenshot, "signed-in-with-code")
    assert not browser.find_element(By.ID, "error").is_displayed()
    assert claims["firebase"]["sign_in_provider"] == "password" and claims["firebase"]["sign_in_second_factor"] == "totp"
    assert claims["firebase"]["second_factor_identifier"] == factor_id and claims["user_id"] == enrolled["user_id"]

    # Remove: the list empties, and the new tokens carry no second factor.
    WebDriverWait(browser, WAIT).until(lambda driver: "Pixel phone" in wait_for(driver, "factors").text)
    browser.find_element(By.CSS_SELECTOR, "#factors button").click()
    assert wait_for(browser, "no-factors")
    WebDriverWait(browser, WAIT).until(lambda driver: "sign_in_second_factor" not in driver.find_element(By.ID, "claims").text)
    assert not browser.find_element(By.ID, "factors").is_displayed()
    assert browser.find_element(By.ID, "enroll-start").text == "Turn on an authenticator"
    assert not browser.find_element(By.ID, "error").is_displayed()
    screenshot(browser, "authenticator-removed")


def test_a_code_typed_in_a_fresh_profile_signs_in_and_spends_the_link(start_latchkey, open_browser, screenshot):
    """Profile A asks for a link; the email's code is typed, with the address, in a second, fresh profile (a wrong code
    first, refused with the server's code), which signs in there; the link, opened afterwards, no longer signs in."""
    server = start_latchkey(**DEMO, **TYPED_CODE)
    address = "frank@example.com"
    requester = open_browser("requester")
    request_link(requester, server, address, screenshot)
    # The waiting screen offers the code; the address it already knows.
    assert wait_for(requester, "typed-code")
    assert not requester.find_element(By.ID, "typed-email-field").is_displayed()
    link, code = read_link_and_code_in_mailbox(requester, server, address, screenshot)

    elsewhere = open_browser("elsewhere")
    elsewhere.get(server.url + "/demo/")
    wait_for(elsewhere, "have-code").click()
    # No address remembered here: the form asks for it with the code.
    wait_for(elsewhere, "typed-email").send_keys(address)
    assert not elsewhere.find_element(By.ID, "sent-line").is_displayed()
    elsewhere.find_element(By.ID, "typed-code").send_keys(wrong_code(code))
    screenshot(elsewhere, "wrong-code-typed")
    elsewhere.find_element(By.ID, "typed-button").click()
    assert "(INVALID_OOB_CODE)" in wait_for(elsewhere, "error").text
    assert wait_for(elsewhere, "typed-code").get_attribute("value") == wrong_code(code)
    assert elsewhere.find_element(By.ID, "typed-email").get_attribute("value") == address
    screenshot(elsewhere, "wrong-code-refused")

    field = elsewhere.find_element(By.ID, "typed-code")
    field.clear()
    field.send_keys(code.lower().replace("-", " "))  # as a person might type it
    screenshot(elsewhere, "code-typed")
    elsewhere.find_element(By.ID, "typed-button").click()
    claims = assert_signed_in(elsewhere, address, screenshot, "signed-in-with-code")
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert not elsewhere.find_element(By.ID, "error").is_displayed()

    # The link, opened afterwards where it was asked for: the landing page says it was used...
    requester.get(link)
    assert "already been used" in requester.find_element(By.TAG_NAME, "h1").text
    screenshot(requester, "link-used")
    # ...and the demo, handed the link's code as the landing page hands a live one, shows the server's refusal.
    requester.get(server.url + "/demo/?" + urlencode({"mode": "signIn", "oobCode": code_of(link), "apiKey": API_KEY}))
    assert "(INVALID_OOB_CODE)" in wait_for(requester, "error").text
    assert wait_for(requester, "send-form")
    assert not requester.find_element(By.ID, "signed-in").is_displayed()
    screenshot(requester, "link-refused")


def test_a_code_typed_on_the_waiting_screen_goes_on_to_the_second_factor(start_latchkey, open_browser, screenshot):
    """An account with an authenticator asks for a link; its email is read on a phone, and the code typed on the
    waiting screen where the link was asked for: the demo goes on to the code prompt as after a link, then signs in."""
    server = start_latchkey(**DEMO, **TYPED_CODE, mfa={"state": "ENABLED"})
    address = "gina@example.com"
    # The authenticator, turned on through the API as an app would.
    send(server, address)
    session = complete(server, address, code_of(read_link(server, 1))).json()
    started = requests.post(f"{server.url}/v2/accounts/mfaEnrollment:start", params={"key": API_KEY}, timeout=HTTP_TIMEOUT,
                            json={"idToken": session["idToken"], "totpEnrollmentInfo": {}})
    assert started.status_code == 200, started.text
    info = started.json()["totpSessionInfo"]
    totp = pyotp.TOTP(info["sharedSecretKey"])
    finalized = requests.post(f"{server.url}/v2/accounts/mfaEnrollment:finalize", params={"key": API_KEY}, timeout=HTTP_TIMEOUT, json={
        "idToken": session["idToken"], "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp.now()}})
    assert finalized.status_code == 200, finalized.text
    read_email(server, 2)  # the notice of the new authenticator: the sign-in email comes after it

    laptop = open_browser("laptop")
    request_link(laptop, server, address, screenshot)
    phone = open_browser("phone")
    _, code = read_link_and_code_in_mailbox(phone, server, address, screenshot, subject="Sign in to")

    assert not laptop.find_element(By.ID, "typed-email-field").is_displayed()
    laptop.find_element(By.ID, "typed-code").send_keys(code.replace("-", "").lower())
    screenshot(laptop, "code-typed")
    laptop.find_element(By.ID, "typed-button").click()
    assert "Enter the code from your authenticator" in wait_for(laptop, "second-factor").text
    assert laptop.execute_script("return localStorage.getItem('emailForSignIn')") is None
    screenshot(laptop, "authenticator-prompt")

    laptop.find_element(By.ID, "code").send_keys(totp.at(time.time() + 30))  # the enrollment spent the current step
    laptop.find_element(By.ID, "code-button").click()
    claims = assert_signed_in(laptop, address, screenshot, "signed-in-with-both")
    assert claims["firebase"]["sign_in_second_factor"] == "totp" and claims["user_id"] == session["localId"]


# One text a minute per number is the default; these stories text one number a few times in a minute.
TEXTS = {"rateLimits": {"textPerNumber": [{"limit": 10, "windowSeconds": 60}]}}


def read_texted_code_in_mailbox(driver, server, number, screenshot):
    """The newest text's code, read as a developer reads it: the development mailbox, opened in a tab of its own (the
    demo's tab keeps the sessionInfo the code goes with), then closed."""
    demo = driver.current_window_handle
    driver.switch_to.new_window("tab")
    driver.get(server.url + "/__/dev/mailbox")
    deadline = time.monotonic() + WAIT
    while not ((rows := driver.find_elements(By.CSS_SELECTOR, "tr.text")) and number in rows[0].text):
        if time.monotonic() > deadline:
            pytest.fail(f"no text to {number} in the mailbox:\n{server.logs()}")
        time.sleep(0.1)
        driver.refresh()
    screenshot(driver, "texts-in-mailbox")
    body = rows[0].find_element(By.TAG_NAME, "pre").text
    # The WebOTP line ends the text: `@host #123456`.
    match = re.search(r"#(\d{6})\s*$", body)
    assert match, body
    driver.close()
    driver.switch_to.window(demo)
    return match.group(1)


def text_a_code(driver, server, number, screenshot, form="phone-number", button="phone-button"):
    """Types `number` into the demo's phone field, asks for a text, and reads its code in the development mailbox."""
    wait_for(driver, form).send_keys(number)
    driver.find_element(By.ID, button).click()
    assert number in wait_for(driver, "phone-code").text
    screenshot(driver, "code-asked-for")
    return read_texted_code_in_mailbox(driver, server, number, screenshot)


def type_texted_code(driver, code):
    field = wait_for(driver, "phone-code-input")
    field.clear()
    field.send_keys(code)
    driver.find_element(By.ID, "phone-code-button").click()


def other_code(code):
    """Another six-digit code."""
    return f"{(int(code) + 1) % 1_000_000:06d}"


def sign_in_with_a_phone(driver, server, number, screenshot):
    """Phone sign-in on the demo: the number, the text read in the mailbox, the code typed; the signed-in page's claims."""
    driver.get(server.url + "/demo/")
    code = text_a_code(driver, server, number, screenshot)
    type_texted_code(driver, code)
    assert wait_for(driver, "signed-in")
    claims = json.loads(driver.find_element(By.ID, "claims").text)
    assert claims["phone_number"] == number and claims["firebase"]["sign_in_provider"] == "phone"
    return claims


def test_sign_in_with_a_phone_number_and_the_code_texted_to_it(start_latchkey, open_browser, screenshot):
    server = start_latchkey(**DEMO, **TEXTS)
    browser = open_browser("user")
    browser.get(server.url + "/demo/")
    code = text_a_code(browser, server, "+447700900123", screenshot)

    # A wrong code is refused, and the form stays for the right one.
    type_texted_code(browser, other_code(code))
    assert "INVALID_CODE" in wait_for(browser, "error").text
    assert browser.find_element(By.ID, "phone-code").is_displayed()
    screenshot(browser, "wrong-code")

    type_texted_code(browser, code)
    assert wait_for(browser, "signed-in")
    # Signed in, the page names the account by its number: it has no address.
    assert browser.find_element(By.ID, "user-email").text == "+447700900123"
    assert browser.find_element(By.ID, "user-provider").text == "a texted code"
    assert browser.find_element(By.ID, "user-phone").text == "+447700900123"
    assert not browser.find_element(By.ID, "link-phone-form").is_displayed()
    claims = json.loads(browser.find_element(By.ID, "claims").text)
    assert claims["phone_number"] == "+447700900123" and "email" not in claims
    assert claims["firebase"]["sign_in_provider"] == "phone" and claims["firebase"]["identities"]["phone"] == ["+447700900123"]
    screenshot(browser, "signed-in")

    # The code is spent: signing out and in again needs a new text, and the same number finds the same account.
    browser.find_element(By.ID, "sign-out").click()
    again = sign_in_with_a_phone(browser, server, "+447700900123", screenshot)
    assert again["user_id"] == claims["user_id"]


def test_link_a_number_to_an_email_user_and_meet_one_another_account_has(start_latchkey, open_browser, screenshot):
    server = start_latchkey(**DEMO, **TEXTS)
    # Someone else signed in with +44 7700 900456 first: the number is that account's.
    other = sign_in_with_a_phone(open_browser("other"), server, "+447700900456", screenshot)

    browser = open_browser("user")
    request_link(browser, server, "erin@example.com", screenshot)
    browser.get(read_link_in_mailbox(browser, server, "erin@example.com", screenshot))
    erin = assert_signed_in(browser, "erin@example.com", screenshot)
    assert not browser.find_element(By.ID, "user-phone-line").is_displayed()

    # A number of her own: texted, its code typed, linked to her account.
    code = text_a_code(browser, server, "+447700900789", screenshot, form="link-phone-number", button="link-phone-button")
    assert browser.find_element(By.ID, "phone-code-button").text == "Add this number"
    type_texted_code(browser, code)
    assert wait_for(browser, "user-phone-line")
    assert browser.find_element(By.ID, "user-phone").text == "+447700900789"
    assert browser.find_element(By.ID, "user-email").text == "erin@example.com"
    linked = json.loads(browser.find_element(By.ID, "claims").text)
    assert linked["user_id"] == erin["user_id"] and linked["phone_number"] == "+447700900789"
    assert linked["firebase"]["identities"]["phone"] == ["+447700900789"]
    screenshot(browser, "number-linked")

    # The other account's number, from another email user: the code proves it, nothing is linked, and the page offers
    # to sign in to the account that has it.
    browser.find_element(By.ID, "sign-out").click()
    request_link(browser, server, "frank@example.com", screenshot)
    browser.get(read_link_in_mailbox(browser, server, "frank@example.com", screenshot))
    frank = assert_signed_in(browser, "frank@example.com", screenshot)
    code = text_a_code(browser, server, "+447700900456", screenshot, form="link-phone-number", button="link-phone-button")
    type_texted_code(browser, code)
    assert "+447700900456" in wait_for(browser, "phone-taken").text
    screenshot(browser, "number-of-another-account")

    # Staying keeps Frank signed in, without the number.
    browser.find_element(By.ID, "taken-stay").click()
    assert wait_for(browser, "signed-in")
    assert browser.find_element(By.ID, "user-email").text == "frank@example.com"
    assert not browser.find_element(By.ID, "user-phone-line").is_displayed()

    # Again, and this time the proof signs in to the number's account.
    frank_session = json.loads(browser.execute_script("return localStorage.getItem('latchkeyDemoSession')"))
    code = text_a_code(browser, server, "+447700900456", screenshot, form="link-phone-number", button="link-phone-button")
    type_texted_code(browser, code)
    wait_for(browser, "taken-sign-in").click()
    assert wait_for(browser, "signed-in")
    switched = json.loads(browser.find_element(By.ID, "claims").text)
    assert switched["user_id"] == other["user_id"] != frank["user_id"]
    assert browser.find_element(By.ID, "user-email").text == "+447700900456"
    screenshot(browser, "signed-in-to-the-other-account")
    # Frank's account never got the number.
    lookup = requests.post(f"{server.url}/v1/accounts:lookup", params={"key": API_KEY}, timeout=HTTP_TIMEOUT,
                           json={"idToken": frank_session["idToken"]})
    assert lookup.status_code == 200 and "phoneNumber" not in lookup.json()["users"][0], lookup.text
