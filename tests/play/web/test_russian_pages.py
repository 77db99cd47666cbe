"""The mobile-chess pages in Russian: a sentence about a colour is written whole for each colour,
so the colour stands in its Russian case ("Против белых", never "Против Белые")."""

import re

import pytest
from django.urls import reverse

from tests.play.desk.helpers import cast_fixture, event_fixture, protested_fixture  # noqa: F401
from tests.play.events.helpers import quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db


def russian(client, url) -> str:
    return client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()


def test_it_names_the_claimed_colour_in_its_case_on_the_desk_and_the_game_page(client, cast, event, protested):
    client.force_login(cast["td"])
    desk = russian(client, reverse("play:desk_file", args=[event.pk, protested.code]))
    assert "Против белых" in desk and "Против Белые" not in desk
    client.force_login(cast["staff"])
    live = russian(client, reverse("play:live", args=[protested.code]))
    assert "Претензия по времени против белых (полуход 1), подана " in live
    assert ": опротестована." in live


def test_it_shows_the_record_and_the_file_in_the_readers_words(client, cast, event, protested):
    client.force_login(cast["td"])
    desk = russian(client, reverse("play:desk_file", args=[event.pk, protested.code]))
    # Party and channel, not "white" and "console" (the cells carry their column's label for phones).
    assert re.search(r"<td[^>]*>Белые</td><td[^>]*>консоль</td>", desk)
