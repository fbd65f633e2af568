#!/usr/bin/env python3
"""Django's command line for this project, for poking at it by hand: SITE_URL and DJANGO_OIDC_DIR must be set
(see settings.py), and with migrations off the schema comes from `migrate --run-syncdb`."""

import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
