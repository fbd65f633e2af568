"""SMS pumping defences against the live binary: texts go out to the regions the SMS region policy allows (Firebase's
`smsRegionConfig`, shown by the admin v2 config), and a flood of sends to the numbers of one premium prefix stops at
the per-calling-code limit, then the day's budget stops every sign-in code, while the refused sends text nothing."""

import pytest
import requests

from conftest import ADMIN_TOKEN
from harness import HTTP_TIMEOUT, PROJECT_ID, error_message, post
from sms import webhook_sms

PREMIUM = "+37190"  # Latvia's premium-rate numbers, 8 digits: what SMS pumping sends to
LIMITS = {
    "apiKeyRequestsPerMinute": 0, "textPerIP": [], "textPerCallingCode": [{"limit": 40, "windowSeconds": 3600}], "textBudget": [{"limit": 100, "windowSeconds": 86400}],
}


def send(server, number):
    return post(server, "accounts:sendVerificationCode", json={"phoneNumber": number})


@pytest.fixture
def guarded(start_latchkey, start_sms_gateway, monkeypatch):
    gateway = start_sms_gateway()
    server = start_latchkey(sms={**webhook_sms(gateway, monkeypatch), "regionConfig": {"allowByDefault": {"disallowedRegions": ["CA"]}}},
                            rateLimits=LIMITS, adminTokens=[ADMIN_TOKEN])
    return server, gateway


def test_a_denied_region_is_refused_before_anything_is_queued(guarded):
    server, gateway = guarded
    config = requests.get(f"{server.url}/v2/projects/{PROJECT_ID}/config", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"},
                          timeout=HTTP_TIMEOUT)
    assert config.json()["smsRegionConfig"] == {"allowByDefault": {"disallowedRegions": ["CA"]}}, config.text
    # Winnipeg is in Canada, New York in the United States: both behind +1.
    assert error_message(send(server, "+12045550123")) == \
        "OPERATION_NOT_ALLOWED : SMS unable to be sent until this region enabled by the app developer."
    assert send(server, "+12125550123").status_code == 200
    assert [text["to"] for text in gateway.wait_for(1)] == ["+12125550123"]


def test_a_flood_to_one_premium_prefix_stops_at_its_limit_and_the_budget_at_its_own(guarded):
    server, gateway = guarded
    answers = [send(server, f"{PREMIUM}{index:06d}") for index in range(2000)]
    accepted = [answer for answer in answers if answer.status_code == 200]
    assert len(accepted) == 40
    assert {error_message(answer) for answer in answers if answer.status_code != 200} == {"TOO_MANY_ATTEMPTS_TRY_LATER"}
    # Other countries' sends still go (each country under its own limit), until the day's budget is spent.
    numbers = [f"+1212555{index:04d}" for index in range(20)] + [f"+4420794{index:05d}" for index in range(20)] \
        + [f"+4930{index:08d}" for index in range(20)]
    others = [send(server, number) for number in numbers]
    assert all(answer.status_code == 200 for answer in others), [answer.text for answer in others if answer.status_code != 200][:3]
    assert error_message(send(server, "+442079460958")) == "QUOTA_EXCEEDED"
    texts = gateway.wait_for(100, timeout=60)
    assert len(texts) == 100 and sum(text["to"].startswith(PREMIUM) for text in texts) == 40
    assert len(gateway.texts()) == 100
