"""Password hashes made by reference implementations, for Latchkey's import tests: one JSON object per line.

Each line: {"algorithm", "parameters": {...}, "salt", "hash", "password"} with bytes in base64. Firebase's scrypt comes
from PyPI's `firebase-scrypt`, bcrypt from `bcrypt`, everything else from Python's `hashlib` and `hmac`. For the digest algorithms the
rounds (the digest applied that many times, at least once) and the input order follow Latchkey's reading of Firebase's
parameters. Parameters are kept small so that the Swift test checks many inputs in a few seconds.
Usage: reference_password_hashes.py COUNT SEED
"""

import base64
import hashlib
import hmac
import json
import random
import sys

import bcrypt
import firebase_scrypt


def b64(data):
    return base64.b64encode(data).decode()


def digest_rounds(name, data, rounds):
    output = hashlib.new(name, data).digest()
    for _ in range(1, max(rounds, 1)):
        output = hashlib.new(name, output).digest()
    return output


def cases(rng):
    password = "".join(rng.choice("abcdefghijklmnopqrstuvwxyzÄÖü€ 0123456789!") for _ in range(rng.randint(6, 40)))
    encoded = password.encode()
    salt = rng.randbytes(rng.randint(0, 24))
    key = rng.randbytes(rng.randint(16, 64))

    separator = rng.randbytes(rng.randint(0, 2))
    rounds, memory_cost = rng.randint(1, 8), rng.randint(1, 10)
    derived = firebase_scrypt.generate_derived_key(password, salt, separator, rounds, memory_cost)
    yield "SCRYPT", {"signerKey": b64(key), "saltSeparator": b64(separator), "rounds": rounds, "memoryCost": memory_cost}, salt, \
        firebase_scrypt.encrypt(key, derived), password

    n, r, p, length = 2 ** rng.randint(1, 10), rng.randint(1, 8), rng.randint(1, 3), rng.randint(16, 64)  # N < 2^(16·r)
    yield "STANDARD_SCRYPT", {"cpuMemCost": n, "blockSize": r, "parallelization": p, "dkLen": length}, salt, \
        hashlib.scrypt(encoded, salt=salt, n=n, r=r, p=p, dklen=length), password

    if len(encoded) <= 72:  # bcrypt reads no further; Latchkey refuses longer passwords against it
        yield "BCRYPT", {}, b"", bcrypt.hashpw(encoded, bcrypt.gensalt(4)), password

    iterations = rng.randint(1, 2000)
    for name, algorithm in (("sha256", "PBKDF2_SHA256"), ("sha1", "PBKDF_SHA1")):
        yield algorithm, {"rounds": iterations}, salt, hashlib.pbkdf2_hmac(name, encoded, salt, iterations, rng.randint(16, 40)), password

    for name in ("sha512", "sha256", "sha1", "md5"):
        order = rng.choice(["SALT_AND_PASSWORD", "PASSWORD_AND_SALT", None])
        data = encoded + salt if order == "PASSWORD_AND_SALT" else salt + encoded
        parameters = {"signerKey": b64(key)} | ({"passwordHashOrder": order} if order else {})
        yield "HMAC_" + name.upper(), parameters, salt, hmac.new(key, data, name).digest(), password
        digest_count = rng.randint(0, 50)
        yield name.upper(), {"rounds": digest_count} | ({"passwordHashOrder": order} if order else {}), salt, \
            digest_rounds(name, data, digest_count), password


def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for _ in range(count):
        for algorithm, parameters, salt, hashed, password in cases(rng):
            print(json.dumps({"algorithm": algorithm, "parameters": parameters, "salt": b64(salt), "hash": b64(hashed), "password": password}))


if __name__ == "__main__":
    main()
