"""Latchkey's benchmark (issue #8): throughput, latency, memory and start-up of a release build on this machine.

Started by scripts/bench, which installs wrk and smtp-sink and builds the release binary first. A temporary
directory holds the configuration, the SQLite database, the signing keys and wrk's queue files (codes, tokens).

Scenarios, each a warm-up and then a measured wrk run (2 threads, 64 connections, loopback):
  baseline  GET /healthz, the ceiling every other scenario is compared with;
  send      accounts:sendOobCode with a new address per request, outbox workers paused (mail.workers 0); then the
            same at half of the measured throughput, paced in Lua (see scripts/bench-lua/send.lua), for its p99;
  sms       accounts:sendVerificationCode with a new number per request, queued only as send is (its texts wait in the
            same paused outbox);
  complete  accounts:signInWithEmailLink with codes an admin generated beforehand (account creation + RS256 token);
  refresh   token refresh, each request with an unused refresh token (they rotate);
  deliver   the outbox the send scenario filled, delivered to Postfix's smtp-sink over reused SMTP connections;
  ceiling   the store's own ceiling: latchkey-store-bench replays exactly the store calls of one send and of one
            completion (no HTTP, JSON or signing) from as many tasks as wrk has connections, with the server's
            configuration on a fresh database; send and complete are reported as a share of it.
With --es256, complete runs once more with tokens.algorithm ES256.

With --growth, instead: send, complete and refresh on the empty database; then the database filled with --sign-ins
completed sign-ins and --refreshes refreshes (rows written straight into the schema the binary migrated), its size,
`latchkey sweep` (retention), its size again, and send, complete and refresh once more, as a share of the empty rates.

With --store postgres, instead: a throwaway PostgreSQL server (scripts/postgres, fsync on), and for each count of
--instances a fresh database that many instances share (one server secret, one set of signing keys), loaded with
send, complete and refresh by one wrk process per instance at once (no proxy to take CPU); then pgbench's ceiling:
scripts/bench-pg/send.sql and complete.sql, exactly the statements of one send and one completion as PostgresStore
runs them, at wrk's client count on another fresh database. Latchkey is reported as a share of that ceiling.

Every non-2xx answer, socket error or timeout fails its scenario, and any failure makes the exit status non-zero.
Results go to bench/results/ as JSON and markdown; a run of every SQLite scenario also updates BENCHMARKS.md.
"""

import argparse
import base64
import bisect
import datetime
import http.client
import json
import math
import os
import platform
import random
import re
import resource
import secrets
import shlex
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BINARY = Path(os.environ.get("LATCHKEY_BIN", REPO / ".build-release" / "release" / "latchkey"))
STORE_BENCH = Path(os.environ.get("LATCHKEY_STORE_BENCH_BIN", REPO / ".build-release" / "release" / "latchkey-store-bench"))
LUA = REPO / "scripts" / "bench-lua"
PGBENCH_SCRIPTS = REPO / "scripts" / "bench-pg"
POSTGRES_SCRIPT = REPO / "scripts" / "postgres"
RESULTS = REPO / "bench" / "results"
BENCHMARKS = REPO / "BENCHMARKS.md"
SMTP_SINK = "/usr/sbin/smtp-sink"

SCENARIOS = ("baseline", "send", "sms", "complete", "refresh", "deliver", "ceiling")
# refresh needs complete's tokens, deliver send's mail, ceiling the rates it is the ceiling of
PREREQUISITES = {"refresh": ("complete",), "deliver": ("send",), "ceiling": ("send", "complete")}

API_KEY = "bench-api-key"
CONTINUE_URL = "https://app.example.com/done"
THREADS = 2
START_TIMEOUT = 60  # seconds until /readyz must answer
STOP_TIMEOUT = 30  # seconds a SIGTERM may take
CODE_MARGIN = 1.4  # codes generated per code the measured run is expected to use

# (key, description, unit, comparison, threshold): the issue's targets, checked on every run.
TARGETS = [
    ("send_vs_baseline", "send ≥ 50% of baseline", "%", ">=", 50),
    ("complete_vs_rsa", "complete (RS256) ≥ 80% of the RSA-2048 signing rate", "%", ">=", 80),
    ("complete_es256_vs_baseline", "complete (ES256) ≥ 35% of baseline", "%", ">=", 35),
    ("send_half_load_p99_ms", "p99 of send at half its maximum throughput ≤ 5 ms", "ms", "<=", 5),
    ("deliver_per_second", "deliver ≥ 1000 messages/s", "msg/s", ">=", 1000),
    ("idle_rss_mb", "idle RSS ≤ 40 MB", "MB", "<=", 40),
    ("peak_rss_mb", "peak RSS ≤ 150 MB", "MB", "<=", 150),
    ("startup_seconds", "start-up to ready ≤ 0.5 s", "s", "<=", 0.5),
    ("send_vs_ceiling", "send ≥ 70% of the store's ceiling for a send (an aim, issue #15)", "%", ">=", 70),
    ("complete_vs_ceiling", "complete ≥ 70% of the store's ceiling for a completion (an aim, issue #15)", "%", ">=", 70),
]
GROWTH_TARGET = 90  # % of the empty database's rate that send, complete and refresh keep after growth (issue #15)

# --store postgres: Latchkey's scenarios on PostgreSQL, and pgbench's ceiling for a send and a completion.
POSTGRES_SCENARIOS = ("send", "complete", "refresh", "ceiling")
POSTGRES_PREREQUISITES = {"refresh": ("complete",)}
POSTGRES_CEILING_AIM = 60  # % of pgbench's ceiling Latchkey aims for (issue #16)
# RateLimits.standard's per-address send windows (limit, seconds), which the benchmark's configuration keeps.
SEND_PER_EMAIL_WINDOWS = ((1, 60), (5, 3600), (20, 86_400))
PGBENCH_WARMUP_RATE = 5000  # completions per second the warm-up's planted codes are made for; its real rate sizes the rest
DEFAULT_LETTER_BYTES = 400  # a sealed letter's size when no send ran to measure it


class BenchError(Exception):
    """A problem that stops the whole benchmark (the server does not start, a tool is missing)."""


# --- The server ---------------------------------------------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class CPUMeter:
    """CPU cores used during an interval by the servers, by wrk or pgbench (the only children that end in it), by
    PostgreSQL when one is given, and by everything else.

    The machine may be shared: "other" shows how much of it something else took while a scenario ran.
    """

    TICKS = os.sysconf("SC_CLK_TCK")

    def __init__(self, *pids, postgres=None):
        self.pids = pids
        self.postgres = postgres
        self.start = self.snapshot()
        self.io_start = self.io()

    def io(self):
        """The servers' write calls and bytes written so far (/proc/PID/io: syscw, wchar): database files and sockets."""
        calls = written = 0
        for pid in self.pids:
            fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
            calls, written = calls + int(fields["syscw"]), written + int(fields["wchar"])
        return calls, written

    def writes(self, requests):
        """Write calls and kilobytes per request since the meter was made: WAL frames, checkpoints and the answers."""
        (calls0, bytes0), (calls1, bytes1) = self.io_start, self.io()
        if not requests:
            return None
        return {"calls": round((calls1 - calls0) / requests, 1), "kb": round((bytes1 - bytes0) / requests / 1024, 1)}

    def snapshot(self):
        server = sum(sum(process_times(pid)[:2]) for pid in self.pids) / self.TICKS  # utime, stime
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        machine = (sum(fields[:8]) - fields[3] - fields[4]) / self.TICKS  # all but idle and iowait, without guest
        database = self.postgres.cpu_seconds() if self.postgres else 0.0
        return time.monotonic(), server, children.ru_utime + children.ru_stime, machine, database

    def cores(self, settle=None):
        """server (all of them), wrk (or pgbench), postgres (with one) and other cores since the meter was made.

        `settle` runs once the interval's end is read, and PostgreSQL's count is read again after it, for time that
        shows only later: the backends of a pgbench run exit with it, and their time reaches the postmaster's once it
        has reaped them.
        """
        end = self.snapshot()
        if settle:
            settle()
            end = (*end[:4], self.postgres.cpu_seconds())  # only PostgreSQL's count grows meanwhile
        (t0, server0, wrk0, machine0, database0), (t1, server1, wrk1, machine1, database1) = self.start, end
        elapsed = t1 - t0
        server, wrk, database = (server1 - server0) / elapsed, (wrk1 - wrk0) / elapsed, (database1 - database0) / elapsed
        cores = {"server": round(server, 2), "wrk": round(wrk, 2)}
        if self.postgres:
            cores["postgres"] = round(database, 2)
        cores["other"] = round(max(0.0, (machine1 - machine0) / elapsed - server - wrk - database), 2)
        return cores


def process_times(pid):
    """utime, stime, cutime and cstime of a process, in clock ticks (/proc/PID/stat fields 14 to 17)."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(stat[11]), int(stat[12]), int(stat[13]), int(stat[14])


class Server:
    """One latchkey process on the benchmark's directory; every start reuses the same database and keys."""

    def __init__(self, bench, name, workers, smtp_port, algorithm=None, key_directory="keys", max_attempts=None, storage=None):
        self.bench = bench
        self.name = name
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config_path = bench.directory / f"{name}.json"
        self.log_path = bench.directory / f"{name}.log"
        self.process = None
        sqlite = {"path": str(bench.database)}
        if bench.synchronous:
            sqlite["synchronous"] = bench.synchronous
        tokens = {"keyDirectory": str(bench.directory / key_directory)}
        if algorithm:
            tokens["algorithm"] = algorithm
        mail = {
            "transport": "smtp", "from": "no-reply@example.com", "workers": workers,
            "smtp": {"url": f"smtp://127.0.0.1:{smtp_port}", "tls": "none", "timeoutSeconds": 10},
        }
        if max_attempts:
            mail["maxAttempts"] = max_attempts
        self.config = {
            "projectId": "latchkey-bench",
            "publicURL": self.url,
            "mode": "production",
            "logLevel": bench.arguments.log_level,
            "apiKeys": [API_KEY],
            "authorizedDomains": ["app.example.com"],
            "templatesDirectory": str(REPO / "templates"),
            "openAPIDocument": str(REPO / "openapi.json"),
            "server": {"host": "127.0.0.1", "port": self.port},
            "storage": storage or {"sqlite": sqlite},
            # Long enough that no code generated before a run expires during it.
            "emailLink": {"codeLifetimeSeconds": 3600},
            "tokens": tokens,
            "mail": mail,
            # All load comes from one address: keep the default windows (and the counting they cost) but raise the
            # limits out of reach. Older builds ignore the section.
            "rateLimits": {
                "sendPerIP": [{"limit": 1_000_000, "windowSeconds": 300}],
                "completePerIP": [{"limit": 1_000_000, "windowSeconds": 300}],
                # As many windows as the texts' defaults, so a text costs the counting it costs in service.
                "textPerNumber": [{"limit": 1_000_000, "windowSeconds": seconds} for seconds in (60, 3600, 86400)],
                "textPerIP": [{"limit": 1_000_000, "windowSeconds": seconds} for seconds in (300, 86400)],
                "textPerCallingCode": [{"limit": 1_000_000, "windowSeconds": seconds} for seconds in (3600, 86400)],
                "textBudget": [{"limit": 1_000_000, "windowSeconds": 86400}],
                "apiKeyRequestsPerMinute": 10_000_000,
            },
        }
        if bench.arguments.client_addresses > 1:
            # wrk names each request's client in X-Forwarded-For (common.lua); the server believes its loopback peer.
            self.config["server"]["trustedProxies"] = ["127.0.0.1/32"]
        self.config_path.write_text(json.dumps(self.config, indent=2))

    def start(self, initialize=True):
        """Starts the process and returns the seconds from spawning it to its first 200 on /readyz.

        Instances sharing a PostgreSQL database start with initialize False: the benchmark runs `latchkey init` once
        for the database (Bench.initialize).
        """
        if initialize:
            # Production mode needs its secret and keys made first; builds before `latchkey init` made them at start-up.
            subprocess.run(
                [str(BINARY), "init", "--config", str(self.config_path)], cwd=self.bench.directory, env=self.bench.server_environment(),
                stdin=subprocess.DEVNULL, capture_output=True,
            )
        with open(self.log_path, "ab") as log:
            started = time.monotonic()
            self.process = subprocess.Popen(
                [str(BINARY), "serve", "--config", str(self.config_path)], cwd=self.bench.directory,
                env=self.bench.server_environment(), stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            )
        deadline = started + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code, self.process = self.process.returncode, None
                raise BenchError(f"latchkey ({self.name}) exited with code {code} while starting:\n{self.logs()}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                connection.request("GET", "/readyz")
                if connection.getresponse().status == 200:
                    elapsed = time.monotonic() - started
                    connection.close()
                    return elapsed
                connection.close()
            except OSError:
                pass
            time.sleep(0.002)
        self.kill()
        raise BenchError(f"latchkey ({self.name}) was not ready within {START_TIMEOUT} s:\n{self.logs()}")

    def memory(self):
        """VmRSS, VmHWM (its peak), RssAnon (heap, stacks) and RssFile (mapped code and data) of the process, in MB."""
        values = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                values[key] = int(value.split()[0]) / 1024
        return values

    def stop(self):
        """SIGTERM and a bounded wait; returns the peak RSS in MB read just before."""
        process = self.process
        if process is None:
            return None
        if process.poll() is not None:
            self.process = None
            raise BenchError(f"latchkey ({self.name}) exited with code {process.returncode}:\n{self.logs()}")
        peak = self.memory()["VmHWM"]
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise BenchError(f"latchkey ({self.name}) ignored SIGTERM for {STOP_TIMEOUT} s:\n{self.logs()}")
        self.process = None
        self.bench.peak_rss_mb = max(self.bench.peak_rss_mb or 0, peak)
        return peak

    def kill(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def logs(self):
        return self.log_path.read_text(errors="replace")[-4000:]

    def post(self, path, body, admin=False):
        """One JSON request outside wrk (checks before a scenario); returns the status and the decoded answer."""
        headers = {"Content-Type": "application/json"}
        if admin:
            headers["Authorization"] = f"Bearer {self.bench.admin_token}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("POST", f"/v1/{path}?key={API_KEY}", json.dumps(body), headers)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        try:
            return response.status, json.loads(data or b"{}")
        except ValueError:
            return response.status, {"raw": data[:300].decode(errors="replace")}


# --- PostgreSQL (--store postgres) --------------------------------------------------------------------------------


class Postgres:
    """The throwaway PostgreSQL server of --store postgres, started by scripts/postgres on a loopback port.

    scripts/postgres starts the tests' server without fsync, since it holds nothing worth keeping. The benchmark
    turns fsync back on (POSTGRES_OPTIONS, appended to its options), because the issue measures commits that reach
    the disk: with fsync off, synchronous_commit on only waits for a write into the page cache. --pg-setting
    overrides this or sets anything else; what is in force is read back with SHOW.
    """

    SHOWN = (
        "server_version", "shared_buffers", "synchronous_commit", "fsync", "full_page_writes", "wal_level", "wal_sync_method",
        "wal_buffers", "wal_writer_delay", "commit_delay", "max_wal_size", "checkpoint_timeout", "max_connections",
        "default_transaction_isolation",
    )

    def __init__(self, settings):
        # Outside the benchmark's directory (root's, mode 0700): the server runs as the postgres user, who must enter it.
        self.directory = Path(tempfile.mkdtemp(prefix="latchkey-bench-pg-"))
        self.port = free_port()
        self.settings = settings
        self.bin = postgres_bin()
        self.postmaster = None

    def start(self):
        options = " ".join(f"-c {name}={value}" for name, value in self.settings.items())
        result = subprocess.run(
            [str(POSTGRES_SCRIPT), "start", str(self.directory), str(self.port)], env=dict(os.environ, POSTGRES_OPTIONS=options),
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180,
        )
        if result.returncode != 0:
            log = self.directory / "server.log"
            raise BenchError(f"scripts/postgres start failed: {result.stderr.strip()}\n{log.read_text()[-2000:] if log.exists() else ''}")
        self.postmaster = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])

    def stop(self, keep=False):
        """Stops the server (scripts/postgres stop, immediate: nothing in it is kept) and removes its directory."""
        if self.postmaster is not None:
            subprocess.run([str(POSTGRES_SCRIPT), "stop", str(self.directory)], stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
            self.postmaster = None
        if not keep:
            subprocess.run(["rm", "-rf", str(self.directory)], check=False)

    def connection(self, database):
        return ["-h", "127.0.0.1", "-p", str(self.port), "-U", "latchkey", "-d", database]

    def psql(self, *statements, database="postgres"):
        """Runs each statement with psql (the trusted role latchkey over TCP) and returns the unaligned output lines."""
        command = [str(self.bin / "psql"), *self.connection(database), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"]
        for statement in statements:
            command += ["-c", statement]
        result = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
        if result.returncode != 0:
            raise BenchError(f"psql failed on {statements[0][:100]!r}: {result.stderr.strip()}")
        return result.stdout.splitlines()

    def shown(self):
        """The settings in force, as SHOW tells them (with their units)."""
        return dict(zip(self.SHOWN, self.psql(*(f"SHOW {name}" for name in self.SHOWN))))

    def wait_for_backends(self, database, timeout=10):
        """Waits until no server process serves `database` any more (their titles name it) and none is left for the
        postmaster to reap, so that their CPU has reached its cutime/cstime."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(
            state == "Z" or title.startswith(f"postgres: latchkey {database} ") for state, title in self.children()
        ):
            time.sleep(0.05)

    def children(self):
        """(state, title) of the postmaster's child processes."""
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) != self.postmaster:
                    continue
                title = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            found.append((stat[0], title))
        return found

    def cpu_seconds(self):
        """CPU seconds every server process has used: the postmaster, its live children (backends, WAL writer,
        checkpointer, autovacuum…) and the children it has reaped, whose time the kernel adds to its cutime/cstime."""
        total = sum(process_times(self.postmaster))
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # ended meanwhile; its time is in the postmaster's cutime/cstime
            if int(stat[1]) == self.postmaster:
                total += int(stat[11]) + int(stat[12])
        return total / CPUMeter.TICKS


def postgres_bin():
    """The newest installed PostgreSQL's bin directory, the one scripts/postgres runs (psql and pgbench from the same)."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: [int(part) for part in re.findall(r"\d+", path.parent.name)])
    if not candidates or not (candidates[-1] / "pgbench").exists():
        raise BenchError("PostgreSQL or pgbench is not installed (scripts/bench installs postgresql and postgresql-contrib for --store postgres)")
    return candidates[-1]


class PgbenchRun:
    """One pgbench run's numbers: its own count and rate, and latencies from its per-transaction log (-l)."""

    def __init__(self, output, log_files, returncode):
        self.output = output
        self.returncode = returncode

        def number(pattern, default=0.0):
            match = re.search(pattern, output)
            return float(match.group(1)) if match else default

        self.requests = int(number(r"number of transactions actually processed: (\d+)"))
        self.failed = int(number(r"number of failed transactions: (\d+)"))
        self.rps = number(r"tps = ([\d.]+) \(without initial connection time\)")
        histogram = {}
        for path in log_files:
            for line in path.read_text().splitlines():
                fields = line.split()
                if len(fields) > 2 and fields[2].isdigit():  # client, transaction, latency in µs (or "failed"), …
                    histogram[int(fields[2])] = histogram.get(int(fields[2]), 0) + 1
        self.p50_us, self.p99_us = histogram_percentile(histogram, 50), histogram_percentile(histogram, 99)
        self.max_us = max(histogram, default=0)
        self.exhausted = "expected one row, got 0" in output

    def problem(self):
        if self.exhausted:
            return "a client ran out of planted codes (\\gset found no row)"
        errors = [line for line in self.output.splitlines() if "error" in line.lower()]
        if self.returncode != 0 or self.failed or errors:
            return f"pgbench exited with {self.returncode}, {self.failed} failed transactions; {' '.join(errors)[:400]}"
        if self.requests == 0:
            return "no transaction completed"
        return None


# --- wrk ----------------------------------------------------------------------------------------------------------


class Run:
    """One wrk run's numbers, as common.lua's done() reports them."""

    def __init__(self, result):
        self.__dict__.update(result)
        self.rps = self.requests / (self.duration_us / 1e6) if self.duration_us else 0
        self.errors = self.non2xx + self.connect_errors + self.read_errors + self.write_errors + self.timeouts

    def problem(self):
        """Why this run fails its scenario, or None."""
        if self.exhausted:
            also = f"; also {self.errors} errors, first: {self.sample}" if self.errors else ""
            return f"ran out of pre-generated codes or tokens ({self.exhausted} requests wanted one){also}"
        if self.errors:
            socket_errors = self.connect_errors + self.read_errors + self.write_errors
            first = f"; first: {self.sample}" if self.sample else ""
            return f"{self.non2xx} non-2xx, {socket_errors} socket errors, {self.timeouts} timeouts{first}"
        if self.requests == 0:
            return "no request completed"
        return None


class Failed(Exception):
    """A scenario failed; the message says why. The benchmark goes on with the next one."""


def scenario_result(name, run, baseline=None, **extra):
    result = {
        "scenario": name, "requests_per_second": round(run.rps, 1), "p50_ms": run.p50_us / 1000,
        "p99_ms": run.p99_us / 1000, "max_ms": run.max_us / 1000, "errors": run.errors, "requests": run.requests,
        "status": "ok", "cpu_cores": getattr(run, "cpu", None), "writes_per_request": getattr(run, "writes", None),
    }
    if baseline:
        result["vs_baseline"] = round(run.rps / baseline, 3)
    if getattr(run, "parts", None):
        result["per_instance"] = [
            {"requests_per_second": round(part.rps, 1), "p50_ms": part.p50_us / 1000, "p99_ms": part.p99_us / 1000, "errors": part.errors}
            for part in run.parts
        ]
    result.update(extra)
    problem = run.problem()
    if problem:
        result.update(status="FAILED", reason=problem)
    return result


def merge_runs(runs):
    """One Run for wrk processes that ran at the same time (one per instance): requests and errors summed,
    throughput the sum of each process's, the mean weighted by requests, and p50/p99 of all requests together from
    the processes' latency distributions (merged_percentile), not an average of their percentiles."""
    fields = ("requests", "connect_errors", "read_errors", "write_errors", "timeouts", "non2xx", "exhausted")
    merged = {field: sum(getattr(run, field) for run in runs) for field in fields}
    distributions = [(run.requests, run.distribution) for run in runs if run.requests and run.distribution]
    total = sum(run.requests for run in runs)
    merged.update(
        duration_us=max(run.duration_us for run in runs), p50_us=merged_percentile(distributions, 50),
        p99_us=merged_percentile(distributions, 99), max_us=max(run.max_us for run in runs),
        mean_us=sum(run.mean_us * run.requests for run in runs) / total if total else 0,
        sample=next((run.sample for run in runs if run.sample), ""),
    )
    run = Run(merged)
    run.rps = sum(part.rps for part in runs)  # each process ran for its own -d, all at once
    run.parts = runs
    return run


def merged_percentile(distributions, percent):
    """The `percent` percentile of several processes' requests together, from each one's (requests, [(percent, µs)])
    distribution as common.lua writes it: each process's share of requests at or below a latency is interpolated
    linearly between its grid points (half a percent apart, finer above 99.5), the shares are weighted by requests,
    and the latency where the total reaches `percent` is interpolated the same way. Exact at the grid's resolution."""
    if not distributions:
        return 0
    total = sum(requests for requests, _ in distributions)

    def share(points, latency):
        """Percent of one process's requests at or below `latency`."""
        below = [(p, value) for p, value in points if value <= latency]
        above = next(((p, value) for p, value in points if value > latency), None)
        if not below:
            return 0.0
        if above is None:
            return 100.0
        (p0, x0), (p1, x1) = below[-1], above
        return p0 + (p1 - p0) * (latency - x0) / (x1 - x0)

    previous = None
    for latency in sorted({value for _, points in distributions for _, value in points}):
        reached = sum(requests * share(points, latency) for requests, points in distributions) / total
        if reached >= percent:
            if previous is None or reached == previous[1]:
                return latency
            x0, p0 = previous
            return round(x0 + (latency - x0) * (percent - p0) / (reached - p0))
        previous = (latency, reached)
    return max(value for _, points in distributions for _, value in points)


def histogram_percentile(histogram, p):
    """The percentile of {microseconds: count} by wrk's rule (stats_percentile), for pgbench's per-transaction log: the
    first value whose running count reaches the rank."""
    total = sum(histogram.values())
    if not total:
        return 0
    rank, running = math.floor(p / 100 * total + 0.5 + 0.5), 0  # wrk: round(p / 100 * total + 0.5), C rounding half up
    for value in sorted(histogram):
        running += histogram[value]
        if running >= rank:
            return value
    return max(histogram)


def read_distribution(path):
    """The "percent µs" lines common.lua's done() writes with BENCH_PERCENTILES, in order."""
    if not path.exists():
        return []
    return [(float(p), int(float(value))) for p, value in (line.split() for line in path.read_text().splitlines())]


# --- The benchmark ------------------------------------------------------------------------------------------------


class Bench:
    def __init__(self, arguments):
        self.arguments = arguments
        self.directory = Path(tempfile.mkdtemp(prefix="latchkey-bench-"))
        self.database = self.directory / "latchkey.sqlite"
        self.admin_token = secrets.token_urlsafe(32)
        self.server_secret = secrets.token_urlsafe(48)
        self.synchronous = "full" if arguments.safe else None
        self.peak_rss_mb = None
        self.tags = 0
        self.results = []
        self.facts = {}
        self.servers = []
        # Files per queue of codes or tokens: one per wrk thread, numbered across wrk processes (several instances).
        self.queue_threads = THREADS
        self.postgres = None  # the throwaway PostgreSQL server of --store postgres
        self.started = datetime.datetime.now(datetime.timezone.utc)
        self.stem = self.started.strftime("%Y%m%dT%H%M%SZ")  # names every file of this run under bench/results/

    def tag(self):
        """A fresh prefix for generated addresses: no two runs send the same one."""
        self.tags += 1
        return f"r{self.tags}"

    def server_environment(self):
        # The server reads LATCHKEY_* variables as configuration: only the secrets we mean go through.
        environment = {k: v for k, v in os.environ.items() if not k.startswith("LATCHKEY_")}
        environment["LATCHKEY_SECURITY_SERVER_SECRET"] = self.server_secret
        environment["LATCHKEY_ADMIN_TOKENS"] = self.admin_token
        return environment

    def server(self, name, **options):
        server = Server(self, name, **options)
        self.servers.append(server)
        return server

    def say(self, message):
        print(f"bench: {message}", flush=True)

    # --- Probing what this build supports -------------------------------------------------------------------------

    def check_config(self, config):
        path = self.directory / "probe.json"
        path.write_text(json.dumps(config))
        result = subprocess.run(
            [str(BINARY), "check-config", "--config", str(path)], cwd=self.directory, env=self.server_environment(),
            capture_output=True, text=True,
        )
        return result.returncode == 0, result.stdout + result.stderr

    def probe(self):
        """Which of the newer configuration keys this build knows, told by check-config.

        A key the reader does not know is ignored rather than refused, so each key is tried with a nonsense value
        first: only a build that knows the key names it in a complaint.
        """
        base = Server(self, "probe-base", workers=1, smtp_port=25).config

        def accepts(section, key, value):
            config = json.loads(json.dumps(base))
            target = config
            for part in section:
                target = target[part]
            target[key] = value
            return self.check_config(config)

        ok, output = accepts(["mail"], "workers", 0)
        self.facts["outbox_pause"] = ok
        ok, output = accepts(["storage", "sqlite"], "synchronous", "bogus")
        self.facts["synchronous_key"] = (not ok) and "synchronous" in output
        ok, output = accepts(["tokens"], "algorithm", "bogus")
        knows_algorithm = (not ok) and "algorithm" in output
        self.facts["es256_config"] = knows_algorithm and accepts(["tokens"], "algorithm", "ES256")[0]

    # --- Scenarios ------------------------------------------------------------------------------------------------

    def start_wrk(self, server, script, seconds, threads=THREADS, connections=None, offset=0, **variables):
        """wrk with one of scripts/bench-lua/, which reads its settings from BENCH_* variables.

        `offset` numbers this process's threads after another's (BENCH_THREAD_OFFSET), when several run at once.
        """
        environment = dict(os.environ)
        environment.update(
            BENCH_LUA=str(LUA), BENCH_DIR=str(self.directory), BENCH_API_KEY=API_KEY, BENCH_THREADS=str(threads),
            BENCH_ADMIN_TOKEN=self.admin_token, BENCH_CONTINUE_URL=CONTINUE_URL, BENCH_THREAD_OFFSET=str(offset),
            BENCH_CLIENT_ADDRESSES=str(self.arguments.client_addresses),
        )
        environment.update({f"BENCH_{k.upper()}": str(v) for k, v in variables.items()})
        command = [
            "wrk", f"-t{threads}", f"-c{connections or self.arguments.connections}", f"-d{seconds}s", "--timeout", "10s",
            "-s", str(LUA / script), server.url,
        ]
        return subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wrk(self, target, script, seconds, profile=None, **variables):
        """One load run against `target`: a server, or a list of instances loaded at once (see wrk_together)."""
        servers = target if isinstance(target, list) else [target]
        meter = CPUMeter(*(server.process.pid for server in servers), postgres=self.postgres)
        recorder = self.start_profile(servers, profile)
        if len(servers) == 1:
            run = self.finish_wrk(self.start_wrk(servers[0], script, seconds, **variables))
        else:
            run = self.wrk_together(servers, script, seconds, **variables)
        run.cpu = meter.cores()
        run.writes = meter.writes(run.requests)
        self.finish_profile(recorder, profile)
        return run

    def wrk_together(self, servers, script, seconds, **variables):
        """One wrk process per instance, started together, each with one thread and its share of the connections.

        No proxy sits in front: on two cores it would take CPU from the instances, and a real load balancer runs on
        another machine. Each process's thread keeps its own queue files (its thread number follows the processes
        before it), and writes its latency distribution, so the merged run's percentiles cover every request.
        """
        shares = [len(part) for part in split_evenly(range(self.arguments.connections), len(servers))]
        started = []
        try:
            for index, (server, connections) in enumerate(zip(servers, shares)):
                distribution = self.directory / f"percentiles-{index + 1}.txt"
                distribution.unlink(missing_ok=True)
                process = self.start_wrk(
                    server, script, seconds, threads=1, connections=connections, offset=index, percentiles=distribution, **variables)
                started.append((process, distribution))
            runs = []
            for process, distribution in started:
                run = self.finish_wrk(process)
                run.distribution = read_distribution(distribution)
                runs.append(run)
        finally:
            for process, _ in started:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        return merge_runs(runs)

    def start_profile(self, servers, name):
        """With --profile, `perf record -g` on the servers for one measured run."""
        if not (self.arguments.profile and name):
            return None
        RESULTS.mkdir(parents=True, exist_ok=True)
        data = RESULTS / f"{self.stem}-{file_name(name)}.perf.data"
        return subprocess.Popen(
            ["perf", "record", "-g", "-F", "999", "-p", ",".join(str(server.process.pid) for server in servers), "-o", str(data)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )

    def finish_profile(self, recorder, name):
        """Stops perf and writes the flat profile (self time, symbols of 0.5% or more) next to the results."""
        if recorder is None:
            return
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=60)
        name = file_name(name)
        data = RESULTS / f"{self.stem}-{name}.perf.data"
        report = subprocess.run(
            ["perf", "report", "-i", str(data), "--no-children", "--stdio", "--percent-limit", "0.5", "-g", "none",
             "--sort", "dso,symbol"],
            capture_output=True, text=True,
        )
        (RESULTS / f"{self.stem}-{name}.profile.txt").write_text(report.stdout)
        self.say(f"profile of {name} in {RESULTS / self.stem}-{name}.profile.txt")

    @staticmethod
    def finish_wrk(process):
        stdout, stderr = process.communicate()
        for line in stdout.splitlines():
            if line.startswith("BENCH_RESULT "):
                return Run(json.loads(line[len("BENCH_RESULT "):]))
        raise BenchError(f"wrk printed no result (exit {process.returncode}):\n{stdout}\n{stderr}")

    def warm_up_and_measure(self, target, script, profile=None, **variables):
        warm_up = self.wrk(target, script, self.arguments.warmup, tag=self.tag(), **variables)
        if warm_up.problem():
            raise Failed(f"during warm-up: {warm_up.problem()}")
        self.before_measured_run()
        return self.wrk(target, script, self.arguments.duration, profile=profile, tag=self.tag(), **variables)

    def before_measured_run(self):
        """With PostgreSQL, a checkpoint first, so that every measured run, Latchkey's and pgbench's alike, starts
        from the same state: the WAL before it written out, and each page's first change again a full-page image."""
        if self.postgres:
            self.postgres.psql("CHECKPOINT")

    def baseline(self, server):
        run = self.warm_up_and_measure(server, "healthz.lua", profile="baseline")
        result = scenario_result("baseline", run)
        result["vs_baseline"] = 1.0
        return result

    def send(self, target, baseline, name="send"):
        status, answer = first(target).post("accounts:sendOobCode", {
            "requestType": "EMAIL_SIGNIN", "email": f"check-{self.tag()}@example.com", "continueUrl": CONTINUE_URL, "canHandleCodeInApp": True,
        })
        if status != 200:
            raise Failed(f"a single send answers {status}: {answer}")
        return scenario_result(name, self.warm_up_and_measure(target, "send.lua", profile=name), baseline)

    def sms(self, target, baseline, name="sms send"):
        """accounts:sendVerificationCode, queue only: a new number per request, the texts left in the paused outbox."""
        status, answer = first(target).post("accounts:sendVerificationCode", {"phoneNumber": "+447700900123"})
        if status != 200:
            raise Failed(f"a single text answers {status}: {answer}")
        return scenario_result(name, self.warm_up_and_measure(target, "sms.lua", profile="sms"), baseline)

    def send_half_load(self, server, send_rps, baseline):
        """send paced at half its measured maximum: the latency a half-loaded server gives."""
        rate = send_rps / 2
        run = self.wrk(server, "send.lua", self.arguments.duration, profile="send-half-load", tag=self.tag(), rate=f"{rate:.1f}")
        return scenario_result("send at half load", run, baseline, target_rate=round(rate, 1))

    def queue_lines(self, name):
        total = 0
        for thread in range(1, self.queue_threads + 1):
            path = self.directory / f"{name}-{thread}.txt"
            if path.exists():
                with open(path, "rb") as file:
                    total += sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b""))
        return total

    def generate_codes(self, server, queue, count):
        """Appends at least `count` admin-generated codes to the per-thread files of `queue`."""
        per_thread = math.ceil(count / self.queue_threads)
        before = self.queue_lines(queue)
        started = time.monotonic()
        # Each thread stops itself at its limit, but wrk itself waits out -d: interrupt it (wrk then reports as usual).
        process = self.start_wrk(server, "codes.lua", 600, threads=self.queue_threads, tag=self.tag(), limit=per_thread, output=queue)
        while process.poll() is None and self.queue_lines(queue) - before < per_thread * self.queue_threads:
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        run = self.finish_wrk(process)
        generated = self.queue_lines(queue) - before
        if run.problem() and not run.exhausted:
            raise Failed(f"generating codes: {run.problem()}")
        if generated < count:
            raise Failed(f"generated only {generated} of {count} codes")
        self.say(f"generated {generated} codes in {time.monotonic() - started:.1f} s")

    def complete(self, target, baseline, queue, tokens, name, algorithm):
        server = first(target)  # checks and codes go through one instance; the store is shared
        status, answer = server.post("accounts:sendOobCode", {
            "requestType": "EMAIL_SIGNIN", "email": f"check-{queue}@example.com", "continueUrl": CONTINUE_URL, "returnOobLink": True,
        }, admin=True)
        if status != 200 or "oobCode" not in answer:
            raise Failed(f"an admin's returnOobLink answers {status}: {answer}")
        status, answer = server.post("accounts:signInWithEmailLink", {"email": answer["email"], "oobCode": answer["oobCode"]})
        if status != 200:
            raise Failed(f"a single completion answers {status}: {answer}")
        signed_with = json.loads(base64.urlsafe_b64decode(answer["idToken"].split(".")[0] + "=="))["alg"]
        if signed_with != algorithm:
            return {"scenario": name, "status": "not supported by this build", "reason": f"ID tokens are signed with {signed_with}"}

        # Codes for the warm-up at a generous guess of the rate; the warm-up's real rate sizes the measured run's.
        warm_up_codes = 3000 * self.arguments.warmup
        self.generate_codes(server, queue, warm_up_codes)
        warm_up = self.wrk(target, "complete.lua", self.arguments.warmup, tag=self.tag(), queue=queue, output=tokens)
        if warm_up.problem() and not warm_up.exhausted:
            raise Failed(f"during warm-up: {warm_up.problem()}")
        rate = warm_up.rps * (2 if warm_up.exhausted else 1)
        left = self.queue_lines(queue) - self.consumed(queue)
        needed = math.ceil(rate * self.arguments.duration * CODE_MARGIN) + 2 * self.arguments.connections
        if needed > left:
            self.generate_codes(server, queue, needed - left)
        self.before_measured_run()
        run = self.wrk(target, "complete.lua", self.arguments.duration, profile=name, tag=self.tag(), queue=queue, output=tokens)
        result = scenario_result(name, run, baseline, algorithm=algorithm)
        written = self.queue_lines(tokens)
        # A thread whose queue ran dry sends /healthz placeholders (at most one per request that found no code).
        signed_in = warm_up.requests + run.requests - warm_up.exhausted - run.exhausted
        if result["status"] == "ok" and written < signed_in:
            result.update(status="FAILED", reason=f"only {written} refresh tokens saved for at least {signed_in} sign-ins")
        return result

    def consumed(self, queue):
        total = 0
        for thread in range(1, self.queue_threads + 1):
            path = self.directory / f"{queue}-{thread}.pos"
            if path.exists():
                total += int(path.read_text().split()[0])
        return total

    def refresh(self, target, baseline, queue="tokens", name="refresh"):
        left = self.queue_lines(queue) - self.consumed(queue)
        if left < self.arguments.connections:
            raise Failed(f"only {left} refresh tokens left from complete; need one per connection")
        return scenario_result(name, self.warm_up_and_measure(target, "refresh.lua", profile=name, queue=queue), baseline)

    def outbox_counts(self):
        connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)
        try:
            counts = dict(connection.execute("SELECT status, count(*) FROM outbox GROUP BY status").fetchall())
            sent = connection.execute("SELECT count(*), min(sent_at), max(sent_at) FROM outbox WHERE status = 'sent'").fetchone()
            error = connection.execute("SELECT last_error FROM outbox WHERE last_error IS NOT NULL LIMIT 1").fetchone()
        finally:
            connection.close()
        return counts, sent, error[0] if error else None

    def deliver(self, baseline):
        """Restarts on the same database with outbox workers and times the drain into smtp-sink."""
        workers = self.arguments.mail_workers
        sink_port = free_port()
        sink_command = [SMTP_SINK]
        if os.geteuid() == 0:
            sink_command += ["-u", "nobody"]  # smtp-sink refuses to run as root without dropping privileges
        sink = subprocess.Popen(
            [*sink_command, f"127.0.0.1:{sink_port}", "1000"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        server = self.server("deliver", workers=workers, smtp_port=sink_port)
        try:
            wait_for_port(sink_port, sink)
            if not self.facts["outbox_pause"]:
                # Without a paused outbox the send server's one worker failed every message against a closed
                # port and gave it up (maxAttempts 1); put them all back in the queue.
                subprocess.run(
                    [str(BINARY), "outbox", "--config", str(server.config_path), "--retry-failed", "--limit", "1"], cwd=self.directory,
                    env=self.server_environment(), check=True, capture_output=True,
                )
            counts, _, _ = self.outbox_counts()
            queued = counts.get("pending", 0)
            if queued == 0:
                raise Failed("the outbox is empty: nothing to deliver")
            server.start()
            started = time.monotonic()
            meter = CPUMeter(server.process.pid)
            last_progress, last_sent = started, -1
            while True:
                counts, (sent, first_at, last_at), error = self.outbox_counts()
                if counts.get("pending", 0) == 0:
                    break
                if sent != last_sent:
                    last_progress, last_sent = time.monotonic(), sent
                if time.monotonic() - last_progress > 30:
                    raise Failed(f"delivery stalled at {sent} of {queued}; last error: {error}")
                time.sleep(0.1)
            wall = time.monotonic() - started
            cpu = meter.cores()
            server.stop()
        finally:
            server.kill()
            sink.terminate()
            sink.wait()
        failed = counts.get("failed", 0)
        # sent_at of the first and last message: the drain itself, without the start-up or the polling interval.
        per_second = (sent - 1) / (last_at - first_at) if sent > 1 and last_at > first_at else 0
        result = {
            "scenario": "deliver", "requests_per_second": round(per_second, 1), "messages": sent, "errors": failed,
            "wall_seconds": round(wall, 2), "smtp_connections": workers, "status": "ok", "cpu_cores": cpu,
            "vs_baseline": round(per_second / baseline, 3) if baseline else None,
        }
        if failed:
            result.update(status="FAILED", reason=f"{failed} messages given up; last error: {error}")
        return result

    def ceiling(self, server):
        """latchkey-store-bench with the server's configuration on a fresh database, the server stopped.

        Appends one result per replayed scenario (store ceiling: send, store ceiling: complete), or one failure.
        """
        if not STORE_BENCH.is_file():
            raise Failed(f"no latchkey-store-bench at {STORE_BENCH}; scripts/bench builds it, or set LATCHKEY_STORE_BENCH_BIN")
        config = json.loads(json.dumps(server.config))
        config["storage"]["sqlite"]["path"] = str(self.directory / "ceiling.sqlite")
        path = self.directory / "ceiling.json"
        path.write_text(json.dumps(config, indent=2))
        arguments = self.arguments
        command = [
            str(STORE_BENCH), "--config", str(path), "--connections", str(arguments.connections), "--duration", str(arguments.duration),
            "--warmup", str(arguments.warmup), "--continue-url", CONTINUE_URL,
        ]
        # Two scenarios, each with a warm-up, plus making inputs and planting codes: generous.
        budget = 4 * (arguments.duration + arguments.warmup) + 300
        try:
            result = subprocess.run(command, cwd=self.directory, env=self.server_environment(), capture_output=True, text=True, timeout=budget)
        except subprocess.TimeoutExpired:
            raise Failed(f"latchkey-store-bench did not finish within {budget} s")
        if result.returncode != 0:
            raise Failed(f"latchkey-store-bench exited with {result.returncode}: {result.stderr.strip()[-500:]}")
        report = json.loads(result.stdout.strip().splitlines()[-1])
        rows = []
        for scenario in sorted(report["scenarios"], key=["send", "complete"].index):
            outcome = report["scenarios"][scenario]
            row = {
                "scenario": f"store ceiling: {scenario}", "requests_per_second": round(outcome["per_second"], 1),
                "p50_ms": outcome["p50_milliseconds"], "p99_ms": outcome["p99_milliseconds"], "max_ms": outcome["max_milliseconds"],
                "errors": 0, "requests": outcome["operations"], "status": "ok", "cpu_cores": {"server": round(outcome["cpu_cores"], 2)},
                "store": report["store"],
            }
            if outcome["exhausted_tasks"]:
                row.update(status="FAILED", reason=f"{outcome['exhausted_tasks']} tasks ran out of prepared inputs")
            rows.append(row)
        return rows

    # --- Measurements outside wrk ---------------------------------------------------------------------------------

    def rsa_signing_rate(self):
        output = subprocess.run(["openssl", "speed", "-seconds", "3", "rsa2048"], capture_output=True, text=True, check=True).stdout
        return parse_speed(output, r"^rsa\s+2048 bits\s+(.*)$")

    def ecdsa_signing_rate(self):
        output = subprocess.run(["openssl", "speed", "-seconds", "3", "ecdsap256"], capture_output=True, text=True, check=True).stdout
        return parse_speed(output, r"^\s*256 bits ecdsa \(nistp256\)\s+(.*)$")

    def startup(self, server):
        """Median of three starts on the existing database, and the idle RSS one second after the last."""
        times = []
        for attempt in range(3):
            times.append(server.start())
            if attempt < 2:
                server.stop()
        time.sleep(1)
        self.facts["startup_seconds"] = round(statistics.median(times), 3)
        self.facts["startup_all_seconds"] = [round(t, 3) for t in times]
        memory = server.memory()
        self.facts["idle_rss_mb"] = round(memory["VmRSS"], 1)
        self.facts["idle_rss_anon_mb"] = round(memory["RssAnon"], 1)
        self.facts["idle_rss_file_mb"] = round(memory["RssFile"], 1)

    # --- The whole run --------------------------------------------------------------------------------------------

    def run(self, scenarios):
        self.facts["machine"] = machine()
        self.say("measuring this machine's RSA-2048 signing rate (openssl speed, one core)")
        self.facts["rsa2048_sign_per_second"] = self.rsa_signing_rate()
        if self.arguments.es256:
            self.facts["ecdsap256_sign_per_second"] = self.ecdsa_signing_rate()
        self.probe()
        if self.arguments.safe and not self.facts["synchronous_key"]:
            raise BenchError("--safe needs storage.sqlite.synchronous, which this build does not know")

        if self.facts["outbox_pause"]:
            main = self.server("main", workers=0, smtp_port=free_port())
        else:
            # No paused outbox in this build: one worker fails each message at once against a closed port and gives
            # it up, so send still stores everything, and deliver queues the given-up messages again.
            self.say("mail.workers 0 is refused by this build: send runs with 1 worker failing fast (see the notes)")
            main = self.server("main", workers=1, smtp_port=free_port(), max_attempts=1)
        self.say("first start: creating the database and the signing key")
        main.start()
        main.stop()
        self.peak_rss_mb = None  # the creating start is not part of the measurements
        self.facts["journal_mode"] = self.journal_mode()
        self.say("start-up time and idle RSS")
        self.startup(main)

        try:
            self.say("baseline")
            baseline_result = self.attempt("baseline", lambda: self.baseline(main))
            baseline = baseline_result.get("requests_per_second") if baseline_result["status"] == "ok" else None
            if "send" in scenarios:
                self.say("send")
                send = self.attempt("send", lambda: self.send(main, baseline))
                if send["status"] == "ok":
                    self.say("send at half load")
                    self.attempt("send at half load", lambda: self.send_half_load(main, send["requests_per_second"], baseline))
            if "sms" in scenarios:
                self.say("sms send")
                self.attempt("sms send", lambda: self.sms(main, baseline))
            if "complete" in scenarios:
                self.say("complete")
                self.attempt("complete", lambda: self.complete(main, baseline, "codes", "tokens", "complete", "RS256"))
            if "refresh" in scenarios:
                self.say("refresh")
                self.attempt("refresh", lambda: self.refresh(main, baseline))
            if "deliver" in scenarios and not self.facts["outbox_pause"]:
                self.wait_until_given_up()
            main.stop()
        finally:
            main.kill()

        if "ceiling" in scenarios:
            self.say("store ceiling (latchkey-store-bench: the same configuration on a fresh database, no HTTP)")
            try:
                rows = self.ceiling(main)
            except Failed as failure:
                rows = [{"scenario": "store ceiling", "status": "FAILED", "reason": str(failure)}]
            for row in rows:
                self.results.append(row)
                print(("bench: FAILED " if row["status"] == "FAILED" else "bench: ") + format_line(row), flush=True)

        if "deliver" in scenarios:
            self.say(f"deliver ({self.arguments.mail_workers} SMTP connections to smtp-sink)")
            self.attempt("deliver", lambda: self.deliver(baseline))
        if self.arguments.es256:
            self.say("complete with ES256")
            self.attempt("complete (ES256)", lambda: self.es256(baseline))
        self.facts["peak_rss_mb"] = round(self.peak_rss_mb, 1) if self.peak_rss_mb else None

    # --- PostgreSQL: several instances on one database, and pgbench's ceiling -------------------------------------

    def run_postgres(self, scenarios, instance_counts):
        """--store postgres: for each instance count, send, complete and refresh against that many instances on one
        fresh database; then pgbench's ceiling for a send and a completion on another fresh database."""
        arguments = self.arguments
        self.facts["machine"] = machine()
        settings = {"fsync": "on", **dict(setting.split("=", 1) for setting in arguments.pg_setting)}
        self.postgres = Postgres(settings)
        self.say(f"starting PostgreSQL in {self.postgres.directory} (port {self.postgres.port}) with "
                 + ", ".join(f"{name}={value}" for name, value in settings.items()))
        self.postgres.start()
        self.facts["postgres"] = {"settings": self.postgres.shown(), "options": settings, "port": self.postgres.port}
        self.facts["pgbench"] = subprocess.run([str(self.postgres.bin / "pgbench"), "--version"], capture_output=True, text=True).stdout.strip()
        self.say("PostgreSQL: " + ", ".join(f"{name} {value}" for name, value in self.facts["postgres"]["settings"].items()))
        self.facts["pool_sizes"] = {}
        smtp_port = free_port()  # nothing listens: the outbox is paused (mail.workers 0)
        for count in instance_counts:
            self.instances_run(count, scenarios, smtp_port)
        if "ceiling" in scenarios:
            self.say("pgbench ceiling: the statements of one send and of one completion, on a fresh database")
            for kind in ("send", "complete"):
                self.attempt(f"pgbench ceiling: {kind}", lambda: self.pgbench_ceiling(kind, smtp_port)).setdefault("kind", kind)

    def postgres_storage(self, database, pool_size):
        return {"kind": "postgres", "postgres": {
            "host": "127.0.0.1", "port": self.postgres.port, "database": database, "user": "latchkey", "tls": "disable", "poolSize": pool_size,
        }}

    def initialize(self, server):
        """`latchkey init` once for a database: makes the signing key every instance on it uses (in the database,
        which it migrates, or in the tokens.keyDirectory they share, for builds that keep keys in files)."""
        result = subprocess.run(
            [str(BINARY), "init", "--config", str(server.config_path)], cwd=self.directory, env=self.server_environment(),
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        )
        if result.returncode != 0:
            raise BenchError(f"latchkey init ({server.name}) exited with {result.returncode}:\n{(result.stdout + result.stderr)[-2000:]}")

    def instances_run(self, count, scenarios, smtp_port):
        """send, complete and refresh against `count` instances sharing one fresh database, server secret and keys."""
        database = f"latchkey_{count}"
        pool_size = self.arguments.pool_size or math.ceil(self.arguments.connections / count)
        self.facts["pool_sizes"][count] = pool_size
        self.postgres.psql(f"CREATE DATABASE {database}")
        storage = self.postgres_storage(database, pool_size)
        servers = [
            self.server(f"{database}-{index + 1}", workers=0, smtp_port=smtp_port, storage=storage, key_directory=f"keys-{database}")
            for index in range(count)
        ]
        plural = "instance" if count == 1 else "instances"
        self.say(f"{count} {plural} on database {database} (poolSize {pool_size} each): latchkey init, then start")
        self.initialize(servers[0])
        # One wrk thread per instance with several, so every thread keeps its own queue files.
        self.queue_threads = THREADS if count == 1 else count
        try:
            for server in servers:
                server.start(initialize=False)
            codes, tokens = f"codes-{count}", f"tokens-{count}"
            runs = [
                ("send", lambda name: self.send(servers, None, name=name)),
                ("complete", lambda name: self.complete(servers, None, codes, tokens, name, "RS256")),
                ("refresh", lambda name: self.refresh(servers, None, queue=tokens, name=name)),
            ]
            for kind, body in runs:
                if kind not in scenarios:
                    continue
                name = f"{kind}, {count} {plural}"
                self.say(name)
                result = self.attempt(name, lambda: body(name))
                # How many of the pools' connections the load opened: fewer than pgbench's clients wait on the database.
                opened = self.postgres.psql(f"SELECT count(*) FROM pg_stat_activity WHERE datname = '{database}'")
                result.update(kind=kind, instances=count, database_connections=int(opened[0]))
                if kind == "send" and "sealed_letter_bytes" not in self.facts:
                    size = self.postgres.psql("SELECT coalesce(round(avg(length(sealed_message))), 0) FROM outbox", database=database)
                    self.facts["sealed_letter_bytes"] = int(float(size[0]))
            for server in servers:
                server.stop()
        finally:
            for server in servers:
                server.kill()
            self.queue_threads = THREADS

    def pgbench_ceiling(self, kind, smtp_port):
        """pgbench with scripts/bench-pg/<kind>.sql on a fresh database `latchkey init` migrated: the database's own
        rate for exactly the statements of one send or one completion, at wrk's client count, with a warm-up and a
        checkpoint before the measured run as Latchkey's runs have. A completion consumes codes planted beforehand."""
        arguments = self.arguments
        database = f"ceiling_{kind}"
        self.postgres.psql(f"CREATE DATABASE {database}")
        # Migrated by Latchkey itself: init, and one start (builds whose init does not open the store migrate there).
        probe = self.server(database, workers=0, smtp_port=smtp_port, storage=self.postgres_storage(database, 1), key_directory=f"keys-{database}")
        self.initialize(probe)
        try:
            probe.start(initialize=False)
            probe.stop()
        finally:
            probe.kill()
        clients = arguments.connections
        variables = self.pgbench_variables(probe.config)
        planted = 0
        if kind == "complete":
            variables.update(clients=clients, k=0, base=0)
            planted = self.plant_codes(database, 0, PGBENCH_WARMUP_RATE * arguments.warmup + 2 * clients, probe.config)
        warm_up = self.pgbench(database, kind, arguments.warmup, variables, "warm-up")
        if warm_up.problem() and not warm_up.exhausted:
            raise Failed(f"during warm-up: {warm_up.problem()}")
        if kind == "complete":
            # Each client owns every clients-th code, and clients do not get equal turns (they queue for the one per-IP
            # counter row): twice the average share each, and some more.
            rate = warm_up.rps * (2 if warm_up.exhausted else 1)
            needed = clients * (math.ceil(2 * rate * arguments.duration / clients) + 16)
            variables["base"] = planted
            planted += self.plant_codes(database, planted, needed, probe.config)
        self.before_measured_run()
        meter = CPUMeter(postgres=self.postgres)
        run = self.pgbench(database, kind, arguments.duration, variables, "measured")
        cpu = meter.cores(settle=lambda: self.postgres.wait_for_backends(database))
        result = {
            "scenario": f"pgbench ceiling: {kind}", "kind": kind, "requests_per_second": round(run.rps, 1), "p50_ms": run.p50_us / 1000,
            "p99_ms": run.p99_us / 1000, "max_ms": run.max_us / 1000, "errors": run.failed, "requests": run.requests, "status": "ok",
            "cpu_cores": cpu, "clients": clients, "script": f"scripts/bench-pg/{kind}.sql",
        }
        if kind == "complete":
            result["planted_codes"] = planted
        if run.problem():
            result.update(status="FAILED", reason=run.problem())
        return result

    def pgbench_variables(self, config):
        """pgbench's -D variables: the rate-limit windows and everything else the server's configuration decides."""
        limits = config["rateLimits"]
        send_ip, complete_ip = limits["sendPerIP"][0], limits["completePerIP"][0]
        # A client's counter key is subject, client number, rule: as long as Latchkey's hashed subject and rule.
        subject = secrets.token_urlsafe(30)
        variables = {
            "ip": "127.0.0.1", "continue_url": CONTINUE_URL, "code_lifetime": config["emailLink"]["codeLifetimeSeconds"],
            "letter": "\\x" + secrets.token_hex(self.facts.get("sealed_letter_bytes") or DEFAULT_LETTER_BYTES),
            "addresses": self.arguments.client_addresses,
        }
        for index, (limit, seconds) in enumerate(SEND_PER_EMAIL_WINDOWS, start=1):
            variables.update({f"email_limit_{index}": limit, f"email_window_{index}": seconds, f"email_suffix_{index}": f":sendPerEmail:{seconds}"})
        return variables | {
            "send_ip_subject": subject, "send_ip_suffix": f":sendPerIP:{send_ip['windowSeconds']}", "send_ip_window": send_ip["windowSeconds"],
            "send_ip_limit": send_ip["limit"], "complete_ip_subject": subject, "complete_ip_suffix": f":completePerIP:{complete_ip['windowSeconds']}",
            "complete_ip_window": complete_ip["windowSeconds"], "complete_ip_limit": complete_ip["limit"],
        }

    def plant_codes(self, database, base, count, config):
        """Pending requests for codes base … base + count - 1, as complete.sql finds them; returns count."""
        self.postgres.psql(
            "INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, handles_code_in_app) "
            f"SELECT sha256(int8send(n)), 'c' || n || '@example.com', extract(epoch from now()), "
            f"extract(epoch from now()) + {int(config['emailLink']['codeLifetimeSeconds'])}, 'en', '{CONTINUE_URL}', TRUE "
            f"FROM generate_series({int(base)}, {int(base + count - 1)}) AS n",
            database=database,
        )
        return count

    def pgbench(self, database, kind, seconds, variables, phase):
        """One pgbench run of scripts/bench-pg/<kind>.sql: -M extended sends each statement as postgres-nio does (parse,
        bind, execute of an unnamed statement), -c as wrk's connections, -j as wrk's threads; -l logs every
        transaction's latency for p50/p99."""
        prefix = self.directory / f"pgbench-{database}-{phase}"
        for old in self.directory.glob(f"{prefix.name}.*"):
            old.unlink()
        # Each script names its own client counter: the send's and the completion's per-IP variables are passed as
        # ip_subject, ip_suffix, ip_window and ip_limit.
        chosen = {name: value for name, value in variables.items() if not name.startswith(("send_ip_", "complete_ip_"))}
        chosen.update({name.split("_", 1)[1]: value for name, value in variables.items() if name.startswith(f"{kind}_ip_")})
        command = [
            str(self.postgres.bin / "pgbench"), *self.postgres.connection(database)[:6], "--no-vacuum", "-M", "extended",
            "-c", str(self.arguments.connections), "-j", str(THREADS), "-T", str(seconds), "-f", str(PGBENCH_SCRIPTS / f"{kind}.sql"),
            "-l", "--log-prefix", str(prefix), *(f"-D{name}={value}" for name, value in chosen.items()), database,
        ]
        result = subprocess.run(command, cwd=self.directory, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=seconds + 300)
        run = PgbenchRun(result.stdout + result.stderr, sorted(self.directory.glob(f"{prefix.name}.*")), result.returncode)
        self.say(f"pgbench {kind} ({phase}): {run.rps:.0f} transactions/s, {run.requests} transactions")
        return run

    # --- Growth ---------------------------------------------------------------------------------------------------

    def run_growth(self):
        """--growth: send, complete and refresh on the empty database, then on one filled and swept by retention."""
        arguments = self.arguments
        self.facts["machine"] = machine()
        self.probe()
        main = self.server("main", workers=0, smtp_port=free_port())
        self.say("first start: creating the database and the signing key")
        main.start()
        self.facts["journal_mode"] = self.journal_mode()
        growth = self.facts["growth"] = {"sign_ins": arguments.sign_ins, "refreshes": arguments.refreshes, "days": arguments.days,
                                         "refresh_days": arguments.refresh_days}
        try:
            self.growth_phase(main, "empty")
            main.stop()
        finally:
            main.kill()

        self.say(f"filling: {arguments.sign_ins:,} completed sign-ins over {arguments.days} days, {arguments.refreshes:,} refreshes "
                 f"over {arguments.refresh_days}")
        started = time.monotonic()
        growth["filled_rows"] = fill_database(
            self.database, arguments.sign_ins, arguments.refreshes, days=arguments.days, refresh_days=arguments.refresh_days,
            code_lifetime=main.config["emailLink"]["codeLifetimeSeconds"], say=self.say)
        growth["fill_seconds"] = round(time.monotonic() - started, 1)
        growth["before"] = database_facts(self.database)
        self.say(f"filled in {growth['fill_seconds']:.0f} s: {format_bytes(growth['before']['file_bytes'])}; running `latchkey sweep`")
        started = time.monotonic()
        result = subprocess.run(
            [str(BINARY), "sweep", "--config", str(main.config_path)], cwd=self.directory, env=self.server_environment(),
            capture_output=True, text=True, timeout=7200,
        )
        growth["sweep_seconds"] = round(time.monotonic() - started, 1)
        if result.returncode != 0:
            raise BenchError(f"latchkey sweep exited with {result.returncode}:\n{result.stderr[-2000:]}")
        growth["removed"] = {kind: int(count) for kind, count in (line.split("\t") for line in result.stdout.splitlines()[1:] if "\t" in line)}
        growth["sweep_warnings"] = [line for line in result.stderr.splitlines() if "warning" in line][:5]
        growth["after"] = database_facts(self.database)
        self.say(f"swept in {growth['sweep_seconds']:.0f} s: {format_bytes(growth['after']['file_bytes'])}, "
                 f"{growth['after']['freelist_count']:,} free pages")

        growth["startup_seconds"] = round(main.start(), 3)
        try:
            self.growth_phase(main, "grown")
            main.stop()
        finally:
            main.kill()
        growth["end"] = database_facts(self.database)

    def growth_phase(self, server, phase):
        for name, body in (
            ("send", lambda name: self.send(server, None, name=name)),
            ("complete", lambda name: self.complete(server, None, f"codes-{phase}", f"tokens-{phase}", name, "RS256")),
            ("refresh", lambda name: self.refresh(server, None, queue=f"tokens-{phase}", name=name)),
        ):
            self.say(f"{name}, {phase} database")
            self.attempt(f"{name} ({phase})", lambda: body(f"{name} ({phase})"))

    def es256(self, baseline):
        if not self.facts["es256_config"]:
            return {"scenario": "complete (ES256)", "status": "not supported by this build", "reason": "check-config does not know tokens.algorithm ES256"}
        server = self.server("es256", workers=0 if self.facts["outbox_pause"] else 1, smtp_port=free_port(), algorithm="ES256", key_directory="keys-es256")
        try:
            server.start()
        except BenchError as error:
            return {"scenario": "complete (ES256)", "status": "not supported by this build", "reason": str(error).splitlines()[0]}
        try:
            result = self.complete(server, baseline, "es256-codes", "es256-tokens", "complete (ES256)", "ES256")
            server.stop()
            return result
        finally:
            server.kill()

    def attempt(self, name, body):
        try:
            result = body()
        except Failed as failure:
            result = {"scenario": name, "status": "FAILED", "reason": str(failure)}
        self.results.append(result)
        line = format_line(result)
        print(("bench: FAILED " if result["status"] == "FAILED" else "bench: ") + line, flush=True)
        return result

    def wait_until_given_up(self):
        deadline = time.monotonic() + 120
        while self.outbox_counts()[0].get("pending", 0) and time.monotonic() < deadline:
            time.sleep(0.2)

    def journal_mode(self):
        connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            return connection.execute("PRAGMA journal_mode").fetchone()[0]
        finally:
            connection.close()

    def cleanup(self):
        for server in self.servers:
            server.kill()
        if self.postgres:
            self.postgres.stop(keep=self.arguments.keep)
        if not self.arguments.keep:
            subprocess.run(["rm", "-rf", str(self.directory)], check=False)


def first(target):
    """The server of a target that is a server or a list of instances: the one single requests go to."""
    return target[0] if isinstance(target, list) else target


def split_evenly(items, parts):
    """`items` dealt into `parts` consecutive slices whose lengths differ by one at most."""
    items = list(items)
    size, extra = divmod(len(items), parts)
    slices, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        slices.append(items[start:end])
        start = end
    return slices


def wait_for_port(port, process):
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise BenchError(f"smtp-sink exited: {process.stderr.read().decode(errors='replace')}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    raise BenchError("smtp-sink did not listen")


def file_name(name):
    """A scenario's name as part of a file name."""
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")


# --- Filling a database (--growth) --------------------------------------------------------------------------------

USER_AGENT = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
ID_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
TABLES = ("pending_requests", "accounts", "identities", "sessions", "refresh_tokens", "outbox", "audit_events", "rate_counters")


def token(random_bytes):
    """What ServerSecret.makeToken makes of these bytes: unpadded base64url."""
    return base64.urlsafe_b64encode(random_bytes).rstrip(b"=").decode()


def creation_second(moment):
    """The seven base-36 characters of a second that begin account ids and link-code keys (CreationSecond.swift)."""
    seconds, digits = int(moment), ""
    while seconds:
        seconds, digit = divmod(seconds, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
    return digits.rjust(7, "0")[-7:]


def fill_database(path, sign_ins, refreshes, days, refresh_days, code_lifetime, say, chunk=20_000):
    """Writes the rows of `sign_ins` completed first sign-ins and of `refreshes` refreshes into the migrated schema.

    The rows are the ones the service writes, written straight into its tables with Python's sqlite3 (one transaction,
    rollback journal and synchronous OFF while filling, WAL again afterwards), because a million sign-ins through
    HTTP would take hours on this machine. Each sign-in, spread evenly over the last `days` days: the send (the used
    pending request, the delivered outbox row, a `code_issued` audit row, the address's three rate-limit windows and
    its client's), then a minute later the completion (the account, its email identity, a session, a refresh token,
    a `sign_in_completed` audit row, the client's window). Each refresh, spread over the last `refresh_days` days,
    rotates the newest token of a session that existed by then and adds its successor. Clients come from a pool of one
    address per five sign-ins; hashes and keys are random bytes as the service's keyed hashes are, and ids and code keys
    begin with their time as the service's do (CreationSecond, SessionRecord.makeID). Returns the rows written per table.
    """
    rng = random.Random(15)
    now = time.time()
    span = days * 86_400
    start = now - span
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("PRAGMA cache_size=-1048576")  # 1 GiB, so the random index inserts stay in memory
        db.execute("BEGIN")
        first_token_id = (db.execute("SELECT coalesce(max(id), 0) FROM refresh_tokens").fetchone()[0]) + 1
        clients = [f"{rng.randrange(1, 224)}.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}" for _ in range(max(1, sign_ins // 5))]
        client_windows = {}  # client -> (its rate-limit key's hash, last send, last completion)
        written = dict.fromkeys(TABLES, 0)
        sign_in_times = []
        session_ids = []
        for offset in range(0, sign_ins, chunk):
            pending, outbox, audit, counters, accounts, identities, sessions, tokens = [], [], [], [], [], [], [], []
            for i in range(offset, min(offset + chunk, sign_ins)):
                signed_in = start + (i + 0.5) * span / sign_ins
                sent = signed_in - 60
                email = f"{token(os.urandom(6)).lower()}{i}@example.com"
                client = rng.choice(clients)
                account_id = creation_second(signed_in) + "".join(rng.choices(ID_LETTERS, k=21))
                session_id = f"{int(signed_in * 1000):012x}" + token(os.urandom(16))
                pending.append((creation_second(sent).encode() + os.urandom(32), email, sent, sent + code_lifetime, "en", CONTINUE_URL, signed_in))
                outbox.append((email, sent, sent, sent + 1))
                audit.append((sent, "code_issued", None, email, client, USER_AGENT, None))
                audit.append((signed_in, "sign_in_completed", account_id, email, client, USER_AGENT, "new account"))
                subject = token(os.urandom(32))
                for seconds in (60, 3600, 86_400):
                    counters.append((f"{subject}:sendPerEmail:{seconds}", int(sent), int(sent) + seconds))
                key, _, _ = client_windows.get(client) or (token(os.urandom(32)), 0, 0)
                client_windows[client] = (key, sent, signed_in)
                accounts.append((account_id, email, int(signed_in), signed_in, signed_in))
                identities.append((email, account_id, email, signed_in))
                sessions.append((session_id, account_id, signed_in, signed_in))
                tokens.append((first_token_id + i, os.urandom(32), session_id, signed_in))
                sign_in_times.append(signed_in)
                session_ids.append(session_id)
            db.executemany(
                "INSERT INTO pending_requests (code_hash, email, created_at, expires_at, language, continue_url, used_at, handles_code_in_app) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 1)", pending)
            db.executemany(
                "INSERT INTO outbox (recipient, format, created_at, status, attempts, next_attempt_at, sent_at) VALUES (?, 'sign-in', ?, 'sent', 1, ?, ?)",
                outbox)
            db.executemany("INSERT INTO audit_events (at, kind, account_id, email, ip_address, user_agent, detail) VALUES (?, ?, ?, ?, ?, ?, ?)", audit)
            db.executemany("INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES (?, ?, 1, ?)", counters)
            db.executemany(
                "INSERT INTO accounts (id, email, email_verified, valid_since, created_at, last_sign_in_at) VALUES (?, ?, 1, ?, ?, ?)", accounts)
            db.executemany(
                "INSERT INTO identities (provider_id, provider_uid, account_id, email, email_verified, created_at) VALUES ('password', ?, ?, ?, 1, ?)",
                identities)
            db.executemany(
                "INSERT INTO sessions (id, account_id, sign_in_provider, auth_time, created_at) VALUES (?, ?, 'password', ?, ?)", sessions)
            db.executemany("INSERT INTO refresh_tokens (id, token_hash, session_id, created_at) VALUES (?, ?, ?, ?)", tokens)
            for table, rows in (("pending_requests", pending), ("outbox", outbox), ("audit_events", audit), ("rate_counters", counters),
                                ("accounts", accounts), ("identities", identities), ("sessions", sessions), ("refresh_tokens", tokens)):
                written[table] += len(rows)
            if (offset // chunk) % 10 == 9:
                say(f"  {offset + chunk:,} sign-ins written")

        # Each client's send and completion windows (5 minutes in the benchmark's configuration), from its last use.
        client_rows = []
        for key, last_send, last_completion in client_windows.values():
            client_rows.append((f"{key}:sendPerIP:300", int(last_send), int(last_send) + 300))
            client_rows.append((f"{key}:completePerIP:300", int(last_completion), int(last_completion) + 300))
        db.executemany("INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES (?, ?, 1, ?)", client_rows)
        written["rate_counters"] += len(client_rows)

        # Refreshes, oldest first: each rotates the newest token of a session signed in before it.
        current = {}  # sign-in index -> id of its session's newest token
        next_id = first_token_id + sign_ins
        rotations, successors = [], []
        for refreshed in sorted(now - rng.random() * refresh_days * 86_400 for _ in range(refreshes)):
            signed_in_before = bisect.bisect_left(sign_in_times, refreshed)
            if signed_in_before == 0:
                continue
            i = rng.randrange(signed_in_before)
            rotations.append((refreshed, current.get(i, first_token_id + i)))
            successors.append((next_id, os.urandom(32), session_ids[i], refreshed))
            current[i] = next_id
            next_id += 1
        db.executemany("UPDATE refresh_tokens SET rotated_at = ? WHERE id = ?", rotations)
        db.executemany("INSERT INTO refresh_tokens (id, token_hash, session_id, created_at) VALUES (?, ?, ?, ?)", successors)
        written["refresh_tokens"] += len(successors)
        written["rotated"] = len(rotations)
        db.execute("COMMIT")
        db.execute("PRAGMA journal_mode=WAL")
    finally:
        db.close()
    return written


def database_facts(path):
    """The database's size on disk, its pages (of them free), and its rows per table."""
    path = Path(path)
    wal = Path(f"{path}-wal")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        facts = {
            "file_bytes": path.stat().st_size,
            "wal_bytes": wal.stat().st_size if wal.exists() else 0,
            "page_size": db.execute("PRAGMA page_size").fetchone()[0],
            "page_count": db.execute("PRAGMA page_count").fetchone()[0],
            "freelist_count": db.execute("PRAGMA freelist_count").fetchone()[0],
            "rows": {table: db.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES},
        }
    finally:
        db.close()
    return facts


def format_bytes(count):
    return f"{count / 1e9:.2f} GB" if count >= 1e9 else f"{count / 1e6:.1f} MB"


def parse_speed(output, pattern):
    """The sign/s column of `openssl speed`: after the times (numbers ending in s) come the rates, sign/s first."""
    for line in output.splitlines():
        match = re.match(pattern, line)
        if match:
            rates = [field for field in match.group(1).split() if not field.endswith("s")]
            return float(rates[0])
    raise BenchError(f"cannot read openssl speed's output:\n{output}")


def machine():
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = re.search(r"^model name\s*:\s*(.*)$", cpuinfo, re.M)
    memory = re.search(r"^MemTotal:\s*(\d+) kB", Path("/proc/meminfo").read_text(), re.M)
    os_release = Path("/etc/os-release").read_text() if Path("/etc/os-release").exists() else ""
    distribution = re.search(r'^PRETTY_NAME="?(.*?)"?$', os_release, re.M)

    def first_line(command):
        try:
            result = subprocess.run(command, capture_output=True, text=True)
            return (result.stdout or result.stderr).strip().splitlines()[0]
        except (OSError, IndexError):
            return "unknown"

    commit = first_line(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no", "Sources"], capture_output=True, text=True).stdout
    return {
        "nproc": os.cpu_count(),
        "cpu": model.group(1).strip() if model else platform.processor() or "unknown",
        "ram_gib": round(int(memory.group(1)) / 1024 / 1024, 1) if memory else None,
        "kernel": platform.release(),
        "os": distribution.group(1) if distribution else "unknown",
        "swift": first_line(["swift", "--version"]),
        "wrk": " ".join(first_line(["wrk", "--version"]).split()[:2]),
        "openssl": " ".join(first_line(["openssl", "version"]).split()[:2]),
        "latchkey": first_line([str(BINARY), "--version"]),
        "commit": commit + (" (Sources modified)" if dirty.strip() else ""),
    }


# --- Reporting ----------------------------------------------------------------------------------------------------


def format_line(result):
    if result["status"] != "ok":
        return f"{result['scenario']}: {result['status']}: {result.get('reason', '')}"
    if result["scenario"] == "deliver":
        return f"deliver: {result['requests_per_second']:.0f} messages/s ({result['messages']} messages, {result['smtp_connections']} connections)"
    ratio = f", {result['vs_baseline'] * 100:.0f}% of baseline" if result.get("vs_baseline") else ""
    return (
        f"{result['scenario']}: {result['requests_per_second']:.0f} requests/s, p50 {result['p50_ms']:.2f} ms, "
        f"p99 {result['p99_ms']:.2f} ms, max {result['max_ms']:.2f} ms, {result['errors']} errors{ratio}"
    )


def derived(results, facts):
    """The numbers the targets are about."""
    by_name = {r["scenario"]: r for r in results if r["status"] == "ok"}
    values = {}
    if "send" in by_name and by_name["send"].get("vs_baseline"):
        values["send_vs_baseline"] = by_name["send"]["vs_baseline"] * 100
    if "complete" in by_name and facts.get("rsa2048_sign_per_second"):
        values["complete_vs_rsa"] = by_name["complete"]["requests_per_second"] / facts["rsa2048_sign_per_second"] * 100
    if "complete (ES256)" in by_name and by_name["complete (ES256)"].get("vs_baseline"):
        values["complete_es256_vs_baseline"] = by_name["complete (ES256)"]["vs_baseline"] * 100
    if "send at half load" in by_name:
        values["send_half_load_p99_ms"] = by_name["send at half load"]["p99_ms"]
    if "deliver" in by_name:
        values["deliver_per_second"] = by_name["deliver"]["requests_per_second"]
    for key in ("idle_rss_mb", "peak_rss_mb", "startup_seconds"):
        if facts.get(key) is not None:
            values[key] = facts[key]
    for name in ("send", "complete"):
        ceiling = by_name.get(f"store ceiling: {name}")
        if name in by_name and ceiling and ceiling["requests_per_second"]:
            values[f"{name}_vs_ceiling"] = by_name[name]["requests_per_second"] / ceiling["requests_per_second"] * 100
    return values


def target_rows(values):
    rows = []
    for key, description, unit, comparison, threshold in TARGETS:
        if key not in values:
            rows.append((description, "not measured", "–"))
            continue
        value = values[key]
        met = value >= threshold if comparison == ">=" else value <= threshold
        shown = f"{value:.3f} s" if unit == "s" else f"{value:.0f}%" if unit == "%" else f"{value:.1f} {unit}"
        rows.append((description, shown, "met" if met else "**not met**"))
    return rows


def markdown(results, facts, command, durability, notes):
    m = facts["machine"]
    lines = [
        f"Run of {facts['date']}, latchkey {m['latchkey']}, repository at {m['commit']}: `{command}`",
        "",
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, Linux {m['kernel']}, {m['os']}; {m['swift']}; "
        f"{m['wrk']}; {m['openssl']}.",
        "",
        f"Durability: {durability}. Server log level: {facts['log_level']}. wrk: {THREADS} threads, {facts['connections']} connections, loopback, "
        f"{facts['warmup']} s warm-up, {facts['duration']} s measured per scenario. Rate limits: the default windows with "
        "limits raised to 1,000,000 per IP and 10,000,000 per API key and minute, since all load comes from one address.",
        "",
        "| scenario | requests/s | p50 ms | p99 ms | max ms | errors | vs baseline | CPU cores: server / wrk / other | result |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for r in results:
        cpu = r.get("cpu_cores")
        if cpu and "wrk" not in cpu:  # latchkey-store-bench: the whole process, and no wrk
            cpu = f"{cpu['server']:.2f} / – / –"
        else:
            cpu = f"{cpu['server']:.2f} / {cpu['wrk']:.2f} / {cpu['other']:.2f}" if cpu else ""
        if r["status"] != "ok":
            lines.append(f"| {r['scenario']} | | | | | | | | {r['status']}: {r.get('reason', '').replace('|', '/')[:200]} |")
        elif r["scenario"] == "deliver":
            lines.append(
                f"| deliver ({r['smtp_connections']} SMTP connections, {r['messages']} messages) | {r['requests_per_second']:,.0f} msg/s "
                f"| | | | {r['errors']} | {r['vs_baseline'] * 100:.0f}% | {cpu} | ok |"
            )
        else:
            name = r["scenario"]
            if name == "send at half load":
                name = f"send at half load (paced at {r['target_rate']:,.0f}/s)"
            ratio = f"{r['vs_baseline'] * 100:.0f}%" if r.get("vs_baseline") else ""
            lines.append(
                f"| {name} | {r['requests_per_second']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['max_ms']:.2f} "
                f"| {r['errors']} | {ratio} | {cpu} | ok |"
            )
    values = derived(results, facts)
    lines += [
        "",
        "| measurement | value |",
        "|---|---:|",
        f"| RSA-2048 signing, `openssl speed -seconds 3 rsa2048` (one core) | {facts['rsa2048_sign_per_second']:,.0f} sign/s |",
    ]
    if "complete_vs_rsa" in values:
        lines.append(f"| complete ÷ RSA-2048 signing rate | {values['complete_vs_rsa']:.0f}% |")
    for name in ("send", "complete"):
        if f"{name}_vs_ceiling" in values:
            what = "send" if name == "send" else "completion"
            lines.append(f"| {name} ÷ the store's ceiling for a {what} (`latchkey-store-bench`) | {values[f'{name}_vs_ceiling']:.0f}% |")
    if facts.get("ecdsap256_sign_per_second"):
        lines.append(f"| ECDSA P-256 signing, `openssl speed -seconds 3 ecdsap256` (one core) | {facts['ecdsap256_sign_per_second']:,.0f} sign/s |")
    lines += [
        f"| idle RSS after start-up (VmRSS; of it RssAnon, heap and stacks: {facts['idle_rss_anon_mb']:.1f} MB, RssFile, "
        f"mapped binary and libraries: {facts['idle_rss_file_mb']:.1f} MB) | {facts['idle_rss_mb']:.1f} MB |",
        f"| peak RSS (VmHWM, highest of the server processes) | {facts['peak_rss_mb']:.1f} MB |" if facts.get("peak_rss_mb") else "| peak RSS | not measured |",
        f"| start-up to first ready `/readyz`, existing database (median of 3: {', '.join(f'{t:.3f}' for t in facts['startup_all_seconds'])}) "
        f"| {facts['startup_seconds']:.3f} s |",
        "",
        "| target | measured | |",
        "|---|---:|---|",
    ]
    lines += [f"| {d} | {v} | {s} |" for d, v, s in target_rows(values)]
    # deliver's "other" is mostly smtp-sink, so it says nothing about the machine being shared.
    busiest = max((r["cpu_cores"].get("other") or 0 for r in results if r.get("cpu_cores") and r["scenario"] != "deliver"), default=0)
    notes = list(notes)
    if busiest > 0.25:
        notes.append(
            f"Other processes used up to {busiest:.2f} of the {m['nproc']} cores during a measured run (the CPU column): the "
            "machine was not quiet, and the numbers are lower than it can do."
        )
    notes.append("CPU cores are measured over each measured run: the server from /proc/PID/stat, wrk from its rusage, "
                 "other as the rest of /proc/stat's busy time (for deliver it includes smtp-sink).")
    if any(r["scenario"].startswith("store ceiling") for r in results):
        notes.append(
            "Store ceiling: `latchkey-store-bench` with the server's configuration on a fresh database, the server stopped: "
            f"{facts['connections']} tasks each replaying the store calls of one send, then of one completion with codes planted "
            "beforehand, through the same store, write batcher and store services, without HTTP, JSON or signing "
            "(`StoreReplayTests` holds the replay to the service's statements). Its CPU column is the whole process.")
    return "\n".join(lines) + "\n"


def growth_markdown(results, facts, command, durability):
    """The --growth report: the rates before and after, and the database around retention."""
    m, growth = facts["machine"], facts["growth"]
    by_name = {r["scenario"]: r for r in results}
    lines = [
        f"Run of {facts['date']}, latchkey {m['latchkey']}, repository at {m['commit']}: `{command}`",
        "",
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, Linux {m['kernel']}, {m['os']}; {m['swift']}; {m['wrk']}.",
        "",
        f"Durability: {durability}. wrk: {THREADS} threads, {facts['connections']} connections, {facts['warmup']} s warm-up, "
        f"{facts['duration']} s measured per scenario.",
        "",
        f"Fill: {growth['sign_ins']:,} completed first sign-ins spread over the last {growth['days']} days and "
        f"{growth['refreshes']:,} refreshes over the last {growth['refresh_days']}, written straight into the schema `latchkey` "
        f"migrated (`fill_database` in scripts/bench.py: the rows a send, its delivery, a completion and a refresh write) in "
        f"{growth['fill_seconds']:.0f} s; then `latchkey sweep` ({growth['sweep_seconds']:.0f} s), then the same scenarios again. "
        f"Start-up to ready on the grown database: {growth['startup_seconds']:.3f} s.",
        "",
        f"| scenario | empty database | after the fill and retention | share of empty (target ≥ {GROWTH_TARGET}%) |",
        "|---|---:|---:|---:|",
    ]
    for name in ("send", "complete", "refresh"):
        empty, grown = by_name.get(f"{name} (empty)"), by_name.get(f"{name} (grown)")
        cells = []
        for r in (empty, grown):
            if r and r["status"] == "ok":
                cells.append(f"{r['requests_per_second']:,.0f}/s (p99 {r['p99_ms']:.1f} ms)")
            else:
                cells.append(f"{r['status'] if r else 'not run'}")
        if empty and grown and empty["status"] == grown["status"] == "ok":
            share = grown["requests_per_second"] / empty["requests_per_second"] * 100
            cells.append(f"{share:.0f}% {'met' if share >= GROWTH_TARGET else '**not met**'}")
        else:
            cells.append("–")
        lines.append(f"| {name} | {' | '.join(cells)} |")
    before, after, end = growth["before"], growth["after"], growth["end"]
    lines += [
        "",
        "| database | after the fill | after `latchkey sweep` | after the grown runs |",
        "|---|---:|---:|---:|",
        f"| file size | {format_bytes(before['file_bytes'])} | {format_bytes(after['file_bytes'])} | {format_bytes(end['file_bytes'])} |",
        f"| WAL file | {format_bytes(before['wal_bytes'])} | {format_bytes(after['wal_bytes'])} | {format_bytes(end['wal_bytes'])} |",
        f"| pages ({before['page_size']:,} bytes) | {before['page_count']:,} | {after['page_count']:,} | {end['page_count']:,} |",
        f"| free pages (reused by later writes) | {before['freelist_count']:,} | {after['freelist_count']:,} | {end['freelist_count']:,} |",
    ]
    lines += [f"| rows: {table} | {before['rows'][table]:,} | {after['rows'][table]:,} | {end['rows'][table]:,} |" for table in TABLES]
    lines += [
        "",
        f"`latchkey sweep` removed: " + ", ".join(f"{kind} {count:,}" for kind, count in growth["removed"].items()) + ".",
        "SQLite keeps deleted pages in the file's free list and reuses them for new rows; only `VACUUM` (not run) returns them "
        "to the file system, so the file does not shrink after retention.",
    ]
    return "\n".join(lines) + "\n"
    lines += [""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


def postgres_markdown(results, facts, command):
    """The --store postgres report: the settings in force, Latchkey per scenario and instance count against
    pgbench's ceiling, and how throughput changes from one instance count to the next."""
    m, database = facts["machine"], facts["postgres"]
    shown = database["settings"]
    counts = sorted({r["instances"] for r in results if "instances" in r})
    ceilings = {r["kind"]: r for r in results if r["scenario"].startswith("pgbench ceiling") and r["status"] == "ok"}
    pools = ", ".join(f"{size} with {count} instance{'s' if count > 1 else ''}" for count, size in facts["pool_sizes"].items())
    addresses = facts.get("client_addresses", 1)
    clients = ("all load comes from 127.0.0.1, so every send counts in one per-IP row, as does every completion, in Latchkey and "
               "in pgbench alike" if addresses == 1 else
               f"each request names one of {addresses:,} client addresses at random in X-Forwarded-For, which the instances "
               f"believe from 127.0.0.1 (server.trustedProxies), and pgbench counts each transaction under one of {addresses:,} "
               "per-IP keys at random")
    lines = [
        f"Run of {facts['date']}, latchkey {m['latchkey']}, repository at {m['commit']}: `{command}`",
        "",
        f"Machine: {m['nproc']} cores ({m['cpu']}), {m['ram_gib']} GiB RAM, Linux {m['kernel']}, {m['os']}; {m['swift']}; {m['wrk']}; "
        f"{facts['pgbench']}.",
        "",
        f"PostgreSQL {shown['server_version'].split()[0]} on the same machine (scripts/postgres: a throwaway server on loopback, "
        f"TCP; this run added {', '.join(f'{k}={v}' for k, v in database['options'].items())}), read back with SHOW: "
        + ", ".join(f"{name} {value}" for name, value in shown.items() if name != "server_version") + ".",
        "",
        f"Latchkey: storage.kind postgres, storage.postgres.poolSize {pools} "
        + ("(--pool-size), " if facts.get("pool_size_option") else
           f"(each instance's share of wrk's {facts['connections']} connections, so the database serves as many transactions "
           "at once as pgbench's clients), ") +
        "tls disable; one fresh database per instance count, shared by its instances with one server secret and one set of "
        "signing keys (`latchkey init` once per database); log level "
        f"{facts['log_level']}; outbox paused (mail.workers 0). Rate limits as in the SQLite runs (the default windows, the per-IP "
        f"limits raised out of reach; {clients}). wrk: {facts['connections']} connections in all, loopback, {facts['warmup']} s warm-up, "
        "then a CHECKPOINT, "
        f"then {facts['duration']} s measured per scenario; with several instances one wrk process per instance (one thread, its "
        "share of the connections), all at once, requests/s summed and p50/p99 of all requests together computed from each "
        "process's latency distribution (percentiles every 0.5%, merged by request count; per-instance figures below).",
        "",
        "| scenario | instances | requests/s | p50 ms | p99 ms | max ms | errors | CPU cores: latchkey / wrk or pgbench / postgres / other "
        "| ÷ pgbench ceiling | result |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]

    def cpu_cell(r, servers=True):
        cpu = r.get("cpu_cores")
        if not cpu:
            return ""
        return f"{cpu['server']:.2f} / {cpu['wrk']:.2f} / {cpu.get('postgres', 0):.2f} / {cpu['other']:.2f}" if servers else \
            f"– / {cpu['wrk']:.2f} / {cpu.get('postgres', 0):.2f} / {cpu['other']:.2f}"

    ratios = {}
    for r in results:
        ceiling = r["scenario"].startswith("pgbench ceiling")
        instances = "–" if ceiling else str(r.get("instances", ""))
        name = f"pgbench ceiling: {r['kind']}" if ceiling else r.get("kind", r["scenario"])
        if r["status"] != "ok":
            lines.append(f"| {name} | {instances} | | | | | | | | {r['status']}: {r.get('reason', '').replace('|', '/')[:200]} |")
            continue
        share = ""
        if not ceiling and r.get("kind") in ceilings and ceilings[r["kind"]]["requests_per_second"]:
            ratios[(r["kind"], r["instances"])] = r["requests_per_second"] / ceilings[r["kind"]]["requests_per_second"] * 100
            share = f"{ratios[(r['kind'], r['instances'])]:.0f}%"
        lines.append(
            f"| {name} | {instances} | {r['requests_per_second']:,.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['max_ms']:.2f} "
            f"| {r['errors']} | {cpu_cell(r, not ceiling)} | {share} | ok |"
        )

    by_kind = {(r.get("kind"), r.get("instances")): r for r in results if r["status"] == "ok" and "instances" in r}
    if len(counts) > 1:
        lines += ["", "| scenario | " + " | ".join(f"{c} instance{'s' if c > 1 else ''}" for c in counts)
                  + f" | {counts[-1]} ÷ {counts[0]} |", "|---|" + "---:|" * (len(counts) + 1)]
        for kind in ("send", "complete", "refresh"):
            rates = [by_kind.get((kind, c), {}).get("requests_per_second") for c in counts]
            if not any(rates):
                continue
            change = f"{rates[-1] / rates[0] * 100:.0f}%" if rates[0] and rates[-1] else "–"
            lines.append(f"| {kind} | " + " | ".join(f"{rate:,.0f}/s" if rate else "–" for rate in rates) + f" | {change} |")
    opened = [r for r in results if r.get("database_connections") is not None and r["status"] == "ok"]
    if opened:
        lines += ["", "Connections the instances held to the database after each run (pgbench: one per client): "
                  + "; ".join(f"{r['kind']}, {r['instances']}: {r['database_connections']}" for r in opened) + "."]
    several = [r for r in results if r.get("per_instance")]
    if several:
        lines += ["", "Per instance, with several (requests/s, p50 / p99 ms):", ""]
        for r in several:
            parts = "; ".join(f"{part['requests_per_second']:,.0f}/s, {part['p50_ms']:.2f} / {part['p99_ms']:.2f}" for part in r["per_instance"])
            lines.append(f"- {r['kind']}, {r['instances']} instances: {parts}")
    if ratios:
        lines += ["", "| aim (issue #16) | measured | |", "|---|---:|---|"]
        for (kind, count), value in ratios.items():
            what = "send" if kind == "send" else "completion"
            lines.append(f"| {kind} with {count} instance{'s' if count > 1 else ''} ≥ {POSTGRES_CEILING_AIM}% of pgbench's ceiling for a {what} "
                         f"| {value:.0f}% | {'met' if value >= POSTGRES_CEILING_AIM else '**not met**'} |")

    notes = []
    if ceilings or any(r["scenario"].startswith("pgbench ceiling") for r in results):
        planted = next((r.get("planted_codes") for r in results if r["scenario"] == "pgbench ceiling: complete"), None)
        notes.append(
            f"pgbench ceiling: `pgbench -M extended -c {facts['connections']} -j {THREADS}` with scripts/bench-pg/send.sql and complete.sql "
            "on a fresh database `latchkey init` migrated, the same warm-up, checkpoint and duration: the statements PostgresStore runs for "
            "one send (4 rate-limit upserts, the pending request, its audit event, the outstanding-code trim, the queued letter of "
            f"{facts.get('sealed_letter_bytes') or DEFAULT_LETTER_BYTES} bytes) and one completion (1 rate-limit upsert, the code looked "
            "up, the account looked for, the code consumed, account, identity, session, refresh token, audit event), each between "
            "BEGIN and COMMIT at the store's isolation (READ COMMITTED), with values made from pgbench's random variables"
            + (f"; the completions consumed codes from {planted:,} planted pending requests." if planted else "."))
    notes.append("CPU cores over each measured run: latchkey is every instance's process (/proc/PID/stat), wrk or pgbench their "
                 "rusage, postgres every server process (the postmaster, its children and the children it reaped), other the rest "
                 "of /proc/stat's busy time: the kernel's own threads working for PostgreSQL's writes (ext4 and writeback "
                 "kworkers, a few tenths of a core), and anything else that ran. Much more than that means the machine was "
                 "shared, and the numbers are lower than it can do.")
    lines += [""] + [f"- {note}" for note in notes]
    return "\n".join(lines) + "\n"


def record(report):
    """Puts the report between BENCHMARKS.md's markers."""
    begin, end = "<!-- bench:results:begin -->", "<!-- bench:results:end -->"
    text = BENCHMARKS.read_text() if BENCHMARKS.exists() else f"# Benchmarks\n\n{begin}\n{end}\n"
    if begin not in text or end not in text:
        text = text.rstrip("\n") + f"\n\n{begin}\n{end}\n"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    BENCHMARKS.write_text(f"{head}{begin}\n{report}{end}{tail}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=int, default=15, help="seconds of each measured run (default 15)")
    parser.add_argument("--warmup", type=int, default=3, help="seconds of each warm-up run (default 3)")
    parser.add_argument("--scenarios", help=f"comma-separated subset of {','.join(SCENARIOS)} (default all); with --store postgres of "
                        f"{','.join(POSTGRES_SCENARIOS)}")
    parser.add_argument("--safe", action="store_true", help='run with storage.sqlite.synchronous "full" instead of the default')
    parser.add_argument("--es256", action="store_true", help='also run complete with tokens.algorithm "ES256"')
    parser.add_argument("--connections", type=int, default=64, help="wrk connections (default 64)")
    parser.add_argument("--mail-workers", type=int, default=8, help="mail.workers of the deliver scenario (default 8)")
    parser.add_argument("--log-level", default="warning", help="the server's logLevel (default warning; production's is info)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (logs, database)")
    parser.add_argument("--profile", action="store_true", help="record each measured run with perf (Debian linux-perf) into bench/results/")
    parser.add_argument("--no-record", action="store_true", help="do not update BENCHMARKS.md even after a full run")
    parser.add_argument("--growth", action="store_true", help="send, complete and refresh on an empty database and on a grown one (see above)")
    parser.add_argument("--sign-ins", type=int, default=1_000_000, help="--growth: completed sign-ins to fill in (default 1,000,000)")
    parser.add_argument("--refreshes", type=int, default=200_000, help="--growth: refreshes to fill in (default 200,000)")
    parser.add_argument("--days", type=int, default=180, help="--growth: days the sign-ins are spread over (default 180)")
    parser.add_argument("--refresh-days", type=int, default=30, help="--growth: days the refreshes are spread over (default 30)")
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite",
                        help="sqlite (default): the scenarios above; postgres: send, complete and refresh against --instances "
                             "instances on one throwaway PostgreSQL server, and pgbench's ceiling (see BENCHMARKS.md)")
    parser.add_argument("--instances", default="1", help="--store postgres: comma-separated instance counts, one run each (say 1,2)")
    parser.add_argument("--pool-size", type=int, help="--store postgres: storage.postgres.poolSize of each instance (default: "
                                                      "--connections divided by the instance count)")
    parser.add_argument("--client-addresses", type=int, default=1, metavar="N",
                        help="--store postgres: spread requests over N client addresses (X-Forwarded-For from a trusted "
                             "127.0.0.1, and N per-IP counter keys in pgbench) instead of all from 127.0.0.1, whose one per-IP "
                             "counter row every send and completion then waits for (default 1)")
    parser.add_argument("--pg-setting", action="append", default=[], metavar="NAME=VALUE",
                        help="--store postgres: a server setting on top of scripts/postgres's and the benchmark's fsync=on "
                             "(repeatable; say fsync=off or shared_buffers=1GB)")
    arguments = parser.parse_args()
    if arguments.duration < 1 or arguments.warmup < 1:
        parser.error("--duration and --warmup are whole seconds, at least 1")
    try:
        instance_counts = [int(n) for n in arguments.instances.split(",") if n.strip()]
    except ValueError:
        parser.error("--instances is a comma-separated list of instance counts, say 1,2")
    if not instance_counts or min(instance_counts) < 1 or max(instance_counts) > arguments.connections:
        parser.error("--instances: each count from 1 to --connections")
    postgres = arguments.store == "postgres"
    if not postgres and (instance_counts != [1] or arguments.pool_size or arguments.pg_setting or arguments.client_addresses != 1):
        parser.error("--instances, --pool-size, --pg-setting and --client-addresses go with --store postgres")
    if not 1 <= arguments.client_addresses <= 1 << 24:
        parser.error("--client-addresses is from 1 to 16777216 (10.0.0.0/8)")
    if postgres and (arguments.growth or arguments.safe or arguments.es256):
        parser.error("--growth, --safe and --es256 measure the SQLite store; leave them out with --store postgres")
    if any("=" not in setting for setting in arguments.pg_setting):
        parser.error("--pg-setting takes NAME=VALUE")
    if arguments.pool_size is not None and not 1 <= arguments.pool_size <= 200:
        parser.error("--pool-size is from 1 to 200, as storage.postgres.poolSize")

    known, prerequisites = (POSTGRES_SCENARIOS, POSTGRES_PREREQUISITES) if postgres else (SCENARIOS, PREREQUISITES)
    scenarios = [s.strip() for s in (arguments.scenarios or ",".join(known)).split(",") if s.strip()]
    unknown = [s for s in scenarios if s not in known]
    if unknown:
        parser.error(f"unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    for scenario, needs in prerequisites.items():
        for needed in needs:
            if scenario in scenarios and needed not in scenarios:
                print(f"bench: also running {needed}, which {scenario} needs")
                scenarios.append(needed)
    if not BINARY.is_file():
        sys.exit(f"bench: no latchkey binary at {BINARY}; run scripts/bench (it builds one) or set LATCHKEY_BIN")
    if arguments.growth and min(arguments.sign_ins, arguments.days, arguments.refresh_days) < 1:
        parser.error("--sign-ins, --days and --refresh-days are at least 1")

    command = "scripts/bench" + ("" if len(sys.argv) == 1 else " " + shlex.join(sys.argv[1:]))
    bench = Bench(arguments)
    started, stem = bench.started, bench.stem
    try:
        if postgres:
            bench.run_postgres(scenarios, instance_counts)
        elif arguments.growth:
            bench.run_growth()
        else:
            bench.run(scenarios)
    except BenchError as error:
        bench.cleanup()
        sys.exit(f"bench: {error}")
    except BaseException:
        bench.cleanup()
        raise
    bench.cleanup()

    facts = bench.facts
    facts.update(date=started.strftime("%Y-%m-%d %H:%M UTC"), duration=arguments.duration, warmup=arguments.warmup,
                 connections=arguments.connections, threads=THREADS, log_level=arguments.log_level)
    if postgres:
        facts.update(client_addresses=arguments.client_addresses, pool_size_option=arguments.pool_size)
        report = postgres_markdown(bench.results, facts, command)
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / f"{stem}-postgres.json").write_text(json.dumps({"command": command, "facts": facts, "results": bench.results}, indent=2) + "\n")
        (RESULTS / f"{stem}-postgres.md").write_text(report)
        print()
        print(report)
        print(f"bench: results in {RESULTS / stem}-postgres.json and .md (BENCHMARKS.md is never updated by --store postgres)")
        failed = [r["scenario"] for r in bench.results if r["status"] == "FAILED"]
        if failed:
            sys.exit(f"bench: FAILED: {', '.join(failed)}")
        return
    level = bench.synchronous or "normal"
    durability = f"SQLite journal_mode={facts['journal_mode']}, synchronous={level.upper()}"
    durability += " (--safe)" if arguments.safe else " (the production default)"
    if arguments.growth:
        report = growth_markdown(bench.results, facts, command, durability)
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / f"{stem}-growth.json").write_text(json.dumps({"command": command, "facts": facts, "results": bench.results}, indent=2) + "\n")
        (RESULTS / f"{stem}-growth.md").write_text(report)
        print()
        print(report)
        print(f"bench: results in {RESULTS / stem}-growth.json and .md (BENCHMARKS.md is never updated by --growth)")
        failed = [r["scenario"] for r in bench.results if r["status"] == "FAILED"]
        if failed:
            sys.exit(f"bench: FAILED: {', '.join(failed)}")
        return
    if not facts["synchronous_key"]:
        durability += "; this build has no storage.sqlite.synchronous key and uses GRDB's DatabasePool default, NORMAL"
    notes = []
    if not facts["outbox_pause"]:
        notes.append(
            "This build refuses `mail.workers: 0`, so the outbox could not be paused: during send one worker took each "
            "message, failed at once against a closed port and gave it up (`maxAttempts: 1`), which adds a read and a "
            "write per message to what send measures; deliver queued them again with `latchkey outbox --retry-failed`."
        )
    facts["durability"] = durability
    report = markdown(bench.results, facts, command, durability, notes)
    values = derived(bench.results, facts)

    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{stem}.json").write_text(json.dumps({
        "command": command, "facts": facts, "results": bench.results,
        "targets": [dict(zip(("target", "measured", "result"), row)) for row in target_rows(values)],
    }, indent=2) + "\n")
    (RESULTS / f"{stem}.md").write_text(report)
    print()
    print(report)
    print(f"bench: results in {RESULTS / stem}.json and .md")
    full = set(scenarios) >= set(SCENARIOS)
    if full and not arguments.no_record and not arguments.profile:  # perf slows the server
        record(report)
        print(f"bench: {BENCHMARKS.name} updated")
    failed = [r["scenario"] for r in bench.results if r["status"] == "FAILED"]
    if failed:
        sys.exit(f"bench: FAILED: {', '.join(failed)}")


if __name__ == "__main__":
    main()
