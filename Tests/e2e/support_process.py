"""A local stand-in for an outside party (Tests/support/*.py) in a subprocess: started on a free port, ready once it
writes its `port` file into its directory, and stopped when the test ends."""

import subprocess
import sys
import time
from pathlib import Path

from harness import free_port

START_TIMEOUT = 15


class SupportProcess:
    """One process of `script` recording into `directory`; `start` may be called again on the same port after `stop`."""

    name = "support process"  # for messages
    log = "process.log"
    lifetime = 300  # seconds the process lives at most, should a test leave it behind

    def __init__(self, script, directory, port=None, *options):
        self.script = script
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.options = list(options)
        self.process = None

    def start(self):
        (self.directory / "port").unlink(missing_ok=True)
        self.process = subprocess.Popen(
            [sys.executable, str(self.script), "--port", str(self.port), "--dir", str(self.directory), "--lifetime", str(self.lifetime),
             *self.options],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self.directory / self.log, "ab"),
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not (self.directory / "port").exists():
            assert self.process.poll() is None, (self.directory / self.log).read_text()
            assert time.monotonic() < deadline, f"{self.name} did not start"
            time.sleep(0.05)
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None
