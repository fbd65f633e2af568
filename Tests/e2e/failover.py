"""A pg_auto_failover formation for the end-to-end tests (scripts/pg-auto-failover in a directory of its own): a
monitor and two PostgreSQL nodes on loopback ports, with synchronous replication between the nodes, and what the
failover tests do to it.

Tests reach it through test_failover.py's module fixture `formation`:

    formation.hosts                   # ["127.0.0.1:P1", "127.0.0.1:P2"], for storage.postgres.hosts
    formation.primary()               # the writable node's port, asked of the nodes themselves
    formation.kill_node()             # kill -9 the primary's keeper and PostgreSQL (its machine died): its name, when
    formation.kill_postmaster()       # kill -9 the primary's postmaster alone: its port, when
    formation.start_node(name)        # its keeper again: it rejoins as the standby
    formation.switchover()            # pg_autoctl perform switchover, returning once it is done
    formation.stop_monitor(), formation.start_monitor()
    formation.wait()                  # until one primary and one synchronous secondary again
"""

import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

from harness import REPO, free_port

SCRIPT = REPO / "scripts" / "pg-auto-failover"


def psql(port, database):
    return ["psql", "-X", "-h", "127.0.0.1", "-p", str(port), "-U", "latchkey", "-d", database, "-v", "ON_ERROR_STOP=1"]


class Formation:
    """A monitor and node1, node2, started by `start` in a temporary directory outside pytest's (which only root may
    enter, and PostgreSQL runs as the unprivileged user it insists on)."""

    def __init__(self):
        self.directory = Path(tempfile.mkdtemp(prefix="latchkey-pgaf-"))
        self.monitor_port, *self.ports = free_port(), free_port(), free_port()
        self.hosts = [f"127.0.0.1:{port}" for port in self.ports]

    def run(self, *arguments, timeout=120):
        """scripts/pg-auto-failover's ARGUMENTS for this formation: its output, or the test fails with the logs."""
        result = subprocess.run([str(SCRIPT), arguments[0], str(self.directory), *map(str, arguments[1:])],
                                capture_output=True, text=True, timeout=timeout)
        assert result.returncode == 0, f"pg-auto-failover {' '.join(map(str, arguments))}: {result.stderr}\n{self.logs()}"
        return result.stdout.strip()

    def start(self):
        self.run("start", self.monitor_port, *self.ports, timeout=180)
        return self

    def stop(self):
        subprocess.run([str(SCRIPT), "stop", str(self.directory)], capture_output=True, timeout=60)
        shutil.rmtree(self.directory, ignore_errors=True)

    def primary(self):
        return int(self.run("primary"))

    def secondary(self):
        return int(self.run("secondary"))

    def wait(self, timeout=60):
        """Until one primary and one secondary again, the secondary synchronous."""
        self.run("wait", timeout, timeout=timeout + 30)

    def switchover(self):
        self.run("switchover", timeout=90)

    def kill_node(self):
        """kill -9 of the primary's keeper and PostgreSQL: (the node's name, when it was killed on time.monotonic())."""
        name, killed = self.run("kill-node").split()
        return name, time.monotonic() - (time.time() - float(killed))

    def kill_postmaster(self):
        """kill -9 of the primary's postmaster alone: (its port, when it was killed on time.monotonic())."""
        port, killed = self.run("kill-postmaster").split()
        return int(port), time.monotonic() - (time.time() - float(killed))

    def start_node(self, name):
        self.run("start-node", name)

    def stop_monitor(self):
        self.run("stop-monitor")

    def start_monitor(self):
        self.run("start-monitor")

    def state(self):
        return self.run("state")

    def create_database(self):
        """A fresh database on the primary, owned by the role "latchkey", once the standby has it too: its name.

        A synchronous commit returns once the standby has the WAL, not once it has replayed it, and an instance
        starting at once would find no such database on the standby, which stops its start-up."""
        name = "e2e_" + uuid.uuid4().hex
        subprocess.run([*psql(self.primary(), "latchkey"), "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True, timeout=30)
        standby, deadline = self.secondary(), time.monotonic() + 30
        while subprocess.run([*psql(standby, name), "-c", "SELECT 1"], capture_output=True, timeout=30).returncode != 0:
            assert time.monotonic() < deadline, f"database {name} not on the standby after 30 s"
            time.sleep(0.1)
        return name

    def query(self, database, sql):
        """`sql`'s rows on the primary, as psql prints them unaligned: one line a row, columns joined by "|"."""
        result = subprocess.run([*psql(self.primary(), database), "-At", "-c", sql], capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        return result.stdout.splitlines()

    def logs(self, lines=40):
        """The end of every service's log, for a failing assertion's message."""
        parts = []
        for name in ("monitor", "node1", "node2"):
            path = self.directory / f"{name}.log"
            if path.exists():
                parts.append(f"--- {name}.log\n" + "\n".join(path.read_text(errors="replace").splitlines()[-lines:]))
        return "\n".join(parts)
