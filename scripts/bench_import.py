"""Users per second that `latchkey import --firebase` stores (issue #21).

Writes a `firebase auth:export` JSON file of --users users, each with an address, a display name, a creation time and
a bcrypt hash (well-formed and distinct; import checks a hash's form, never a password, so random bcrypt strings
cost it what real ones do), every tenth also with a Google identity. Imports it into a fresh store with a timer
around the command (the process's whole run: reading, checking, sealing the hashes, writing), then again, when every
user is already there and the run only reads. The store is production's: SQLite with synchronous NORMAL, or with
--store postgres a throwaway PostgreSQL server with fsync on.
"""

import argparse
import base64
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BINARY = Path(os.environ.get("LATCHKEY_BIN", REPO / ".build-release" / "release" / "latchkey"))
BCRYPT_ALPHABET = "./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
PORT = 55499


def users_file(count, rng):
    users = []
    for n in range(count):
        hashed = "$2b$10$" + "".join(rng.choice(BCRYPT_ALPHABET) for _ in range(53))
        user = {"localId": f"user{n:07d}", "email": f"user{n}@example.com", "emailVerified": n % 2 == 0,
                "passwordHash": base64.b64encode(hashed.encode()).decode(), "displayName": f"User {n}",
                "createdAt": str(1_500_000_000_000 + n), "disabled": False}
        if n % 10 == 0:
            user["providerUserInfo"] = [{"providerId": "google.com", "rawId": f"g{n}", "email": f"user{n}@gmail.com"}]
        users.append(user)
    return {"users": users}


def timed_import(directory):
    started = time.monotonic()
    result = subprocess.run([str(BINARY), "import", "--firebase", "users.json", "--hash-config", "bcrypt.txt", "--config", "latchkey.json"],
                            cwd=directory, capture_output=True, text=True, timeout=3600)
    elapsed = time.monotonic() - started
    if result.returncode != 0:
        sys.exit(f"bench-import: the import failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return elapsed, result.stdout.splitlines()[0]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=100_000, help="users in the file (default 100,000)")
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    arguments = parser.parse_args()
    if arguments.users < 1:
        parser.error("--users is at least 1")
    if not BINARY.is_file():
        sys.exit(f"bench-import: no latchkey binary at {BINARY}; run scripts/bench-import (it builds one) or set LATCHKEY_BIN")

    directory = Path(tempfile.mkdtemp(prefix="latchkey-bench-import-"))
    postgres_directory = None
    try:
        storage = {"sqlite": {"path": "data/latchkey.sqlite"}}
        if arguments.store == "postgres":
            postgres_directory = tempfile.mkdtemp(prefix="latchkey-bench-pg-")
            environment = dict(os.environ, POSTGRES_OPTIONS="-c fsync=on")
            subprocess.run([str(REPO / "scripts" / "postgres"), "start", postgres_directory, str(PORT)], check=True, timeout=120, env=environment)
            storage = {"kind": "postgres", "postgres": {"host": "127.0.0.1", "port": PORT, "database": "postgres", "user": "latchkey", "tls": "disable"}}
        config = {"projectId": "bench", "publicURL": "https://auth.example.com", "mode": "production", "apiKeys": ["bench"],
                  "authorizedDomains": ["example.com"], "storage": storage, "templatesDirectory": str(REPO / "templates"),
                  "tokens": {"keyDirectory": "data/keys"}, "security": {"serverSecretFile": "data/server-secret"},
                  "mail": {"transport": "file", "file": {"directory": "data/outbox"}, "from": "no-reply@example.com"}}
        (directory / "latchkey.json").write_text(json.dumps(config))
        (directory / "bcrypt.txt").write_text("hash_config {\n  algorithm: BCRYPT,\n}\n")
        (directory / "users.json").write_text(json.dumps(users_file(arguments.users, random.Random(21)), indent=2))
        size = (directory / "users.json").stat().st_size
        subprocess.run([str(BINARY), "init", "--config", "latchkey.json"], cwd=directory, check=True, capture_output=True, timeout=120)

        first, first_line = timed_import(directory)
        again, again_line = timed_import(directory)
        command = "scripts/bench-import" + ("" if len(sys.argv) == 1 else " " + " ".join(sys.argv[1:]))
        print(f"`{command}`: {arguments.users:,} users ({size / 1e6:.1f} MB of JSON, bcrypt hashes, every tenth with a Google identity), "
              f"{arguments.store}, {os.cpu_count()} cores")
        print()
        print("| run | what latchkey import printed | seconds | users/s |")
        print("|---|---|---:|---:|")
        print(f"| first, into an empty store | {first_line} | {first:.2f} | {arguments.users / first:,.0f} |")
        print(f"| again, the same file | {again_line} | {again:.2f} | {arguments.users / again:,.0f} |")
    finally:
        if postgres_directory:
            subprocess.run([str(REPO / "scripts" / "postgres"), "stop", postgres_directory], check=False, timeout=60)
            shutil.rmtree(postgres_directory, ignore_errors=True)
        if arguments.keep:
            print(f"bench-import: kept {directory}")
        else:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
