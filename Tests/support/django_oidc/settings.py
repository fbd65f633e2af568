"""Settings of the django-oidc-provider the end-to-end tests sign in with (see Tests/e2e/django_oidc.py).

Two environment variables make one instance: SITE_URL (the issuer, e.g. http://127.0.0.1:9401) and DJANGO_OIDC_DIR
(where the SQLite database, and with it the RSA signing key, live), so nothing is ever written into the repository.
"""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITE_URL = os.environ["SITE_URL"]
DATA_DIR = Path(os.environ["DJANGO_OIDC_DIR"])

# A throwaway provider on loopback: a fixed key and DEBUG (error pages with a traceback in the test log) are fine.
SECRET_KEY = "latchkey-e2e-not-secret"
DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "oidc_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
ROOT_URLCONF = "urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [HERE / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": ["django.template.context_processors.request",
                                       "django.contrib.auth.context_processors.auth",
                                       "django.contrib.messages.context_processors.messages"]},
}]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": DATA_DIR / "db.sqlite3"}}
# A fresh database per test run: tables made straight from the models (`migrate --run-syncdb`) take a tenth of
# the time of replaying some forty migrations, the largest part of the provider's start-up.
MIGRATION_MODULES = {app: None for app in ["auth", "contenttypes", "sessions", "oidc_provider"]}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
# Every password hash costs the same as a real one by default; a fast hasher keeps seeding and log-in instant.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
USE_TZ = True

# Latchkey's own server also runs on 127.0.0.1, and cookies ignore ports: distinct names keep the two apart
# when a test drives both with one requests.Session.
SESSION_COOKIE_NAME = "django_oidc_session"
CSRF_COOKIE_NAME = "django_oidc_csrftoken"

LOGIN_URL = "/accounts/login/"
OIDC_USERINFO = "userinfo.userinfo"
# Put the scope's claims (email, names) into the ID token itself, as the implicit flow has no userinfo call.
OIDC_IDTOKEN_INCLUDE_CLAIMS = True
