"""An application to import a FIDE rating, checked against the stored FIDE list on the review
page, in both languages, before the admin decides."""

import datetime
from pathlib import Path

from django.core.management import call_command
from django.urls import reverse

from players.models import FideImportApplication
from tests.base import BaseTestCase, federation_admin
from tests.players.factories import PlayerFactory

DATA = Path(__file__).resolve().parents[1] / "data" / "fide"
D = datetime.date


class FideChecksTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.staff = federation_admin()
        cls.player = PlayerFactory(family_name="Горячкина", given_names="Александра", birth_date=D(1998, 9, 28))

    def application(self, **extra):
        values = {"applicant": self.player_user, "player": self.player, "fide_id": 4147103, "fide_rating": 2553,
                  "rating_list_month": D(2026, 10, 1), **extra}  # fmt: skip
        return FideImportApplication.objects.create(**values)

    def page(self, application, language="en"):
        self.login(self.staff)
        return self.client.get(reverse("players:review", args=[application.pk]), HTTP_ACCEPT_LANGUAGE=language)

    def checks(self, response):
        return [(c.label, c.status) for c in response.context["fide_list"].checks]

    def test_it_shows_every_check_matching_with_the_lists_month(self):
        call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))
        # The name in Cyrillic agrees with FIDE's 'Goryachkina, Aleksandra' through the folding.
        response = self.page(self.application())
        assert self.checks(response) == [
            ("FIDE id in the list", "match"), ("Name", "match"), ("Birth year", "match"), ("Rating", "match")
        ]  # fmt: skip
        self.assertContains(response, "The stored standard list is of 2026-10.")
        self.assertContains(response, "✓ match", count=4)

    def test_it_shows_mismatches_and_a_month_without_a_list(self):
        call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))
        other = PlayerFactory(family_name="Orlova", given_names="Olga", birth_date=D(2012, 4, 4))
        response = self.page(self.application(player=other, fide_rating=2600))
        assert self.checks(response) == [
            ("FIDE id in the list", "match"), ("Name", "mismatch"), ("Birth year", "mismatch"), ("Rating", "mismatch")
        ]  # fmt: skip
        self.assertContains(response, "claimed 2600, list 2553")
        response = self.page(self.application(rating_list_month=D(2026, 9, 1)))
        self.assertContains(response, "no list for 2026-09 (the stored list is 2026-10)")
        response = self.page(self.application(fide_id=999999999))
        assert self.checks(response) == [("FIDE id in the list", "mismatch")]
        self.assertContains(response, "not in the list")

    def test_it_says_so_when_no_list_is_imported_and_speaks_russian(self):
        response = self.page(self.application())
        self.assertContains(response, "No FIDE list is imported")
        call_command("import_fide_list", str(DATA / "standard_oct26frl.txt"))
        response = self.page(self.application(fide_rating=2500), language="ru")
        self.assertContains(response, "Сверка со списком ФИДЕ")
        self.assertContains(response, "✗ не совпадает")
