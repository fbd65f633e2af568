"""The admin API for identity providers (Identity Toolkit v2 `oauthIdpConfigs` and `defaultSupportedIdpConfigs`)
through the live binary, as the Firebase Python Admin SDK calls it: a provider created at run time signs people in at
once, changes and removal take effect at the next sign-in, the configuration file's providers are listed but
read-only, and client secrets are sealed at rest.
"""


import pytest
import requests
from firebase_admin import auth, exceptions

from harness import HTTP_TIMEOUT, PROJECT_ID, error_message, post

OWNER = "owner"
CALLBACK = "http://localhost/callback"


def code_flow_sign_in(server, provider, provider_id, subject):
    """createAuthUri, the provider's consent, and signInWithIdp: the answer."""
    started = post(server, "accounts:createAuthUri", json={"providerId": provider_id, "continueUri": CALLBACK})
    if started.status_code != 200:
        return started
    body = started.json()
    back = provider.authorize(body["authUri"], subject)
    return post(server, "accounts:signInWithIdp", json={"requestUri": back, "sessionId": body["sessionId"], "returnSecureToken": True})


def test_a_provider_created_with_the_admin_sdk_signs_in_until_it_is_disabled_or_deleted(start_latchkey, provider, admin_app):
    server = start_latchkey(adminTokens=[OWNER], idp={"allowInsecureIssuers": True})
    app = admin_app(server)
    created = auth.create_oidc_provider_config(
        "oidc.runtime", client_id="latchkey-client", issuer=provider.issuer, display_name="Runtime SSO", enabled=True,
        client_secret="runtime-secret", code_response_type=True, id_token_response_type=False, app=app)
    assert created.provider_id == "oidc.runtime" and created.display_name == "Runtime SSO" and created.enabled
    assert created.code_response_type and not created.id_token_response_type and created.client_secret == "runtime-secret"

    signed_in = code_flow_sign_in(server, provider, "oidc.runtime", "rita-1")
    assert signed_in.status_code == 200, signed_in.text
    assert signed_in.json()["providerId"] == "oidc.runtime" and signed_in.json()["federatedId"] == "rita-1"

    updated = auth.update_oidc_provider_config("oidc.runtime", display_name=auth.DELETE_ATTRIBUTE, enabled=False, app=app)
    assert updated.display_name is None and not updated.enabled and updated.issuer == provider.issuer
    assert error_message(code_flow_sign_in(server, provider, "oidc.runtime", "rita-1")) == "OPERATION_NOT_ALLOWED"

    auth.delete_oidc_provider_config("oidc.runtime", app=app)
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.runtime", app=app)
    assert error_message(code_flow_sign_in(server, provider, "oidc.runtime", "rita-1")) == "INVALID_PROVIDER_ID"
    # The secret was sealed in the store, never written in clear.
    assert b"runtime-secret" not in (server.directory / "data" / "latchkey.sqlite").read_bytes()


def test_providers_are_listed_in_pages_with_the_configuration_files_read_only(start_latchkey, provider, admin_app):
    server = start_latchkey(adminTokens=[OWNER], idp={"allowInsecureIssuers": True},
                            identityProviders=[provider.settings("oidc.file", displayName="From the file")])
    app = admin_app(server)
    for name in ("c", "a", "b"):
        auth.create_oidc_provider_config(f"oidc.{name}", client_id="cid", issuer=provider.issuer, enabled=True, app=app)
    listed = auth.list_oidc_provider_configs(max_results=2, app=app)
    assert [config.provider_id for config in listed.provider_configs] == ["oidc.a", "oidc.b"] and listed.next_page_token
    assert [config.provider_id for config in listed.iterate_all()] == ["oidc.a", "oidc.b", "oidc.c", "oidc.file"]
    defined = auth.get_oidc_provider_config("oidc.file", app=app)
    assert defined.display_name == "From the file" and defined.issuer == provider.issuer and defined.client_secret is None

    with pytest.raises(exceptions.FirebaseError) as exists:
        auth.create_oidc_provider_config("oidc.file", client_id="cid", issuer=provider.issuer, app=app)
    assert "CONFIGURATION_EXISTS" in str(exists.value)
    for change in (lambda: auth.update_oidc_provider_config("oidc.file", enabled=False, app=app),
                   lambda: auth.delete_oidc_provider_config("oidc.file", app=app)):
        with pytest.raises(exceptions.FirebaseError) as refused:
            change()
        assert "provider is defined in the configuration file" in str(refused.value)


def admin_call(server, method, path, **kwargs):
    return requests.request(method, f"{server.url}/v2/projects/{PROJECT_ID}/{path}", timeout=HTTP_TIMEOUT,
                            headers={"Authorization": f"Bearer {OWNER}"}, **kwargs)


def test_bad_configurations_and_callers_are_refused(start_latchkey, provider):
    server = start_latchkey(adminTokens=[OWNER])
    body = {"clientId": "cid", "issuer": "https://sso.example.com"}
    cases = [
        ("oauthIdpConfigs", {}, body, "MISSING_CONFIG_ID"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "saml.x"}, body, "INVALID_CONFIG_ID"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "oidc.Corp"}, body, "INVALID_CONFIG_ID"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "oidc.x"}, {"clientId": "cid"}, "MISSING_ISSUER"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "oidc.x"}, {"issuer": "https://sso.example.com"}, "MISSING_OAUTH_CLIENT_ID"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "oidc.x"}, {**body, "issuer": "http://sso.example.com"},
         "INVALID_CONFIG : the issuer must be an https URL without query or fragment"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "oidc.x"}, {**body, "responseType": {"code": True}},
         "INVALID_CONFIG : the code flow needs a clientSecret"),
        ("oauthIdpConfigs", {"oauthIdpConfigId": "oidc.x"}, {**body, "responseType": {"code": True, "idToken": True}, "clientSecret": "s"},
         "INVALID_CONFIG : choose one of responseType.code and responseType.idToken"),
        ("defaultSupportedIdpConfigs", {"idpId": "myspace.com"}, {"clientId": "cid", "clientSecret": "s"}, "INVALID_PROVIDER_ID"),
    ]
    for collection, query, payload, expected in cases:
        answer = admin_call(server, "POST", collection, params=query, json=payload)
        assert answer.status_code == 400 and error_message(answer) == expected, (query, payload, answer.text)
    assert admin_call(server, "GET", "oauthIdpConfigs", params={"pageSize": "0"}).json()["error"]["message"] == "INVALID_PAGE_SELECTION"
    assert admin_call(server, "GET", "oauthIdpConfigs", params={"pageToken": "%%%"}).json()["error"]["message"] == "INVALID_PAGE_SELECTION"
    assert admin_call(server, "GET", "oauthIdpConfigs").json() == {}
    assert admin_call(server, "PATCH", "oauthIdpConfigs/oidc.none", params={"updateMask": "enabled"}, json={}).json()["error"]["message"] == \
        "CONFIGURATION_NOT_FOUND"
    # An app's API key is not an admin.
    as_app = requests.get(f"{server.url}/v2/projects/{PROJECT_ID}/oauthIdpConfigs", params={"key": "e2e-api-key"}, timeout=HTTP_TIMEOUT)
    assert as_app.status_code == 401


def test_a_built_in_provider_is_configured_with_its_client_only(start_latchkey):
    server = start_latchkey(adminTokens=[OWNER])
    created = admin_call(server, "POST", "defaultSupportedIdpConfigs", params={"idpId": "yahoo.com"},
                         json={"clientId": "yahoo-client", "clientSecret": "yahoo-secret", "enabled": True})
    assert created.status_code == 200, created.text
    assert created.json() == {"name": f"projects/{PROJECT_ID}/defaultSupportedIdpConfigs/yahoo.com", "clientId": "yahoo-client",
                              "clientSecret": "yahoo-secret", "enabled": True}
    patched = admin_call(server, "PATCH", "defaultSupportedIdpConfigs/yahoo.com", params={"updateMask": "enabled"}, json={"enabled": False})
    assert patched.json()["enabled"] is False and patched.json()["clientId"] == "yahoo-client"
    assert [entry["name"] for entry in admin_call(server, "GET", "defaultSupportedIdpConfigs").json()["defaultSupportedIdpConfigs"]] == [
        f"projects/{PROJECT_ID}/defaultSupportedIdpConfigs/yahoo.com"]
    assert error_message(post(server, "accounts:createAuthUri", json={"providerId": "yahoo.com", "continueUri": CALLBACK})) == \
        "OPERATION_NOT_ALLOWED"
    assert admin_call(server, "DELETE", "defaultSupportedIdpConfigs/yahoo.com").json() == {}
    assert error_message(admin_call(server, "GET", "defaultSupportedIdpConfigs/yahoo.com")) == "CONFIGURATION_NOT_FOUND"
