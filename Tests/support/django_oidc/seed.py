"""Prepares the provider's database in DJANGO_OIDC_DIR: schema, signing key, one user and one client; then serves.

    SITE_URL=... DJANGO_OIDC_DIR=... python seed.py --client-id ID --client-secret SECRET --password PW \
        [--serve PORT] REDIRECT_URI...

Safe to run again on the same directory (a restart): tables and the key are made only once, so the ID tokens keep
their `kid`; the user and the client are overwritten with the given values.

With --serve it goes on to serve on 127.0.0.1:PORT with the threaded WSGI server Django's `runserver` uses, in
the same process: that skips a second Django start and runserver's system checks (runserver alone takes about a
second to answer; this whole script, on a fresh directory, under half a second).
"""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.core.servers.basehttp import run  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402
from oidc_provider.models import RESPONSE_TYPE_CHOICES, Client, ResponseType, RSAKey  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument("--client-id", required=True)
parser.add_argument("--client-secret", required=True)
parser.add_argument("--username", default="alice")
parser.add_argument("--password", required=True)
parser.add_argument("--serve", type=int, metavar="PORT")
parser.add_argument("redirect_uris", nargs="+")
args = parser.parse_args()

call_command("migrate", run_syncdb=True, verbosity=0)  # creates missing tables only (see MIGRATION_MODULES)
# Without migrations the rows oidc_provider's migration 0026 would insert are missing.
for value, description in RESPONSE_TYPE_CHOICES:
    ResponseType.objects.get_or_create(value=value, defaults={"description": description})
if not RSAKey.objects.exists():
    call_command("creatersakey")

user, _ = User.objects.get_or_create(username=args.username)
user.email = f"{args.username}@example.com"
user.first_name, user.last_name = args.username.capitalize(), "Example"
user.set_password(args.password)
user.save()

client, _ = Client.objects.get_or_create(client_id=args.client_id)
client.name = "Latchkey"
client.client_type = "confidential"
client.client_secret = args.client_secret
client.jwt_alg = "RS256"
client.require_consent = False
client.redirect_uris = args.redirect_uris
client.save()
# "code id_token" and the other hybrids stay off: Latchkey speaks the code flow and the implicit id_token flow.
client.response_types.set(ResponseType.objects.filter(value__in=["code", "id_token", "id_token token"]))

if args.serve:
    run("127.0.0.1", args.serve, get_wsgi_application(), threading=True)
