"""The pages of the email actions and of "this wasn't me" (issue #19) in headless Chromium, as their users meet them.

A person resets a password on the landing page's form (in their language), verifies an address, confirms a new address,
and from the old address undoes the change and resets the password it offers. A mail scanner that opens a link in a
browser running the page's scripts spends nothing; then the person does what the link is for. Screenshots of every step
go to `.ci/artifacts/browser-email-actions/` (not committed).
"""

import re

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browser import WAIT, wait_for
from harness import HTTP_TIMEOUT, code_of, complete, post, read_email, read_link, send

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new passphrase"


def sign_up(server, address):
    response = post(server, "accounts:signUp", json={"email": address, "password": PASSWORD, "returnSecureToken": True})
    assert response.status_code == 200, response.text
    return response.json()


def link_in(server, number, path="/__/auth/confirm?"):
    """The one link of the `number`th email whose path is `path`."""
    text = read_email(server, number).get_body(preferencelist=("plain",)).get_content()
    links = re.findall(rf"https?://\S+{re.escape(path)}\S+", text)
    assert len(links) == 1, text
    return links[0]


def signs_in(server, address, password):
    return post(server, "accounts:signInWithPassword", json={"email": address, "password": password}).status_code == 200


def visible(driver, selector):
    """The elements matching `selector` that show, read in one script so that the page changing meanwhile cannot
    leave a stale reference."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).filter(function (e) { return e.offsetParent !== null; })", selector)


def press(driver, screenshot, step):
    """Presses the page's one form button, and waits for the answer to show."""
    driver.find_element(By.CSS_SELECTOR, "#action button[type='submit']").click()
    wait_for_answer(driver)
    screenshot(driver, step)


def wait_for_answer(driver):
    """Waits until the page's script has shown an answer: the result, or an error."""
    WebDriverWait(driver, WAIT).until(lambda _: visible(driver, "[data-state='done'], [data-error]"))


def wait_for_heading(driver, text):
    """Waits for the page a form post leads to: its heading says `text`."""
    WebDriverWait(driver, WAIT).until(lambda _: text in driver.execute_script("return document.querySelector('h1')?.textContent || ''"))


def test_a_password_reset_on_the_page_after_a_scanner(start_latchkey, open_browser, screenshot):
    server = start_latchkey()
    sign_up(server, "ann@example.com")
    sent = post(server, "accounts:sendOobCode", json={"requestType": "PASSWORD_RESET", "email": "ann@example.com"},
                headers={"X-Firebase-Locale": "fr"})
    assert sent.status_code == 200, sent.text
    link = link_in(server, 1)

    # A scanner that runs scripts opens the link: it sees the form and spends nothing.
    scanner = open_browser("scanner")
    scanner.get(link)
    assert wait_for(scanner, "password")
    screenshot(scanner, "scanner")
    assert post(server, "accounts:resetPassword", json={"oobCode": code_of(link)}).status_code == 200

    browser = open_browser("person")
    browser.get(link)
    assert "Choisissez un nouveau mot de passe" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.find_element(By.CSS_SELECTOR, "input[autocomplete='username']").get_attribute("value") == "ann@example.com"
    wait_for(browser, "password").send_keys(NEW_PASSWORD)
    browser.find_element(By.ID, "confirmation").send_keys(NEW_PASSWORD + "!")
    press(browser, screenshot, "mismatch")
    assert visible(browser, "[data-error='MISMATCH']") and not visible(browser, "[data-state='done']")
    confirmation = browser.find_element(By.ID, "confirmation")
    confirmation.clear()
    confirmation.send_keys(NEW_PASSWORD)
    press(browser, screenshot, "reset")
    assert visible(browser, "[data-state='done']") and not visible(browser, "[data-error]")
    assert not visible(browser, "#action")
    # The password went in a POST body only: not in the page's URL, not in the log.
    assert browser.current_url == link and NEW_PASSWORD not in browser.current_url
    assert NEW_PASSWORD not in server.logs()
    assert signs_in(server, "ann@example.com", NEW_PASSWORD) and not signs_in(server, "ann@example.com", PASSWORD)

    # The same link again: used, and the page says so.
    browser.get(link)
    assert "déjà été utilisé" in browser.find_element(By.TAG_NAME, "h1").text
    screenshot(browser, "used")


def test_an_address_verified_on_the_page(start_latchkey, open_browser, screenshot):
    server = start_latchkey()
    session = sign_up(server, "ben@example.com")
    assert post(server, "accounts:sendOobCode", json={"requestType": "VERIFY_EMAIL", "idToken": session["idToken"]}).status_code == 200
    browser = open_browser("person")
    browser.get(link_in(server, 1))
    assert "ben@example.com" in browser.find_element(By.TAG_NAME, "main").text
    screenshot(browser, "ask")
    press(browser, screenshot, "verified")
    assert visible(browser, "[data-state='done']")
    looked = post(server, "accounts:lookup", json={"idToken": session["idToken"]})
    assert looked.json()["users"][0]["emailVerified"] is True


def test_a_change_confirmed_then_undone_from_the_old_address_with_a_reset(start_latchkey, open_browser, screenshot):
    server = start_latchkey()
    session = sign_up(server, "cat@example.com")
    # Only an address its owner proved gets an undo: Cat verifies hers first.
    assert post(server, "accounts:sendOobCode", json={"requestType": "VERIFY_EMAIL", "idToken": session["idToken"]}).status_code == 200
    assert post(server, "accounts:update", json={"oobCode": code_of(link_in(server, 1))}).status_code == 200
    changed = post(server, "accounts:sendOobCode",
                   json={"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": session["idToken"], "newEmail": "cat@example.net"})
    assert changed.status_code == 200, changed.text
    browser = open_browser("new-address")
    browser.get(link_in(server, 2))
    assert "cat@example.net" in browser.find_element(By.TAG_NAME, "main").text
    press(browser, screenshot, "changed")
    assert visible(browser, "[data-state='done']")
    assert signs_in(server, "cat@example.net", PASSWORD)

    # The old address's owner undoes it, then asks for the reset the page offers.
    undo = link_in(server, 3)
    assert read_email(server, 3)["To"] == "cat@example.com" and "mode=recoverEmail" in undo
    owner = open_browser("old-address")
    owner.get(undo)
    press(owner, screenshot, "undone")
    assert visible(owner, "[data-state='done']")
    # The undo took the password away with the account's sessions: whoever changed the address may know it.
    assert not signs_in(server, "cat@example.com", PASSWORD) and not signs_in(server, "cat@example.net", PASSWORD)
    owner.find_element(By.ID, "reset").click()
    WebDriverWait(owner, WAIT).until(lambda _: visible(owner, "[data-state='resetSent']"))
    screenshot(owner, "reset-sent")
    reset = link_in(server, 4)
    assert read_email(server, 4)["To"] == "cat@example.com" and "mode=resetPassword" in reset
    owner.get(reset)
    wait_for(owner, "password").send_keys(NEW_PASSWORD)
    owner.find_element(By.ID, "confirmation").send_keys(NEW_PASSWORD)
    press(owner, screenshot, "reset")
    assert signs_in(server, "cat@example.com", NEW_PASSWORD)


def test_this_wasnt_me_from_a_scanner_then_from_a_person(start_latchkey, open_browser, screenshot):
    server = start_latchkey()
    for _ in range(2):
        send(server, "dan@example.com")
    report = link_in(server, 2, "/__/auth/not-me?")
    # A scanner fetches the link and renders the page with scripts: nothing happens.
    assert requests.head(report, timeout=HTTP_TIMEOUT).status_code == 200
    scanner = open_browser("scanner")
    scanner.get(report)
    assert "This wasn't me" in scanner.find_element(By.CSS_SELECTOR, "button[value='report']").text
    screenshot(scanner, "scanner")
    assert complete(server, "dan@example.com", code_of(read_link(server, 1))).status_code == 200

    person = open_browser("person")
    person.get(report)
    person.find_element(By.CSS_SELECTOR, "button[value='report']").click()
    wait_for_heading(person, "paused")
    screenshot(person, "reported")
    refused = complete(server, "dan@example.com", code_of(read_link(server, 2)))
    assert refused.status_code == 400 and "INVALID_OOB_CODE" in refused.text
    send(server, "dan@example.com")
    person.find_element(By.CSS_SELECTOR, "button[value='lift']").click()
    wait_for_heading(person, "work again")
    screenshot(person, "lifted")
    send(server, "dan@example.com")
    assert read_email(server, 3)["To"] == "dan@example.com"
