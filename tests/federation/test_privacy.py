"""Personal data on the public site: children's birth dates show as a year to everyone but the
federation's staff and the accounts confirmed as the player or his parent, in pages, the API and
downloads; no e-mail reaches a public page or file."""

import csv
import datetime
import io
import json

import openpyxl
from django.utils import formats, translation

from ratings import services
from tests.base import BaseTestCase
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

BIRTH = datetime.date(2016, 3, 14)


class BirthDatePrivacyTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        cls.child = PlayerFactory(family_name="Смирнова", given_names="Анна", sex="F", birth_date=BIRTH)
        others = [PlayerFactory(birth_date=datetime.date(2015, 1, n + 1)) for n in range(5)]
        today = datetime.date.today()  # noqa: DTZ011
        tournament = make_tournament("Spring cup", today - datetime.timedelta(days=30), [cls.child, *others], seed=5)
        tournament.chief_arbiter = cls.arbiter
        tournament.save()
        cls.tournament = tournament
        services.rating_run(tournament_id=tournament.pk)

    def full_date_forms(self):
        """The full date as ISO and as each language's pages write it."""
        forms = {BIRTH.isoformat(), BIRTH.strftime("%d.%m.%Y")}
        for language in ("en", "ru"):
            with translation.override(language):
                forms.add(formats.date_format(BIRTH, "DATE_FORMAT"))
                forms.add(formats.date_format(BIRTH, "SHORT_DATE_FORMAT"))
        return forms

    def assert_year_only(self, text):
        for form in self.full_date_forms():
            assert form not in text, form
        assert "2016" in text

    def test_it_shows_the_public_and_a_player_account_the_birth_year_only(self):
        for user in (None, self.player_user, self.arbiter):
            self.client.logout()
            if user is not None:
                self.login(user)
            page = self.client.get(self.child.get_absolute_url())
            html = page.content.decode()
            self.assert_year_only(html)
            assert page.context["birth"] == {"label": "Birth year", "value": "2016", "full": False}
            self.assertContains(page, '<dt>Birth year</dt><dd id="birth">2016</dd>', html=True)
            data = json.loads(self.client.get(f"/api/players/{self.child.federation_id}/").content)
            assert data["birth_year"] == 2016
            assert "birth_date" not in data
            self.assert_year_only(json.dumps(data))

    def test_it_labels_the_year_as_a_year_in_russian(self):
        page = self.client.get(self.child.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(page, '<dt>Год рождения</dt><dd id="birth">2016</dd>', html=True)

    def test_it_shows_the_staff_the_full_date_labelled_as_a_date(self):
        self.login(self.admin)
        page = self.client.get(self.child.get_absolute_url())
        self.assertContains(page, '<dt>Birth date</dt><dd id="birth">2016-03-14</dd>', html=True)
        ru = self.client.get(self.child.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru")
        self.assertContains(ru, '<dt>Дата рождения</dt><dd id="birth">2016-03-14</dd>', html=True)
        data = json.loads(self.client.get(f"/api/players/{self.child.federation_id}/").content)
        assert data["birth_year"] == 2016
        assert data["birth_date"] == "2016-03-14"

    def test_it_shows_the_linked_parent_his_childs_full_date_and_another_parent_the_year(self):
        from django.contrib.auth import get_user_model

        from accounts.roles import PLAYERS, role
        from players import services as player_services

        link = player_services.link_request(user=self.player_user, relation="parent", player=self.child)
        player_services.link_decide(link=link, admin=self.admin, confirm=True)
        other = get_user_model().objects.create_user("other_parent", "other.parent@example.org", "x")
        other.groups.add(role(PLAYERS))
        self.login(self.player_user)
        page = self.client.get(self.child.get_absolute_url())
        self.assertContains(page, '<dt>Birth date</dt><dd id="birth">2016-03-14</dd>', html=True)
        data = json.loads(self.client.get(f"/api/players/{self.child.federation_id}/").content)
        assert data["birth_date"] == "2016-03-14"
        self.login(other)
        self.assert_year_only(self.client.get(self.child.get_absolute_url()).content.decode())
        data = json.loads(self.client.get(f"/api/players/{self.child.federation_id}/").content)
        assert "birth_date" not in data
        # Logged-in pages are never stored: the anonymous public gets the year after the parent's visit.
        self.client.logout()
        self.assert_year_only(self.client.get(self.child.get_absolute_url()).content.decode())
        self.assert_year_only(self.client.get(f"/api/players/{self.child.federation_id}/").content.decode())

    def test_it_keeps_the_full_date_and_any_email_out_of_public_pages_and_api_answers(self):
        urls = [
            "/",
            "/ratings/orr/",
            "/ratings/orr/?birth_year=2016",
            "/tournaments/",
            self.tournament.get_absolute_url(),
            f"/tournaments/{self.tournament.pk}/players/{self.child.pk}/",
            self.child.get_absolute_url(),
            "/api/lists/orr/",
            f"/api/players/{self.child.federation_id}/",
            f"/api/tournaments/{self.tournament.pk}/",
        ]
        for url in urls:
            response = self.client.get(url)
            assert response.status_code == 200, url
            text = response.content.decode()
            for form in self.full_date_forms():
                assert form not in text, (url, form)
            assert "@example.org" not in text, url

    def test_it_gives_downloads_the_birth_year_and_no_full_date_or_email(self):
        content = self.client.get("/ratings/orr/?download=csv").content
        rows = list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))
        child = next(row for row in rows if row["federation_id"] == str(self.child.federation_id))
        assert child["birth_year"] == "2016"
        for download in ("csv", "xlsx"):
            content = self.client.get(f"/ratings/orr/?download={download}").content
            if download == "xlsx":
                sheet = openpyxl.load_workbook(io.BytesIO(content)).active
                text = " ".join(str(cell.value) for row in sheet.iter_rows() for cell in row)
            else:
                text = content.decode("utf-8-sig")
            for form in self.full_date_forms():
                assert form not in text, (download, form)
            assert "2016-03" not in text
            assert "@" not in text
