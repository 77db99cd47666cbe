"""The staff page: upload, preview, confirm, in both languages; only for federation admins."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from players.models import Player
from ratings.models import PlayerRating
from tests.base import federation_admin
from tests.ratings.opening.test_opening import DAY, LIST

pytestmark = pytest.mark.django_db
URL = "/staff/opening-list/"


@pytest.fixture
def staff(client):
    client.force_login(federation_admin())
    return client


def test_it_walks_staff_from_upload_to_preview_to_the_import(staff):
    assert reverse("opening:list") == URL
    page = staff.post(URL, {"effective": DAY.isoformat(), "file": SimpleUploadedFile("list.csv", LIST.encode())})
    text = page.content.decode()
    assert page.status_code == 200 and "2 new players" in text and 'name="confirm"' in text
    assert not Player.objects.exists()  # a preview writes nothing
    data = re.search(r'name="data" value="([^"]+)"', text).group(1)
    done = staff.post(URL, {"effective": DAY.isoformat(), "data": data, "name": "list.csv", "confirm": "1"})
    assert done.status_code == 302
    assert PlayerRating.objects.get(player__federation_id=200001, system="orr").rating == 1800
    assert "The opening list is imported" in staff.get(URL).content.decode()


def test_it_asks_for_the_mapping_of_an_unknown_heading(staff):
    text = LIST.replace("orr_rating", "Elo nat.")
    page = staff.post(URL, {"effective": DAY.isoformat(), "file": SimpleUploadedFile("list.csv", text.encode())})
    assert "Elo nat." in page.content.decode() and 'name="confirm"' not in page.content.decode()
    data = re.search(r'name="data" value="([^"]+)"', page.content.decode()).group(1)
    mapped = staff.post(
        URL, {"effective": DAY.isoformat(), "data": data, "name": "list.csv", "mapping": "Elo nat.=orr_rating"}
    )
    assert 'name="confirm"' in mapped.content.decode()


def test_it_shows_the_errors_with_row_and_column_and_offers_no_import(staff):
    text = LIST.replace("1980-05-04", "1980-13-04")
    page = staff.post(URL, {"effective": DAY.isoformat(), "file": SimpleUploadedFile("list.csv", text.encode())})
    assert "list.csv, row 2, column birth" in page.content.decode()
    assert 'name="confirm"' not in page.content.decode()


def test_it_speaks_russian_and_says_gcr_is_not_carried(staff):
    english = staff.get(URL, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Game Courier Ratings are computed from the games alone" in english
    staff.cookies["django_language"] = "ru"
    russian = staff.get(URL).content.decode()
    assert "Начальный список" in russian and "Game Courier" in russian and "только из партий" in russian


def test_it_is_for_federation_admins_only(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("someone", "s@example.org", "x"))
    assert client.get(URL).status_code == 403
