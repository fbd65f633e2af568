"""`GET /v2/recaptchaConfig` against the live binary: the answer the SDKs read before an email-and-password call,
saying that no provider enforces reCAPTCHA, so none of them loads Google's scripts."""

import pytest
import requests

from harness import API_KEY, HTTP_TIMEOUT, PROJECT_ID


@pytest.mark.parametrize(
    "path",
    [
        "/v2/recaptchaConfig",
        f"/v2/projects/{PROJECT_ID}/recaptchaConfig",
        "/identitytoolkit.googleapis.com/v2/recaptchaConfig",
        f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT_ID}/recaptchaConfig",
    ],
)
def test_no_provider_enforces_recaptcha(server, path):
    answer = requests.get(
        server.url + path,
        params={"key": API_KEY, "clientType": "CLIENT_TYPE_WEB", "version": "RECAPTCHA_ENTERPRISE"},
        timeout=HTTP_TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    config = answer.json()
    assert config["recaptchaEnforcementState"] == [
        {"provider": "EMAIL_PASSWORD_PROVIDER", "enforcementState": "OFF"},
        {"provider": "PHONE_PROVIDER", "enforcementState": "OFF"},
    ]
    # The JS SDK's RecaptchaConfig takes the site key as the fourth part of this name, and refuses an answer without it.
    assert config["recaptchaKey"].split("/")[:3] == ["projects", PROJECT_ID, "keys"]
    assert config["useSmsBotScore"] is False and config["useSmsTollFraudProtection"] is False


def test_recaptcha_config_needs_an_api_key(server):
    assert requests.get(server.url + "/v2/recaptchaConfig", timeout=HTTP_TIMEOUT).status_code in (400, 401, 403)
