#!/usr/bin/env python3
"""A small SMTP server for Latchkey's mail tests, built on aiosmtpd.

It listens on 127.0.0.1 and records what arrives in --dir:
  port          the port it listens on, written once it accepts connections (so --port 0 works)
  connections   how many TCP connections it has accepted so far
  disconnections   how many of them have ended
  NNNN.eml      each accepted message, exactly as received
  NNNN.json     its envelope: mail_from, rcpt_tos, tls (whether STARTTLS or implicit TLS was in use), auth (login or null)

Behaviour switches:
  --tls-cert/--tls-key   offer STARTTLS with this certificate (or serve implicit TLS with --implicit-tls)
  --require-starttls     refuse everything but EHLO/STARTTLS/QUIT before STARTTLS
  --auth-user/--auth-password   require AUTH (PLAIN or LOGIN) with these credentials
  --fail-first N         answer 451 at the end of DATA to the first N messages
  --reject RCPT          answer 550 to RCPT TO for this address
  --reply-delay S        wait S seconds after storing a message before answering 250, to catch clients mid-delivery
  --idle-timeout S       drop a connection idle for S seconds (aiosmtpd says 421 first)
  --silent               accept connections but never say anything, to test timeouts

It runs until it gets SIGTERM, for --lifetime seconds (default 300), or, with --exit-on-stdin-eof, until its
standard input reaches end of file, so that it dies with the test process holding the other end of the pipe.
"""

import argparse
import asyncio
import json
import logging
import os
import signal
import ssl
import sys
import threading

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


def write_atomically(path, data):
    temporary = path + ".tmp"
    with open(temporary, "wb") as file:
        file.write(data)
    os.replace(temporary, path)


class Sink:
    """The aiosmtpd handler: applies the failure switches and stores accepted messages."""

    def __init__(self, directory, fail_first, reject, reply_delay=0):
        self.directory = directory
        self.reply_delay = reply_delay
        self.failures_left = fail_first
        self.reject = reject.lower() if reject else None
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.reject and address.lower() == self.reject:
            return "550 5.1.1 Mailbox unavailable"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.failures_left > 0:
            self.failures_left -= 1
            return "451 4.3.0 Try again later"
        self.count += 1
        base = os.path.join(self.directory, "%04d" % self.count)
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": session.ssl is not None or server.transport.get_extra_info("sslcontext") is not None,
            "auth": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
        }
        # The .eml is written last, so a reader that sees it also finds the .json.
        write_atomically(base + ".json", json.dumps(meta).encode())
        write_atomically(base + ".eml", envelope.original_content or envelope.content)
        # Stored but not yet acknowledged: a client killed now has delivered a message it does not know about.
        await asyncio.sleep(self.reply_delay)
        return "250 OK"


class Counter:
    def __init__(self, directory, name):
        self.path = os.path.join(directory, name)
        self.value = 0
        write_atomically(self.path, b"0")

    def increment(self):
        self.value += 1
        write_atomically(self.path, str(self.value).encode())


class CountingSMTP(SMTP):
    """aiosmtpd's protocol, counting connections that ended (on either side)."""

    def __init__(self, handler, disconnections, **options):
        super().__init__(handler, **options)
        self.disconnections = disconnections

    def connection_lost(self, error):
        super().connection_lost(error)
        self.disconnections.increment()


class Silent(asyncio.Protocol):
    """Accepts a connection and never answers, so the client runs into its timeout."""

    def connection_made(self, transport):
        self.transport = transport


def make_authenticator(user, password):
    def authenticate(server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user and auth_data.password.decode() == password:
            return AuthResult(success=True, auth_data=auth_data)
        return AuthResult(success=False, handled=False)

    return authenticate


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--require-starttls", action="store_true")
    parser.add_argument("--auth-user")
    parser.add_argument("--auth-password")
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--reject")
    parser.add_argument("--reply-delay", type=float, default=0)
    parser.add_argument("--idle-timeout", type=float, default=300)
    parser.add_argument("--silent", action="store_true")
    parser.add_argument("--lifetime", type=float, default=300)
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    return parser.parse_args()


async def serve(arguments):
    os.makedirs(arguments.dir, exist_ok=True)
    counter = Counter(arguments.dir, "connections")
    disconnections = Counter(arguments.dir, "disconnections")
    loop = asyncio.get_running_loop()

    tls_context = None
    if arguments.tls_cert:
        tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls_context.load_cert_chain(arguments.tls_cert, arguments.tls_key)

    # asyncio calls the factory once per accepted connection (STARTTLS keeps the same protocol object),
    # which makes it the place to count connections.
    if arguments.silent:

        def factory():
            counter.increment()
            return Silent()

    else:
        handler = Sink(arguments.dir, arguments.fail_first, arguments.reject, arguments.reply_delay)
        options = {"timeout": arguments.idle_timeout}
        if tls_context and not arguments.implicit_tls:
            options.update(tls_context=tls_context, require_starttls=arguments.require_starttls)
        if arguments.auth_user:
            options.update(
                authenticator=make_authenticator(arguments.auth_user, arguments.auth_password),
                auth_required=True,
                auth_require_tls=tls_context is not None and not arguments.implicit_tls,
            )

        def factory():
            counter.increment()
            return CountingSMTP(handler, disconnections, loop=loop, **options)

    server = await loop.create_server(
        factory, host="127.0.0.1", port=arguments.port, ssl=tls_context if arguments.implicit_tls else None
    )
    port = server.sockets[0].getsockname()[1]
    write_atomically(os.path.join(arguments.dir, "port"), str(port).encode())
    print(port, flush=True)
    async with server:
        try:
            await asyncio.wait_for(server.serve_forever(), arguments.lifetime)
        except asyncio.TimeoutError:
            pass


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    arguments = parse_arguments()
    # A parent such as Foundation's Process may hand down a mask blocking SIGTERM, which would make us unkillable.
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if arguments.exit_on_stdin_eof:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    # aiosmtpd warns about auth without TLS and logs every session; the tests read files, not logs.
    logging.getLogger("mail.log").setLevel(logging.ERROR)
    try:
        asyncio.run(serve(arguments))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
