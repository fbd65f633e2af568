"""Texts through the durable outbox to a real HTTP gateway (Tests/support/sms_gateway.py): the webhook's signed JSON
and Twilio's Messages API, a kill -9 in the middle of 1,000 texts, a gateway answering 500 for a while, a number the
gateway refuses, and the development default (files, shown in the mailbox)."""

import re
import signal
import time

import requests

from harness import outbox, wait_for_listing
from sms import FAST_RETRIES, TWILIO_FROM, queue_texts, twilio_sms, webhook_sms


def numbers(count, prefix="+4477009"):
    """`count` distinct valid UK mobile numbers."""
    return [f"{prefix}{n:05d}" for n in range(count)]


def started_then_stopped(start_latchkey, **config):
    """A server that has made its store and secret once, stopped, so texts can be queued before it delivers any."""
    server = start_latchkey(**config)
    server.stop()
    return server


def test_a_text_reaches_the_webhook_signed_with_the_code_and_the_web_otp_line(start_latchkey, start_sms_gateway, monkeypatch):
    gateway = start_sms_gateway()
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch, webOTPHost="app.example.com"), mail=FAST_RETRIES)
    assert re.search(r'sms[=":]+\s*"?webhook', server.logs()), server.logs()
    [row] = queue_texts(server, ["+44 7700 900123".replace(" ", "")], code="314159", language="fr")
    [text] = gateway.wait_for(1)
    assert text["shape"] == "webhook" and text["signature_ok"] is True and text["id"] == str(row)
    assert text["to"] == "+447700900123"
    assert text["body"].startswith("314159 est votre code de connexion à Latchkey.")
    assert text["body"].splitlines()[-1] == "@app.example.com #314159"
    wait_for_listing(server, "outbox is empty")


def test_every_queued_text_survives_a_kill_9_mid_delivery_and_none_goes_twice_per_claim(
        start_latchkey, start_sms_gateway, monkeypatch):
    # The gateway records each text, then waits before answering: the kill lands while texts are in flight.
    gateway = start_sms_gateway("--delay", "0.01")
    server = started_then_stopped(start_latchkey, sms=webhook_sms(gateway, monkeypatch), mail=FAST_RETRIES)
    ids = queue_texts(server, numbers(1000))
    assert len(set(ids)) == 1000
    server.start()
    gateway.wait_for(50, timeout=60)
    server.process.send_signal(signal.SIGKILL)
    server.process.wait()
    delivered_before_restart = len(gateway.accepted())
    server.process = None
    server.start()

    wait_for_listing(server, "outbox is empty", timeout=240)
    delivered = [int(text["id"]) for text in gateway.accepted()]
    assert set(delivered) == set(ids), f"missing: {sorted(set(ids) - set(delivered))[:20]}"
    duplicates = len(delivered) - len(set(delivered))
    # At least once, never zero: only the texts in flight at the kill (one per worker) may go twice.
    assert duplicates <= FAST_RETRIES["workers"], f"{duplicates} duplicates ({delivered_before_restart} delivered before the kill)"
    assert delivered_before_restart < len(ids), "the kill came after every delivery; the test proved nothing"
    assert all(text["signature_ok"] for text in gateway.texts())


def test_texts_wait_out_a_gateway_answering_500_and_all_go_after(start_latchkey, start_sms_gateway, monkeypatch):
    gateway = start_sms_gateway("--status", "500")
    server = start_latchkey(sms=webhook_sms(gateway, monkeypatch), mail=FAST_RETRIES)
    ids = queue_texts(server, numbers(30))
    deadline = time.monotonic() + 30
    while len([text for text in gateway.texts() if text["status"] == 500]) < 60:  # every text tried twice, at least
        assert time.monotonic() < deadline, f"{len(gateway.texts())} attempts"
        time.sleep(0.1)
    listing = outbox(server)
    assert listing.count("pending") == 30 and "webhook unavailable: HTTP 500" in listing
    assert "+44********00" in listing and "+447700900000" not in listing, listing
    assert gateway.accepted() == []

    gateway.control(status=0)
    wait_for_listing(server, "outbox is empty", timeout=30)
    assert sorted(int(text["id"]) for text in gateway.accepted()) == ids
    metrics = requests.get(server.url + "/metrics", timeout=10).text
    assert 'latchkey_texts_total{outcome="sent"} 30' in metrics
    assert re.search(r'latchkey_texts_total\{outcome="retried"\} \d{2,}', metrics), metrics


def test_twilio_gets_its_form_and_a_number_it_refuses_is_given_up(start_latchkey, start_sms_gateway, tmp_path):
    gateway = start_sms_gateway("--invalid-number", "+447700900999")
    server = start_latchkey(sms=twilio_sms(gateway, tmp_path / "twilio-token"), mail=FAST_RETRIES)
    queue_texts(server, ["+447700900123", "+447700900999"], code="271828")
    [text] = gateway.wait_for(1)
    assert text["shape"] == "twilio" and text["signature_ok"] is True and text["from"] == TWILIO_FROM
    assert text["to"] == "+447700900123" and text["body"].endswith("\n@127.0.0.1 #271828")
    listing = wait_for_listing(server, "failed")
    assert "twilio refused the text: HTTP 400 (error 21211)" in listing
    assert "+44********99" in listing and "900999" not in listing.replace("+44********99", "")
    time.sleep(1.5)
    assert len([t for t in gateway.texts() if t["to"] == "+447700900999"]) == 1, "a refused number is not tried again"


def test_the_development_default_writes_texts_the_mailbox_shows(start_latchkey):
    server = start_latchkey()
    queue_texts(server, ["+447700900123"], code="161803")
    deadline = time.monotonic() + 15
    while not list((server.directory / "data" / "texts").glob("*.json")):
        assert time.monotonic() < deadline, server.logs()
        time.sleep(0.1)
    page = requests.get(server.url + "/__/dev/mailbox", timeout=10).text
    assert "+447700900123" in page and "161803 is your Latchkey sign-in code." in page and "#161803" in page
