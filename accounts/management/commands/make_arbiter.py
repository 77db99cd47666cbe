"""Give a person the arbiter role: a new account, or an existing one promoted.

A new account gets a random password printed exactly once (it is stored only as its hash); the
arbiter changes it through "Forgot your password?" or the admin.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_email
from django.db import transaction

from accounts.roles import ARBITERS, PLAYERS, role


class Command(BaseCommand):
    help = "Create an arbiter account or give an existing account the arbiter role (prints a new one's password once)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="", help="the arbiter's address (for a new account, or to replace one)")

    @transaction.atomic
    def handle(self, *args, username, email, **options):
        email = email.strip().lower()
        if email:
            try:
                validate_email(email)
            except ValidationError:
                raise CommandError(f"{email!r} is not an e-mail address") from None
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        if user is None:
            user = self._create(User, username, email)
        else:
            self._promote(user, email)
        user.groups.add(role(ARBITERS), role(PLAYERS))

    def _create(self, User, username, email):
        if not username.strip() or username != username.strip():
            raise CommandError(f"{username!r} is not a user name")
        username_field = User._meta.get_field(User.USERNAME_FIELD)
        try:
            username_field.run_validators(username)
        except ValidationError as error:
            raise CommandError(f"{username!r}: {' '.join(error.messages)}") from None
        password = secrets.token_urlsafe(12)
        user = User.objects.create_user(username=username, email=email, password=password)
        self.stdout.write(
            self.style.SUCCESS(f"Created the arbiter '{username}' with the password: {password}\n")
            + "It is shown only this once: give it to the arbiter, who changes it after the first login."
        )
        return user

    def _promote(self, user, email):
        changed = []
        if email and email != user.email:
            user.email = email
            changed.append("email")
        if not user.is_active:
            # The federation vouches for the person: an unconfirmed sign-up becomes usable.
            user.is_active = True
            changed.append("is_active")
        if changed:
            user.save(update_fields=changed)
        already = user.groups.filter(name=ARBITERS).exists()
        self.stdout.write(
            f"'{user.get_username()}' is an arbiter already; nothing else changed."
            if already and not changed
            else self.style.SUCCESS(f"'{user.get_username()}' is now an arbiter; the password is unchanged.")
        )
