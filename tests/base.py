"""The personas every view test can use: an admin, an arbiter, a player (or parent)
and, by not logging in, the anonymous public."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import TestCase

from tournaments.roles import PLAYERS, role

PASSWORD = "correct horse battery staple"


class BaseTestCase(TestCase):
    @classmethod
    def setUpTestData(cls):
        User = get_user_model()
        cls.admin = User.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
        cls.arbiter = User.objects.create_user("arbiter", "arbiter@example.org", PASSWORD, first_name="Anna")
        cls.other_arbiter = User.objects.create_user("other_arbiter", "other@example.org", PASSWORD)
        cls.player_user = User.objects.create_user("parent", "parent@example.org", PASSWORD)
        # A confirmed account holds the player/parent role, as sign-up gives it.
        cls.player_user.groups.add(role(PLAYERS))

    def login(self, user):
        self.client.force_login(user)


class ArbiterTestCase(BaseTestCase):
    """The personas, with `arbiter` and `other_arbiter` in the Arbiters group, and an upload helper."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        from django.contrib.auth.models import Group

        arbiters = Group.objects.get(name="Arbiters")
        cls.arbiter.groups.add(arbiters)
        cls.other_arbiter.groups.add(arbiters)

    def post_file(self, name, data):
        from django.core.files.uploadedfile import SimpleUploadedFile
        from django.urls import reverse

        return self.client.post(reverse("arbiter:upload"), {"file": SimpleUploadedFile(name, data)})


def federation_admin(username: str = "staff"):
    """A member of the Federation admins group who is not a superuser: the staff persona whose
    permissions come from the role, as the federation gives it."""
    from django.contrib.auth.models import Group

    from tournaments.roles import FEDERATION_ADMINS

    user = get_user_model().objects.create_user(username, f"{username}@example.org", PASSWORD)
    user.groups.add(Group.objects.get(name=FEDERATION_ADMINS))
    return user


def assert_refused(factory, **kwargs):
    """The database itself refuses the row (a constraint, not only a form's validation)."""
    with pytest.raises(IntegrityError), transaction.atomic():
        factory(**kwargs)
