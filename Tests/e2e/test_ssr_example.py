"""The server-rendered example (`examples/ssr/`, Flask) in headless Chromium against the live binary.

A user signs in on the example's page (a password sign-in through Latchkey's REST API), the page hands the ID token
to the app, which sets an `HttpOnly; Secure; SameSite=Lax` session cookie made by `createSessionCookie` and renders
the protected page for it. A form posted from another site is refused and changes nothing; signing out revokes the
account's sessions, so the same cookie, sent again, is refused. Screenshots go to `.ci/artifacts/ssr-example/`.
"""

import importlib.util
import threading

import pytest
import requests
from selenium.webdriver.common.by import By
from werkzeug.serving import make_server

from browser import wait_for
from harness import API_KEY, HTTP_TIMEOUT, PROJECT_ID, REPO, post

ADMIN_TOKEN = "ssr-example-admin-token"
EMAIL, PASSWORD = "alice@example.com", "alice's long password"


def load_example():
    spec = importlib.util.spec_from_file_location("ssr_example", REPO / "examples" / "ssr" / "app.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def serve():
    """Serves WSGI apps on loopback in threads, at `host` (127.0.0.1 or localhost: two sites to a browser); every one is
    shut down when the test ends."""
    servers = []

    def start(app, host="127.0.0.1"):
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://{host}:{server.server_port}"

    yield start
    for server in servers:
        server.shutdown()


def cross_site_page(target):
    """Another site's page with a form that posts to the example's `target`, as a forged request would."""
    page = (f'<!DOCTYPE html><title>Another site</title><form method="post" action="{target}">'
            '<input type="hidden" name="csrfToken" value="guessed"><input type="hidden" name="idToken" value="forged">'
            '<button id="forge" type="submit">Win a prize</button></form>').encode()

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [page]

    return app


def test_the_ssr_example_signs_in_with_a_session_cookie_refuses_cross_site_posts_and_revokes_at_sign_out(
        start_latchkey, serve, open_browser, screenshot):
    server = start_latchkey(adminTokens=[ADMIN_TOKEN])
    assert post(server, "accounts:signUp", json={"email": EMAIL, "password": PASSWORD}).status_code == 200
    example = load_example()
    app_url = serve(example.create_app(example.Settings(server.url, API_KEY, PROJECT_ID, ADMIN_TOKEN)))

    driver = open_browser("user")
    driver.get(app_url + "/")
    wait_for(driver, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    screenshot(driver, "sign-in")
    driver.find_element(By.ID, "signin-button").click()
    assert EMAIL in wait_for(driver, "signed-in").text
    screenshot(driver, "protected-page")
    cookie = driver.get_cookie("session")
    assert cookie and cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Lax", cookie
    assert "session=" not in driver.execute_script("return document.cookie")  # out of scripts' reach
    # The server renders the protected page for that cookie, and for nothing else.
    replayed = requests.get(app_url + "/profile", headers={"Cookie": f"session={cookie['value']}"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert replayed.status_code == 200 and EMAIL in replayed.text
    forged = requests.get(app_url + "/profile", headers={"Cookie": f"session={cookie['value'][:-4]}AAAA"}, allow_redirects=False,
                          timeout=HTTP_TIMEOUT)
    assert forged.status_code == 302 and forged.headers["Location"].endswith("/")

    # Forms posted from another site (localhost is another site than 127.0.0.1): sign-out and sign-in are refused.
    for target in ("/sessionLogout", "/sessionLogin"):
        driver.get(serve(cross_site_page(app_url + target), host="localhost") + "/")
        wait_for(driver, "forge").click()
        assert wait_for(driver, "refused").text == "Refused"
        screenshot(driver, "cross-site-post-refused")
        driver.get(app_url + "/profile")
        assert EMAIL in wait_for(driver, "signed-in").text
        assert driver.get_cookie("session")["value"] == cookie["value"]

    driver.find_element(By.ID, "signout-button").click()
    wait_for(driver, "signin-form")
    screenshot(driver, "signed-out")
    assert driver.get_cookie("session") is None
    # Sign-out revoked the account's sessions: the same cookie, sent again, is refused.
    replayed = requests.get(app_url + "/profile", headers={"Cookie": f"session={cookie['value']}"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert replayed.status_code == 302 and replayed.headers["Location"].endswith("/")
