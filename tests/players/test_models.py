import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from players.models import Player
from players.services import FIRST_FEDERATION_ID, allocate_federation_ids, player_create, players_bulk_create
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_it_assigns_consecutive_federation_ids():
    first = player_create(family_name="Иванов", given_names="Пётр")
    second = player_create(family_name="Petrov", given_names="Ivan")
    assert first.federation_id == FIRST_FEDERATION_ID
    assert second.federation_id == FIRST_FEDERATION_ID + 1


def test_it_hands_out_disjoint_blocks():
    block = allocate_federation_ids(100)
    nxt = allocate_federation_ids(1)
    assert len(block) == 100
    assert nxt[0] == block[-1] + 1
    with pytest.raises(ValueError, match="at least 1"):
        allocate_federation_ids(0)


def test_it_bulk_creates_players_with_ids_and_name_keys():
    players = players_bulk_create(
        [
            Player(
                family_name="Смирнова", given_names="Анна", birth_date=datetime.date(2015, 1, 1), birth_precision="year"
            ),
            Player(family_name="Kuznetsov", given_names="Oleg"),
        ]
    )
    stored = Player.objects.get(pk=players[0].pk)
    assert stored.federation_id >= FIRST_FEDERATION_ID
    assert stored.name_key == stored.latin_key == "smirnova anna"
    assert stored.birth_date == datetime.date(2015, 7, 1)


def test_it_stores_a_year_only_birth_date_as_first_of_july():
    player = player_create(family_name="Орлов", birth_date=datetime.date(2012, 3, 9), birth_precision="year")
    player.refresh_from_db()
    assert player.birth_date == datetime.date(2012, 7, 1)
    assert player.birth_year == 2012
    assert player.birth_display == "2012"


def test_it_shows_a_full_birth_date_and_no_unknown_one():
    assert player_create(family_name="A", birth_date=datetime.date(2013, 2, 3)).birth_display == "2013-02-03"
    unknown = player_create(family_name="B")
    assert unknown.birth_precision == Player.BirthPrecision.UNKNOWN
    assert unknown.birth_display == ""
    assert unknown.birth_year is None


def test_it_refuses_a_precision_that_contradicts_the_date():
    player = PlayerFactory()
    player.birth_date = None
    player.birth_precision = Player.BirthPrecision.DAY
    with pytest.raises(IntegrityError), transaction.atomic():
        player.save()
    player.refresh_from_db()
    player.birth_precision = Player.BirthPrecision.UNKNOWN
    with pytest.raises(IntegrityError), transaction.atomic():
        player.save()


def test_it_refuses_two_players_with_one_fide_id():
    PlayerFactory(fide_id=4100018)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(fide_id=4100018)
    # Many players have no FIDE id at all.
    PlayerFactory(fide_id=None)
    PlayerFactory(fide_id=None)


def test_it_refuses_a_player_merged_into_himself():
    player = PlayerFactory()
    player.merged_into = player
    with pytest.raises(IntegrityError), transaction.atomic():
        player.save()


def test_it_validates_required_names_before_saving():
    with pytest.raises(ValidationError):
        player_create(family_name="  ")
    assert Player.objects.count() == 0


def test_it_finds_either_script_through_the_name_keys():
    player = player_create(family_name="Щербаков", given_names="Юрий", family_name_latin="Shcherbakov")
    assert (player.name_key, player.latin_key) == ("sherbakov iuri", "sherbakov")
    assert Player.objects.filter(name_key="sherbakov iuri").get() == player


def test_it_names_players_as_lists_do():
    player = player_create(family_name="Carlsen", given_names="Magnus", fide_id=1503014)
    assert player.full_name == "Carlsen, Magnus"
    assert str(player) == "Carlsen, Magnus"
    assert player.fide_profile_url == "https://ratings.fide.com/profile/1503014"
    assert player_create(family_name="Мамедов", given_names="Рауф").latin_name == "Mamedov, Rauf"
