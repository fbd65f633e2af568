"""A local stand-in for Apple's APNs provider API, over HTTP/2 and TLS as APNs speaks it (hypercorn, h2), for the
tests of app verification (issue #34): Latchkey's `accounts:verifyClient` sends its silent push here.

Started as `python apns_stub.py --directory DIR --key-id KID --team-id TEAM --public-key PEM` (and
`--until-stdin-closes` to end with the parent's pipe). It writes a throwaway
certificate for 127.0.0.1 to DIR/cert.pem (the client trusts it through `appVerification.apns.caFile`), prints
`PORT n` once it listens, and appends every push it accepts to DIR/pushes.jsonl: the path prefix (`/production` or
`/sandbox`, from the URL Latchkey was configured with), the device token, the headers APNs reads, the HTTP version and
the JSON payload. It checks what APNs checks: HTTP/2, `POST /3/device/{token}`, the provider token (an ES256 JWT whose
`kid` is the key id and `iss` the team, signed by the key whose public half it was given, `iat` within the hour),
`apns-topic`, `apns-push-type: background` and `apns-priority: 5`, answering APNs's reasons otherwise.

Device tokens that play a part: `00…` (32 zero bytes) is refused as `BadDeviceToken`, `11…` gets no answer for a
minute (APNs slow), `22…` is answered 503 `ServiceUnavailable`, `33…` 403 `ExpiredProviderToken` (as APNs answers a
provider token it no longer takes). Each recorded push also has the `iat` of its provider token.
"""

import argparse
import asyncio
import datetime
import ipaddress
import json
import os
import socket
import sys
import threading
import time

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from hypercorn.asyncio import serve
from hypercorn.config import Config

BAD, SLOW, DOWN, STALE = "00" * 32, "11" * 32, "22" * 32, "33" * 32


def exit_when_stdin_closes():
    """For a parent that cannot stop its children (the Swift test process): the stub ends with the parent's pipe."""
    def wait():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=wait, daemon=True).start()


def write_certificate(directory):
    """A self-signed certificate for 127.0.0.1 and localhost, and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "apns-stub")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    with open(cert_path, "wb") as file:
        file.write(certificate.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as file:
        file.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return cert_path, key_path


def make_app(arguments, public_key):
    pushes = os.path.join(arguments.directory, "pushes.jsonl")

    def refusal(reason, status):
        return status, {"reason": reason}

    def check(scope, headers, token):
        if scope["http_version"] != "2":
            return refusal("HTTP2Required", 400)
        if scope["method"] != "POST":
            return refusal("MethodNotAllowed", 405)
        authorization = headers.get("authorization", "")
        if not authorization.startswith("bearer "):
            return refusal("MissingProviderToken", 403)
        provider_token = authorization[len("bearer "):]
        try:
            header = jwt.get_unverified_header(provider_token)
            claims = jwt.decode(provider_token, public_key, algorithms=["ES256"], options={"require": ["iss", "iat"]})
        except jwt.PyJWTError:
            return refusal("InvalidProviderToken", 403)
        if header.get("kid") != arguments.key_id or claims.get("iss") != arguments.team_id:
            return refusal("InvalidProviderToken", 403)
        if abs(time.time() - claims["iat"]) > 3600:
            return refusal("ExpiredProviderToken", 403)
        if not headers.get("apns-topic"):
            return refusal("MissingTopic", 400)
        if headers.get("apns-push-type") != "background":
            return refusal("InvalidPushType", 400)
        if headers.get("apns-priority") != "5":
            return refusal("BadPriority", 400)
        if token == BAD:
            return refusal("BadDeviceToken", 400)
        if token == DOWN:
            return refusal("ServiceUnavailable", 503)
        if token == STALE:
            return refusal("ExpiredProviderToken", 403)
        return claims

    async def app(scope, receive, send):
        if scope["type"] != "http":
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {name.decode().lower(): value.decode() for name, value in scope["headers"]}
        prefix, _, rest = scope["path"].partition("/3/device/")
        token = rest if _ else ""
        if token == SLOW:
            await asyncio.sleep(60)
        outcome = check(scope, headers, token) if token else refusal("BadPath", 404)
        if isinstance(outcome, dict):
            record = {
                "prefix": prefix, "token": token, "http_version": scope["http_version"], "iat": outcome["iat"],
                "headers": {name: headers.get(name) for name in ("apns-topic", "apns-push-type", "apns-priority")},
                "payload": json.loads(body),
            }
            with open(pushes, "a") as file:
                file.write(json.dumps(record) + "\n")
            status, answer = 200, b""
        else:
            status, answer = outcome[0], json.dumps(outcome[1]).encode()
        await send({"type": "http.response.start", "status": status, "headers": [(b"apns-id", b"00000000-0000-0000-0000-000000000000")]})
        await send({"type": "http.response.body", "body": answer})

    return app


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--directory", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--team-id", required=True)
    parser.add_argument("--public-key", required=True)
    parser.add_argument("--until-stdin-closes", action="store_true")
    arguments = parser.parse_args()
    if arguments.until_stdin_closes:
        exit_when_stdin_closes()
    with open(arguments.public_key) as file:
        public_key = file.read()
    cert_path, key_path = write_certificate(arguments.directory)
    # Bound here, so the port the system picked can be printed; hypercorn serves the socket it is handed.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.set_inheritable(True)
    config = Config()
    config.bind = [f"fd://{listener.fileno()}"]
    config.certfile, config.keyfile = cert_path, key_path
    config.alpn_protocols = ["h2"]
    config.accesslog = None
    config.errorlog = None
    print(f"PORT {listener.getsockname()[1]}", flush=True)
    await serve(make_app(arguments, public_key), config)

if __name__ == "__main__":
    asyncio.run(main())
