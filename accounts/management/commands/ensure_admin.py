"""Create the superuser `admin` once, so a fresh checkout can log in to the admin.

The password comes from ADMIN_PASSWORD, or is generated and printed exactly once: in production it
is never stored anywhere but in the password hash; in development it is also kept in var/ for
`make run`'s closing block (accounts/devcredentials.py).
"""

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from accounts import devcredentials


class Command(BaseCommand):
    help = "Create the superuser 'admin' if it does not exist (password from ADMIN_PASSWORD or printed once)."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username, **options):
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(f"Superuser '{username}' exists already; its password is unchanged.")
            return
        password = os.environ.get("ADMIN_PASSWORD") or secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=username, email="", password=password)
        if devcredentials.remember(user, password, what="the admin: every table of the site", path="/admin/"):
            # Development: `make run` lists it at the end of every run, from var/ (accounts/devcredentials.py).
            self.stdout.write(self.style.SUCCESS(f"Created superuser '{username}' (password kept for `make run`)."))
        elif os.environ.get("ADMIN_PASSWORD"):
            self.stdout.write(
                self.style.SUCCESS(f"Created superuser '{username}' with the password from ADMIN_PASSWORD.")
            )
        else:
            self.stdout.write(
                self.style.SUCCESS(f"Created superuser '{username}' with password: {password}\n")
                + "It is shown only this once; change it in the admin, or set ADMIN_PASSWORD before the first run."
            )
