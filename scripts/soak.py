"""Soak test: mixed traffic with abusive clients against a live Latchkey for --duration seconds.

Normal users, each a fresh address from a fresh IP, ask for a sign-in link, read it from the mail (an aiosmtpd sink,
or the file outbox with --mail file), complete the sign-in and refresh. Three abusive clients, one IP each, run
beside them: a sprayer asking links for ever new addresses, a bomber asking links for one victim's address, and a
guesser trying random codes. Latchkey trusts 127.0.0.1 as a proxy, so each client's X-Forwarded-For is its IP.

The report gives, per client and endpoint, the answers (200, TOO_MANY_ATTEMPTS_TRY_LATER, other errors) and
latencies, then checks that every acknowledged link request for a fresh address (normal users and sprayer) was
delivered exactly once. Exits 1 if one is missing or duplicated, on any 5xx or failed connection, or if the server
does not stop cleanly; with --check-limits also if an abuser got past the configured rate limits.
"""

import argparse
import email
import email.policy
import itertools
import json
import math
import os
import re
import secrets
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "e2e"))

import pytest  # noqa: E402
import requests  # noqa: E402

from harness import API_KEY, BINARY, CONTINUE_URL, Latchkey  # noqa: E402
from smtp import SMTPSink  # noqa: E402

RATE_LIMITS = {
    "sendPerEmail": [{"limit": 1, "windowSeconds": 60}, {"limit": 5, "windowSeconds": 3600}, {"limit": 20, "windowSeconds": 86400}],
    "sendPerIP": [{"limit": 10, "windowSeconds": 300}],
    "completePerIP": [{"limit": 30, "windowSeconds": 300}],
    "apiKeyRequestsPerMinute": 600,
}
TOO_MANY = "TOO_MANY_ATTEMPTS_TRY_LATER"
SPRAYER_IP, BOMBER_IP, GUESSER_IP = "203.0.113.10", "203.0.113.20", "203.0.113.30"
VICTIM = "victim@example.org"
MAIL_WAIT = 30  # seconds a normal user waits for a link before giving up on that sign-in


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=60, help="seconds of traffic (default 60)")
    parser.add_argument("--users", type=int, default=4, help="normal users signing in at once (default 4)")
    parser.add_argument("--abuse-rate", type=float, default=0, help="requests per second of each abuser (default 0: flat out)")
    parser.add_argument("--mail", choices=["smtp", "file"], default="smtp", help="mail transport (default smtp, to aiosmtpd)")
    parser.add_argument("--drain", type=float, default=120, help="seconds to wait for outstanding mail afterwards (default 120)")
    parser.add_argument("--rate-limits", type=json.loads,
                        help="rateLimits for the server's configuration, as JSON (default: the server's own defaults, "
                             "which the limit checks assume to be RATE_LIMITS in this script)")
    parser.add_argument("--check-limits", action="store_true", help="fail if an abuser got past the rate limits")
    parser.add_argument("--json", help="also write the summary to this file")
    parser.add_argument("--keep", action="store_true", help="keep the data directory (server log, database, mail)")
    return parser.parse_args()


# --- What happened ---------------------------------------------------------------------------


class Recorder:
    """Every answer, by client kind and endpoint: outcome counts and latencies."""

    def __init__(self):
        self.lock = threading.Lock()
        self.outcomes = defaultdict(Counter)
        self.latencies = defaultdict(list)
        self.missing_retry_after = 0

    def request(self, session, kind, endpoint, ip, **kwargs):
        started = time.monotonic()
        try:
            response = session.post(endpoint_url(session.base, endpoint), params={"key": API_KEY},
                                    headers={"X-Forwarded-For": ip}, timeout=30, **kwargs)
        except requests.RequestException as error:
            self.add(kind, endpoint, f"connection failed: {type(error).__name__}", time.monotonic() - started)
            return None, None
        outcome = classify(response)
        self.add(kind, endpoint, outcome, time.monotonic() - started)
        if outcome == TOO_MANY and "Retry-After" not in response.headers:
            with self.lock:
                self.missing_retry_after += 1
        return response, outcome

    def add(self, kind, endpoint, outcome, seconds):
        with self.lock:
            self.outcomes[(kind, endpoint)][outcome] += 1
            self.latencies[(kind, endpoint)].append(seconds)


def endpoint_url(base, endpoint):
    return f"{base}/v1/{endpoint}"


def classify(response):
    if response.status_code == 200:
        return "200"
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        message = response.text[:60]
    if response.status_code >= 500:
        return f"5xx {response.status_code} {message}"
    return message if message == TOO_MANY else f"{response.status_code} {message}"


class Mailbox:
    """Indexes delivered messages by recipient as they arrive, on a thread of its own."""

    def __init__(self, directory, smtp):
        self.directory = Path(directory)
        self.smtp = smtp
        self.seen = set()
        self.scanning = threading.Lock()
        self.by_recipient = defaultdict(list)
        self.condition = threading.Condition()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stopped.is_set():
            self.scan()
            time.sleep(0.05)

    def scan(self):
        with self.scanning:
            self.scan_once()

    def scan_once(self):
        if not self.directory.is_dir():
            return
        new = []
        for entry in os.scandir(self.directory):
            if entry.name.endswith(".eml") and entry.name not in self.seen:
                self.seen.add(entry.name)
                new.append(Path(entry.path))
        if not new:
            return
        arrivals = []
        for path in new:
            if self.smtp:  # the sink writes the envelope before the message
                recipients = json.loads(path.with_suffix(".json").read_text())["rcpt_tos"]
            else:
                recipients = [email.message_from_bytes(path.read_bytes(), policy=email.policy.default)["To"]]
            arrivals += [(recipient.lower(), path) for recipient in recipients]
        with self.condition:
            for recipient, path in arrivals:
                self.by_recipient[recipient].append((time.monotonic(), path))
            self.condition.notify_all()

    def wait_for(self, address, timeout):
        """(arrival time, path) of the first message to `address`, or None after `timeout` seconds."""
        with self.condition:
            self.condition.wait_for(lambda: self.by_recipient.get(address) or self.stopped.is_set(), timeout)
            messages = self.by_recipient.get(address)
            return messages[0] if messages else None

    def count(self, address):
        with self.condition:
            return len(self.by_recipient.get(address, []))

    def stop(self):
        self.scan()
        self.stopped.set()
        with self.condition:
            self.condition.notify_all()


def code_in(path):
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    text = message.get_body(preferencelist=("plain",)).get_content()
    return re.search(r"oobCode=([A-Za-z0-9_-]+)", text).group(1)


# --- The clients -----------------------------------------------------------------------------


def new_session(server):
    session = requests.Session()
    session.trust_env = False
    session.base = server.url
    return session


def send_body(address):
    return {"requestType": "EMAIL_SIGNIN", "email": address, "continueUrl": CONTINUE_URL, "canHandleCodeInApp": True}


class Soak:
    def __init__(self, server, mailbox, arguments):
        self.server = server
        self.mailbox = mailbox
        self.arguments = arguments
        self.recorder = Recorder()
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.acknowledged = {"normal": [], "sprayer": []}  # fresh addresses whose link request answered 200
        self.bomber_acknowledged = 0
        self.mail_delays = []
        self.guesses_judged = 0  # guesses answered with something other than TOO_MANY_ATTEMPTS_TRY_LATER
        self.crashes = []  # clients that died of an exception
        self.ips = (f"10.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}" for n in itertools.count(1))
        self.ip_lock = threading.Lock()

    def next_ip(self):
        with self.ip_lock:
            return next(self.ips)

    def normal_user(self, number):
        session = new_session(self.server)
        record = self.recorder.request
        for n in itertools.count():
            if self.stop.is_set():
                return
            ip, address = self.next_ip(), f"user{number}-{n}@example.com"
            _, outcome = record(session, "normal", "accounts:sendOobCode", ip, json=send_body(address))
            if outcome != "200":
                time.sleep(0.2)
                continue
            acknowledged = time.monotonic()
            with self.lock:
                self.acknowledged["normal"].append(address)
            arrival = None
            while arrival is None and not self.stop.is_set() and time.monotonic() - acknowledged < MAIL_WAIT:
                arrival = self.mailbox.wait_for(address, 0.5)
            if arrival is None:
                continue  # counted as missing at the end unless it turns up while draining
            with self.lock:
                self.mail_delays.append(arrival[0] - acknowledged)
            response, outcome = record(session, "normal", "accounts:signInWithEmailLink", ip,
                                       json={"email": address, "oobCode": code_in(arrival[1])})
            if outcome == "200":
                record(session, "normal", "token", ip,
                       data={"grant_type": "refresh_token", "refresh_token": response.json()["refreshToken"]})

    def paced(self):
        """Yields until the end of the run, at --abuse-rate per second when given."""
        interval = 1 / self.arguments.abuse_rate if self.arguments.abuse_rate > 0 else 0
        next_time = time.monotonic()
        while not self.stop.is_set():
            yield
            if interval:
                next_time += interval
                time.sleep(max(0, next_time - time.monotonic()))

    def sprayer(self):
        session = new_session(self.server)
        for n, _ in enumerate(self.paced()):
            address = f"spray{n}@example.net"
            _, outcome = self.recorder.request(session, "sprayer", "accounts:sendOobCode", SPRAYER_IP, json=send_body(address))
            if outcome == "200":
                with self.lock:
                    self.acknowledged["sprayer"].append(address)

    def bomber(self):
        session = new_session(self.server)
        for _ in self.paced():
            _, outcome = self.recorder.request(session, "bomber", "accounts:sendOobCode", BOMBER_IP, json=send_body(VICTIM))
            if outcome == "200":
                with self.lock:
                    self.bomber_acknowledged += 1

    def guesser(self):
        session = new_session(self.server)
        for _ in self.paced():
            _, outcome = self.recorder.request(session, "guesser", "accounts:signInWithEmailLink", GUESSER_IP,
                                               json={"email": VICTIM, "oobCode": secrets.token_urlsafe(32)})
            if outcome is not None and outcome != TOO_MANY:
                with self.lock:
                    self.guesses_judged += 1

    def guarded(self, client, *arguments):
        try:
            client(*arguments)
        except Exception as error:
            with self.lock:
                self.crashes.append(f"{client.__name__}: {type(error).__name__}: {error}")

    def run(self):
        threads = [threading.Thread(target=self.guarded, args=(self.normal_user, n)) for n in range(self.arguments.users)]
        threads += [threading.Thread(target=self.guarded, args=(client,)) for client in (self.sprayer, self.bomber, self.guesser)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        self.stop.wait(self.arguments.duration)
        self.stop.set()
        for thread in threads:
            thread.join()
        return time.monotonic() - started


# --- The report ------------------------------------------------------------------------------


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))]


def milliseconds(values):
    if not values:
        return {}
    return {"p50_ms": round(percentile(values, 0.5) * 1000, 1), "p99_ms": round(percentile(values, 0.99) * 1000, 1),
            "max_ms": round(max(values) * 1000, 1)}


def limit_bound(limits, seconds):
    """The most a limiter with these windows may allow in `seconds`, whether its windows are fixed or sliding."""
    return min(rule["limit"] * (math.ceil(seconds / rule["windowSeconds"]) + 1) for rule in limits)


def drain(soak, mailbox, seconds):
    """Waits until every acknowledged fresh address has mail, for at most `seconds`; returns the missing ones."""
    deadline = time.monotonic() + seconds
    while True:
        missing = {kind: [a for a in addresses if mailbox.count(a) == 0] for kind, addresses in soak.acknowledged.items()}
        if not any(missing.values()) or time.monotonic() > deadline:
            time.sleep(1)  # a little longer, so that duplicates have a chance to show
            mailbox.scan()
            return {kind: [a for a in addresses if mailbox.count(a) == 0] for kind, addresses in soak.acknowledged.items()}
        time.sleep(0.2)


def main():
    arguments = parse_arguments()
    directory = Path(tempfile.mkdtemp(prefix="latchkey-soak-"))
    try:
        sink = None
        if arguments.mail == "smtp":
            sink = SMTPSink(directory / "sink", None, "--lifetime", str(arguments.duration + arguments.drain + 600)).start()
            mail = {"transport": "smtp", "from": "no-reply@example.com", "smtp": {"url": f"smtp://localhost:{sink.port}", "tls": "none"}}
            mail_directory = sink.directory
        else:
            mail = {"transport": "file", "file": {"directory": "data/outbox"}, "from": "no-reply@example.com"}
            mail_directory = directory / "latchkey" / "data" / "outbox"
        limits = {"rateLimits": arguments.rate_limits} if arguments.rate_limits else {}
        server = Latchkey(directory / "latchkey", mode="production", logLevel="info", mail=mail, **limits)
        server.config["server"]["trustedProxies"] = ["127.0.0.1/32"]
        if not arguments.rate_limits:
            server.config.pop("rateLimits")  # the harness turns limits off for tests; the soak wants the server's defaults
        (server.directory / "latchkey.json").write_text(json.dumps(server.config, indent=2))
        failures = []
        try:
            server.start()
            mailbox = Mailbox(mail_directory, smtp=sink is not None)
            soak = Soak(server, mailbox, arguments)
            print(f"soak: {arguments.duration:.0f} s against {BINARY}, {arguments.users} normal users, 3 abusers, "
                  f"mail via {arguments.mail}", file=sys.stderr)
            elapsed = soak.run()
            ready = requests.get(server.url + "/readyz", timeout=10).status_code
            missing = drain(soak, mailbox, arguments.drain)
            mailbox.stop()
        finally:
            try:
                server.stop()
            except (Exception, pytest.fail.Exception) as error:
                failures.append(f"the server did not stop cleanly: {str(error)[:500]}")
                server.kill()
            if sink:
                sink.stop()
        summary = report(soak, mailbox, arguments, elapsed, ready, missing, failures, sink is not None)
    finally:
        if arguments.keep:
            print(f"soak: data kept in {directory}", file=sys.stderr)
        else:
            shutil.rmtree(directory, ignore_errors=True)
    if arguments.json:
        Path(arguments.json).write_text(json.dumps(summary, indent=2))
    sys.exit(1 if summary["failures"] else 0)


def report(soak, mailbox, arguments, elapsed, ready, missing, failures, smtp):
    recorder = soak.recorder
    limits = {**RATE_LIMITS, **(arguments.rate_limits or {})}
    requests_total = sum(sum(counts.values()) for counts in recorder.outcomes.values())
    rows = []
    for (kind, endpoint), counts in sorted(recorder.outcomes.items()):
        rows.append({"client": kind, "endpoint": endpoint, "requests": sum(counts.values()), "outcomes": dict(counts.most_common()),
                     **milliseconds(recorder.latencies[(kind, endpoint)])})
    by_endpoint = defaultdict(list)
    for (kind, endpoint), values in recorder.latencies.items():
        by_endpoint[endpoint] += values

    duplicates = {kind: [a for a in addresses if mailbox.count(a) > 1] for kind, addresses in soak.acknowledged.items()}
    delivered = {kind: len(addresses) - len(missing[kind]) for kind, addresses in soak.acknowledged.items()}
    for kind in soak.acknowledged:
        if missing[kind]:
            failures.append(f"{len(missing[kind])} acknowledged {kind} link request(s) never delivered, e.g. {missing[kind][:3]}")
        if duplicates[kind]:
            failures.append(f"{len(duplicates[kind])} {kind} link request(s) delivered more than once, e.g. {duplicates[kind][:3]}")
    for row in rows:
        for outcome, count in row["outcomes"].items():
            if outcome.startswith(("5xx", "connection failed")):
                failures.append(f"{count} × {outcome} ({row['client']} {row['endpoint']})")
    failures += [f"a client crashed: {crash}" for crash in soak.crashes]
    if ready != 200:
        failures.append(f"/readyz answered {ready} after the run")

    victim_mail = mailbox.count(VICTIM)
    sprayer_acknowledged = len(soak.acknowledged["sprayer"])
    checks = [  # what the rate limits should have held to
        ("sprayer links acknowledged", sprayer_acknowledged, limit_bound(limits["sendPerIP"], elapsed)),
        ("bomber mails delivered to the victim", victim_mail, limit_bound(limits["sendPerEmail"], elapsed)),
        ("guesser codes judged", soak.guesses_judged, limit_bound(limits["completePerIP"], elapsed)),
    ]
    exceeded = [f"{what}: {value} > {bound}" for what, value, bound in checks if value > bound]
    if arguments.check_limits:
        failures += [f"rate limit not held: {line}" for line in exceeded]

    summary = {
        "binary": str(BINARY), "seconds": round(elapsed, 1), "requests": requests_total,
        "requests_per_second": round(requests_total / elapsed, 1),
        "by_client": rows,
        "by_endpoint": {endpoint: {"requests": len(values), **milliseconds(values)} for endpoint, values in sorted(by_endpoint.items())},
        "mail": {
            "normal_acknowledged": len(soak.acknowledged["normal"]), "normal_delivered": delivered["normal"],
            "sprayer_acknowledged": sprayer_acknowledged, "sprayer_delivered": delivered["sprayer"],
            "bomber_acknowledged": soak.bomber_acknowledged, "victim_mail_delivered": victim_mail,
            "duplicates_detectable": smtp,
            "link_delay": milliseconds(soak.mail_delays),
        },
        "rate_limits": {"checks": [{"what": w, "value": v, "at_most": b} for w, v, b in checks], "exceeded": exceeded,
                        "too_many_without_retry_after": recorder.missing_retry_after},
        "failures": failures,
    }
    print_report(summary)
    return summary


def print_report(summary):
    print(f"\n{summary['requests']} requests in {summary['seconds']} s ({summary['requests_per_second']}/s) against {summary['binary']}\n")
    print(f"{'client':8} {'endpoint':30} {'requests':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  outcomes")
    for row in summary["by_client"]:
        outcomes = ", ".join(f"{name}: {count}" for name, count in row["outcomes"].items())
        print(f"{row['client']:8} {row['endpoint']:30} {row['requests']:>8} {row.get('p50_ms', 0):>8} {row.get('p99_ms', 0):>8} "
              f"{row.get('max_ms', 0):>8}  {outcomes}")
    print()
    for endpoint, row in summary["by_endpoint"].items():
        print(f"{'all':8} {endpoint:30} {row['requests']:>8} {row['p50_ms']:>8} {row['p99_ms']:>8} {row['max_ms']:>8}")
    mail = summary["mail"]
    delay = mail["link_delay"]
    print(f"\nmail: normal users {mail['normal_delivered']}/{mail['normal_acknowledged']} acknowledged links delivered "
          f"(delay p50 {delay.get('p50_ms', '-')} ms, p99 {delay.get('p99_ms', '-')} ms, max {delay.get('max_ms', '-')} ms); "
          f"sprayer {mail['sprayer_delivered']}/{mail['sprayer_acknowledged']}; "
          f"bomber {mail['bomber_acknowledged']} acknowledged, {mail['victim_mail_delivered']} delivered to the victim"
          + ("" if mail["duplicates_detectable"] else " (file transport: duplicates not detectable)"))
    limits = summary["rate_limits"]
    print("rate limits: " + "; ".join(f"{c['what']} {c['value']} (at most {c['at_most']})" for c in limits["checks"])
          + f"; {limits['too_many_without_retry_after']} TOO_MANY answers without Retry-After")
    for line in limits["exceeded"]:
        print(f"  not held: {line}")
    if summary["failures"]:
        print("\nFAILED:")
        for failure in summary["failures"]:
            print(f"  - {failure}")
    else:
        print("\nOK: every acknowledged link delivered exactly once, no 5xx, no failed connection")


if __name__ == "__main__":
    main()
