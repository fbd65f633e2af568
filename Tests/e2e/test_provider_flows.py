"""Provider sign-ins Latchkey starts itself, through the live binary against two real OpenID Connect providers
(django-oidc-provider, which enforces PKCE, checks client secrets, signs with `kid` and has the implicit flow; and
oidc-provider-mock): createAuthUri then signInWithIdp in the code flow, the hosted page /__/auth/handler in the
implicit flow, single-use sign-ins, refused and failed token exchanges, linking and unlinking a second provider,
and "needConfirmation" finished with a pendingToken.
"""

import time
from urllib.parse import parse_qs, urlsplit

import jwt
import pytest
import requests
from firebase_admin import auth

from django_oidc import DjangoOIDCProvider
from harness import API_KEY, HTTP_TIMEOUT, error_message, post, verify
from oidc import OIDCProvider

CALLBACK = "http://localhost/callback"  # the app's page the provider sends the browser back to (an authorized domain)
APP_PAGE = "http://localhost/app"  # the web page the hosted handler hands the answer to
EVENT_ID = "kept-by-the-app-page"  # the value that page keeps when it starts a sign-in, and finishes it with
ADMIN_TOKEN = "owner"  # what the Admin SDK sends to an emulator


# --- Fixtures: every process a test starts is stopped when it ends, pass or fail -----------------------------


@pytest.fixture(scope="module")
def django_dir(tmp_path_factory):
    """One work directory for every django provider of this module: its database and key are made once."""
    return tmp_path_factory.mktemp("django-oidc")


@pytest.fixture
def start_django(tmp_path, django_dir):
    started = []

    def start(redirect_uris, **client):
        provider = DjangoOIDCProvider(tmp_path / f"django-{len(started)}.log", django_dir)
        started.append(provider)  # before start: a provider that fails to come up is still stopped
        return provider.start(redirect_uris, **client)

    yield start
    for provider in started:
        provider.stop()


@pytest.fixture
def start_mock(tmp_path):
    started = []

    def start(name="mock"):
        provider = OIDCProvider(tmp_path / f"{name}.log")
        started.append(provider)
        return provider.start()

    yield start
    for provider in started:
        provider.stop()


# --- What an app does ------------------------------------------------------------------------------------------


def query_of(url, part="query"):
    """The single-valued parameters of `url`'s query (or fragment)."""
    return {name: values[0] for name, values in parse_qs(getattr(urlsplit(url), part), keep_blank_values=True).items()}


def create_auth_uri(server, provider_id, continue_uri=CALLBACK, **extra):
    answer = post(server, "accounts:createAuthUri", json={"providerId": provider_id, "continueUri": continue_uri, **extra})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["kind"] == "identitytoolkit#CreateAuthUriResponse" and body["providerId"] == provider_id and body["sessionId"]
    return body


def finish(server, request_uri, session_id, **extra):
    return post(server, "accounts:signInWithIdp",
                json={"requestUri": request_uri, "sessionId": session_id, "returnSecureToken": True, **extra})


def django_code_flow(server, django, browser, provider_id="oidc.django", **extra):
    """createAuthUri, the logged-in browser at django, and the redirect back: (requestUri, sessionId)."""
    started = create_auth_uri(server, provider_id, **extra)
    return django.authorize(browser, started["authUri"]), started["sessionId"]


def mock_code_flow(server, mock, subject, claims, provider_id="oidc.mock", **extra):
    """A code-flow sign-in with oidc-provider-mock: its authorization form is a POST of the subject."""
    started = create_auth_uri(server, provider_id)
    return finish(server, mock.authorize(started["authUri"], subject, claims), started["sessionId"], **extra)


def manual_sign_in(server, id_token, provider_id="oidc.mock", **extra):
    body = {"requestUri": "http://localhost", "postBody": f"id_token={id_token}&providerId={provider_id}", "returnSecureToken": True, **extra}
    return post(server, "accounts:signInWithIdp", json=body)


def providers_of(server, id_token):
    answer = post(server, "accounts:lookup", json={"idToken": id_token})
    assert answer.status_code == 200, answer.text
    [user] = answer.json()["users"]
    return {entry["providerId"]: entry for entry in user.get("providerUserInfo", [])}


def django_code_settings(django, provider_id="oidc.django", **extra):
    return django.settings(provider_id, responseType={"code": True}, **extra)


# --- The tests ------------------------------------------------------------------------------------------------


def test_the_code_flow_signs_up_with_pkce_and_each_answer_is_used_once(start_latchkey, start_django):
    django = start_django([CALLBACK])
    server = start_latchkey(identityProviders=[django_code_settings(django)])
    browser = django.log_in(requests.Session())

    started = create_auth_uri(server, "oidc.django", context="checkout-42", oauthScope="email",
                              customParameter={"login_hint": "alice", "state": "chosen", "redirect_uri": "https://evil.example/"})
    authorization = query_of(started["authUri"])
    assert authorization["login_hint"] == "alice" and authorization["state"] != "chosen"  # reserved parameters are dropped
    assert started["authUri"].startswith(django.issuer + "/authorize?")
    assert authorization["client_id"] == django.client_id and authorization["redirect_uri"] == CALLBACK
    assert authorization["response_type"] == "code" and authorization["scope"].split() == ["openid", "email", "profile"]
    assert authorization["code_challenge_method"] == "S256" and len(authorization["code_challenge"]) == 43
    assert len(authorization["state"]) >= 22 and authorization["nonce"] and "response_mode" not in authorization

    request_uri = django.authorize(browser, started["authUri"])
    assert request_uri.startswith(CALLBACK + "?") and query_of(request_uri)["state"] == authorization["state"]
    answer = finish(server, request_uri, started["sessionId"])
    assert answer.status_code == 200, answer.text  # django refuses a missing or wrong code_verifier
    body = answer.json()
    assert body["isNewUser"] is True and body["providerId"] == "oidc.django" and body["federatedId"] == "1"
    assert body["email"] == "alice@example.com" and body["emailVerified"] is True and body["context"] == "checkout-42"
    assert body["oauthAccessToken"] and body["oauthExpireIn"] > 0 and "oauthRefreshToken" not in body
    assert "pendingToken" not in body and body["expiresIn"] == "3600"
    # django signs with a `kid` from its JWKS, and that token is what the server accepted.
    keys = requests.get(django.issuer + "/jwks", timeout=HTTP_TIMEOUT).json()["keys"]
    assert jwt.get_unverified_header(body["oauthIdToken"])["kid"] in [key["kid"] for key in keys]
    claims = verify(server, body["idToken"], provider="oidc.django")
    assert claims["firebase"]["identities"]["oidc.django"] == ["1"] and claims["sub"] == body["localId"]

    # The same answer again: the sign-in is used up; the code again, as a credential of the app's own: django refuses.
    replayed = finish(server, request_uri, started["sessionId"])
    assert replayed.status_code == 400
    assert error_message(replayed) == "INVALID_IDP_RESPONSE : the sign-in is unknown, used or expired"
    # Without a sign-in the code is exchanged with redirect_uri = requestUri minus its query: django checks that
    # first (http://localhost is not registered: invalid_client), then the code (used: invalid_grant).
    code = query_of(request_uri)["code"]
    for redirect_uri, error in [("http://localhost", "invalid_client"), (CALLBACK, "invalid_grant")]:
        manual = post(server, "accounts:signInWithIdp",
                      json={"requestUri": redirect_uri, "postBody": f"code={code}&providerId=oidc.django", "returnSecureToken": True})
        assert manual.status_code == 400
        assert error_message(manual) == f"INVALID_IDP_RESPONSE : token exchange refused: {error}"

    # The provider's refresh token only for an app that asks; the same account each time.
    request_uri, session_id = django_code_flow(server, django, browser)
    asked = finish(server, request_uri, session_id, returnRefreshToken=True)
    assert asked.status_code == 200, asked.text
    assert asked.json()["oauthRefreshToken"] and asked.json()["localId"] == body["localId"] and "isNewUser" not in asked.json()
    assert "eyJ" not in server.logs() and code not in server.logs()


def test_the_code_flow_with_a_wrong_session_or_another_client_authentication(start_latchkey, start_django):
    django = start_django([CALLBACK])
    server = start_latchkey(identityProviders=[
        django_code_settings(django),
        django_code_settings(django, "oidc.django-post", tokenEndpointAuthMethod="client_secret_post"),
        django_code_settings(django, "oidc.django-wrong", clientSecret="not-the-secret"),
        django_code_settings(django, "oidc.django-plain", pkce=False),
    ])
    browser = django.log_in(requests.Session())

    started = create_auth_uri(server, "oidc.django-plain")
    assert "code_challenge" not in query_of(started["authUri"])
    plain = finish(server, django.authorize(browser, started["authUri"]), started["sessionId"])
    assert plain.status_code == 200, plain.text

    request_uri, session_id = django_code_flow(server, django, browser, "oidc.django-post")
    posted = finish(server, request_uri, session_id)
    assert posted.status_code == 200, posted.text
    assert posted.json()["providerId"] == "oidc.django-post" and posted.json()["oauthAccessToken"]

    request_uri, session_id = django_code_flow(server, django, browser, "oidc.django-wrong")
    refused = finish(server, request_uri, session_id)
    assert refused.status_code == 400
    assert error_message(refused) == "INVALID_IDP_RESPONSE : token exchange refused: invalid_client"
    # A refused exchange still uses the sign-in up.
    assert error_message(finish(server, request_uri, session_id)) == "INVALID_IDP_RESPONSE : the sign-in is unknown, used or expired"

    # Another caller's sessionId uses the sign-in up too: the rightful caller cannot finish it afterwards.
    request_uri, session_id = django_code_flow(server, django, browser)
    stranger = finish(server, request_uri, "someone-elses-session")
    assert error_message(stranger) == "INVALID_IDP_RESPONSE : the sessionId is not the sign-in's"
    assert error_message(finish(server, request_uri, session_id)) == "INVALID_IDP_RESPONSE : the sign-in is unknown, used or expired"


def test_create_auth_uri_refuses_what_it_cannot_start(start_latchkey, start_django):
    django = start_django([CALLBACK])
    server = start_latchkey(identityProviders=[django_code_settings(django), django.settings("oidc.off", enabled=False)])

    def refusal(body):
        answer = post(server, "accounts:createAuthUri", json=body)
        assert answer.status_code == 400, answer.text
        return error_message(answer).split(" : ")[0]  # the code; some carry a sentence after it

    assert refusal({"providerId": "oidc.django"}) == "MISSING_CONTINUE_URI"
    assert refusal({"providerId": "oidc.django", "continueUri": "not a url"}) == "INVALID_CONTINUE_URI"
    assert refusal({"providerId": "oidc.django", "continueUri": CALLBACK + "#fragment"}) == "INVALID_CONTINUE_URI"
    assert refusal({"providerId": "oidc.django", "continueUri": CALLBACK + "?state=chosen"}) == "INVALID_CONTINUE_URI"
    assert refusal({"providerId": "oidc.django", "continueUri": "http://evil.example/callback"}) == "INVALID_CONTINUE_URI"
    assert refusal({"providerId": "oidc.django", "continueUri": "https://evil.example/callback"}) == "UNAUTHORIZED_DOMAIN"
    assert refusal({"providerId": "oidc.nobody", "continueUri": CALLBACK}) == "INVALID_PROVIDER_ID"
    assert refusal({"providerId": "oidc.off", "continueUri": CALLBACK}) == "OPERATION_NOT_ALLOWED"


def test_the_implicit_flow_through_the_hosted_handler(start_latchkey, start_django):
    server = start_latchkey(started=False)
    handler = server.url + "/__/auth/handler"
    django = start_django([handler])
    server.configure(identityProviders=[django.settings()]).start()  # responseType defaults to idToken
    browser = django.log_in(requests.Session())

    def start():
        opened = browser.get(handler, params={"apiKey": API_KEY, "providerId": "oidc.django", "redirectUrl": APP_PAGE,
                                              "eventId": EVENT_ID},
                             allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert opened.status_code == 302, opened.text
        return opened.headers["Location"]

    def relay(fragment):
        """What the handler page's script does with the fragment: post its fields back to the page."""
        posted = browser.post(handler, data=fragment, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert posted.status_code == 302, posted.text
        handed = posted.headers["Location"]
        assert handed.startswith(APP_PAGE + "#"), handed
        return query_of(handed, "fragment")

    authorization_url = start()
    authorization = query_of(authorization_url)
    assert authorization_url.startswith(django.issuer + "/authorize?")
    assert authorization["redirect_uri"] == handler and authorization["response_type"] == "id_token"
    assert authorization["response_mode"] == "fragment" and "code_challenge" not in authorization

    back = django.authorize(browser, authorization_url)
    assert back.startswith(handler + "#"), back
    fragment = query_of(back, "fragment")
    assert fragment["state"] == authorization["state"] and "id_token" in fragment
    # The page the browser lands on has no query: only its script sees the fragment.
    page = requests.get(handler, timeout=HTTP_TIMEOUT)
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]

    # Posted from another browser (a cross-site form in a victim's), the answer is handed to no one.
    assert requests.post(handler, data=fragment, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 410
    handed = relay(fragment)
    assert handed["providerId"] == "oidc.django" and handed["link"].startswith(handler + "#")
    assert query_of(handed["link"], "fragment") == fragment
    answer = finish(server, handed["link"], EVENT_ID)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["isNewUser"] is True and body["federatedId"] == "1" and body["email"] == "alice@example.com"
    assert "oauthAccessToken" not in body and body["oauthIdToken"] == fragment["id_token"]
    verify(server, body["idToken"], provider="oidc.django")
    # Used up, the sign-in is gone for the page too.
    assert browser.post(handler, data=fragment, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 410

    def relayed_sign_in(id_token_for):
        """A fresh sign-in's state posted to the page with the ID token `id_token_for(its nonce)`, then finished."""
        authorization = query_of(start())
        handed = relay({"state": authorization["state"], "id_token": id_token_for(authorization["nonce"])})
        return finish(server, handed["link"], EVENT_ID)

    # Genuine ID tokens of django's slipped in with a fresh sign-in's state: one minted for another nonce, and the
    # first sign-in's; minted for the sign-in's own nonce, one is as good as django's own answer.
    forged = relayed_sign_in(lambda nonce: django.id_token(nonce="someone-elses-nonce"))
    assert forged.status_code == 400 and error_message(forged) == "MISSING_OR_INVALID_NONCE"
    replayed = relayed_sign_in(lambda nonce: fragment["id_token"])
    assert replayed.status_code == 400 and error_message(replayed) == "MISSING_OR_INVALID_NONCE"
    genuine = relayed_sign_in(lambda nonce: django.id_token(nonce=nonce))
    assert genuine.status_code == 200 and genuine.json()["localId"] == body["localId"], genuine.text
    assert "eyJ" not in server.logs()


def test_the_code_flow_through_the_hosted_handler_and_a_user_who_says_no(start_latchkey, start_django):
    server = start_latchkey(started=False)
    handler = server.url + "/__/auth/handler"
    django = start_django([handler])
    server.configure(identityProviders=[django_code_settings(django)]).start()
    browser = django.log_in(requests.Session())

    def start(redirect_url=APP_PAGE):
        return browser.get(handler, params={"apiKey": API_KEY, "providerId": "oidc.django", "redirectUrl": redirect_url,
                                            "eventId": EVENT_ID},
                           allow_redirects=False, timeout=HTTP_TIMEOUT)

    opened = start()
    assert opened.status_code == 302 and query_of(opened.headers["Location"])["code_challenge_method"] == "S256"
    back = django.authorize(browser, opened.headers["Location"])
    assert back.startswith(handler + "?code="), back
    # Opened in another browser (a victim sent the attacker's answer), it hands nothing over; in the one that started it, it does.
    assert requests.get(back, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 410
    handed_over = browser.get(back, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert handed_over.status_code == 302, handed_over.text
    handed = query_of(handed_over.headers["Location"], "fragment")
    assert handed_over.headers["Location"].startswith(APP_PAGE + "#") and handed["link"] == back
    answer = finish(server, handed["link"], EVENT_ID)
    assert answer.status_code == 200, answer.text
    assert answer.json()["providerId"] == "oidc.django" and answer.json()["oauthAccessToken"]
    assert browser.get(back, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 410

    # The provider sends back `error=access_denied`: the app learns that the user cancelled.
    state = query_of(start().headers["Location"])["state"]
    denied = browser.get(handler, params={"state": state, "error": "access_denied"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert denied.status_code == 302, denied.text
    handed = query_of(denied.headers["Location"], "fragment")
    cancelled = finish(server, handed["link"], EVENT_ID)
    assert cancelled.status_code == 400 and error_message(cancelled) == "USER_CANCELLED"

    # Nothing is started for a page off the authorized domains, nor handed over for a state nobody started.
    assert start("https://evil.example/app").status_code == 400
    unknown = requests.get(handler, params={"state": "nobody-started-this", "code": "c"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert unknown.status_code == 410 and "location" not in unknown.headers


def test_a_provider_that_stops_mid_flow_is_a_quick_clean_refusal(start_latchkey, start_mock):
    mock = start_mock("going")
    server = start_latchkey(identityProviders=[mock.settings("oidc.going", responseType={"code": True}, clientSecret="mock-secret")])
    started = create_auth_uri(server, "oidc.going")
    back = mock.authorize(started["authUri"], "gone-1")
    mock.stop()

    began = time.monotonic()
    answer = finish(server, back, started["sessionId"])
    # Bounded, not instant: a refused connection is reported once the 5 s connect timeout ends (AsyncHTTPClient keeps
    # retrying the connect until then, swift-server/async-http-client#743).
    assert time.monotonic() - began < 15
    assert answer.status_code == 400
    assert error_message(answer) == "INVALID_IDP_RESPONSE : token exchange failed: could not connect"
    assert requests.get(server.url + "/healthz", timeout=HTTP_TIMEOUT).status_code == 200


def test_a_second_provider_links_and_unlinks(start_latchkey, start_mock, start_django, admin_app):
    mock = start_mock()
    django = start_django([CALLBACK])
    server = start_latchkey(adminTokens=[ADMIN_TOKEN], identityProviders=[
        mock.settings(responseType={"code": True}, clientSecret="mock-secret"), django_code_settings(django)])
    browser = django.log_in(requests.Session())

    first = mock_code_flow(server, mock, "bob-1", {"email": "bob@example.com", "email_verified": True, "name": "Bob"})
    assert first.status_code == 200, first.text
    user = first.json()
    assert user["isNewUser"] is True and user["oauthAccessToken"]

    request_uri, session_id = django_code_flow(server, django, browser)
    linked = finish(server, request_uri, session_id, idToken=user["idToken"])
    assert linked.status_code == 200, linked.text
    assert linked.json()["localId"] == user["localId"] and "isNewUser" not in linked.json()
    entries = providers_of(server, linked.json()["idToken"])
    # A provider made the account: no `password` entry until its address signs in by itself.
    assert set(entries) == {"oidc.mock", "oidc.django"}
    assert entries["oidc.django"]["rawId"] == entries["oidc.django"]["federatedId"] == "1"
    assert entries["oidc.mock"]["rawId"] == "bob-1"

    # Either provider now signs in to the same account.
    request_uri, session_id = django_code_flow(server, django, browser)
    assert finish(server, request_uri, session_id).json()["localId"] == user["localId"]
    assert mock_code_flow(server, mock, "bob-1", {"email": "bob@example.com", "email_verified": True}).json()["localId"] == user["localId"]

    app = admin_app(server)
    record = auth.get_user(user["localId"], app=app)
    assert {(info.provider_id, info.uid) for info in record.provider_data} == {("oidc.mock", "bob-1"), ("oidc.django", "1")}
    auth.update_user(user["localId"], providers_to_delete=["oidc.django"], app=app)
    assert "oidc.django" not in [info.provider_id for info in auth.get_user(user["localId"], app=app).provider_data]
    assert set(providers_of(server, user["idToken"])) == {"oidc.mock"}

    # Unlinked, django's alice is a stranger again (her address is not the account's): a new account.
    request_uri, session_id = django_code_flow(server, django, browser)
    again = finish(server, request_uri, session_id).json()
    assert again["isNewUser"] is True and again["localId"] != user["localId"]

    # The user unlinks the other one herself.
    unlinked = post(server, "accounts:update", json={"idToken": user["idToken"], "deleteProvider": ["oidc.mock"]})
    assert unlinked.status_code == 200, unlinked.text
    assert "oidc.mock" not in [entry["providerId"] for entry in unlinked.json().get("providerUserInfo", [])]
    assert auth.get_user(user["localId"], app=app).provider_data == []
    # Her session signed in with the provider she unlinked: it ended with it (Firebase would keep it).
    ended = post(server, "accounts:lookup", json={"idToken": user["idToken"]})
    assert ended.status_code == 400 and error_message(ended) == "TOKEN_EXPIRED"


def test_need_confirmation_is_finished_with_the_pending_token(start_latchkey, start_mock):
    mock = start_mock()
    server = start_latchkey(identityProviders=[mock.settings()])
    owner = post(server, "accounts:signUp", json={"email": "alice@example.com", "password": "alice-password"})
    assert owner.status_code == 200, owner.text
    owner = owner.json()

    answer = manual_sign_in(server, mock.id_token("alice-mock", {"email": "alice@example.com", "email_verified": False}))
    assert answer.status_code == 200, answer.text
    pending = answer.json()
    assert pending["needConfirmation"] is True and "localId" not in pending and pending["pendingToken"]
    assert "idToken" not in pending and "refreshToken" not in pending
    assert pending["email"] == "alice@example.com" and pending["emailVerified"] is False

    # The app signs the user in the old way, then links the kept credential: no provider token needed again.
    password = post(server, "accounts:signInWithPassword", json={"email": "alice@example.com", "password": "alice-password"})
    assert password.status_code == 200, password.text
    linked = post(server, "accounts:signInWithIdp", json={
        "requestUri": "http://localhost", "pendingToken": pending["pendingToken"], "idToken": password.json()["idToken"], "returnSecureToken": True})
    assert linked.status_code == 200, linked.text
    assert linked.json()["localId"] == owner["localId"] and linked.json()["providerId"] == "oidc.mock" and linked.json()["idToken"]
    assert set(providers_of(server, linked.json()["idToken"])) == {"password", "oidc.mock"}

    assert "pendingToken" not in linked.json()
    # The pendingToken was spent by the link; a fresh token from the provider signs in to the linked account.
    again = post(server, "accounts:signInWithIdp", json={"requestUri": "http://localhost", "pendingToken": pending["pendingToken"]})
    assert again.status_code == 400 and error_message(again) == "INVALID_PENDING_TOKEN"
    fresh = manual_sign_in(server, mock.id_token("alice-mock", {"email": "alice@example.com", "email_verified": False}))
    assert fresh.json()["localId"] == owner["localId"] and "needConfirmation" not in fresh.json()

    garbage = post(server, "accounts:signInWithIdp", json={"requestUri": "http://localhost", "pendingToken": "not-a-pending-token"})
    assert garbage.status_code == 400 and error_message(garbage) == "INVALID_PENDING_TOKEN"
