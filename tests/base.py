"""The personas every view test can use: an admin, an arbiter, a player (or parent)
and, by not logging in, the anonymous public."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.test import TestCase

from accounts.roles import PLAYERS, role

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

    from accounts.roles import FEDERATION_ADMINS

    user = get_user_model().objects.create_user(username, f"{username}@example.org", PASSWORD)
    user.groups.add(Group.objects.get(name=FEDERATION_ADMINS))
    return user


def assert_refused(factory, **kwargs):
    """The database itself refuses the row (a constraint, not only a form's validation)."""
    with pytest.raises(IntegrityError), transaction.atomic():
        factory(**kwargs)


class _Forms(HTMLParser):
    """The forms inside <main> with their classes, and the buttons outside any form styled by
    static/css/site.css's `.form` (the header's logout and language forms are not in <main>)."""

    def __init__(self):
        super().__init__()
        self.in_main = False
        self.form: list[str] | None = None
        self.forms: list[list[str]] = []
        self.loose_buttons: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "main":
            self.in_main = True
        elif self.in_main and tag == "form":
            self.form = (attrs.get("class") or "").split()
            self.forms.append(self.form)
        elif self.in_main and tag == "button" and (self.form is None or "form" not in self.form):
            self.loose_buttons.append(attrs.get("id") or attrs.get("value") or attrs.get("name") or "?")

    def handle_endtag(self, tag):
        if tag == "main":
            self.in_main = False
        elif tag == "form":
            self.form = None


def page_forms(html: str) -> _Forms:
    """The page's own forms (see _Forms): `forms` (each its class list), `loose_buttons`."""
    parser = _Forms()
    parser.feed(html)
    return parser


def assert_site_styled_forms(html: str) -> None:
    """Every form of the page's content uses the site's form style (`class="form ..."`, as the
    login and upload forms do), so its fields and buttons look like the rest of the site."""
    found = page_forms(html)
    assert found.forms, "no form on the page"
    assert [classes for classes in found.forms if "form" not in classes] == []
    assert found.loose_buttons == []
