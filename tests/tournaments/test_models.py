import datetime

import pytest

from tests.base import assert_refused
from tests.players.factories import PlayerFactory
from tests.tournaments.factories import GameFactory, ParticipantFactory, TournamentFactory
from tournaments.models import Game, Tournament, Upload

pytestmark = pytest.mark.django_db


def test_it_orders_tournaments_by_end_date_then_start_date_then_id():
    late = TournamentFactory(start_date=datetime.date(2026, 5, 1), end_date=datetime.date(2026, 5, 9))
    long_one = TournamentFactory(start_date=datetime.date(2026, 4, 1), end_date=datetime.date(2026, 5, 3))
    short_one = TournamentFactory(start_date=datetime.date(2026, 5, 2), end_date=datetime.date(2026, 5, 3))
    twin = TournamentFactory(start_date=datetime.date(2026, 5, 2), end_date=datetime.date(2026, 5, 3))
    assert list(Tournament.objects.all()) == [long_one, short_one, twin, late]
    assert short_one.rating_order_key < twin.rating_order_key < late.rating_order_key


def test_it_refuses_impossible_tournaments():
    assert_refused(TournamentFactory, start_date=datetime.date(2026, 5, 2), end_date=datetime.date(2026, 5, 1))
    assert_refused(TournamentFactory, rounds=0)
    assert_refused(TournamentFactory, mchess_weight=0)


def test_it_keeps_start_numbers_and_players_unique_in_a_tournament():
    first = ParticipantFactory(start_number=1)
    assert_refused(ParticipantFactory, tournament=first.tournament, start_number=1)
    assert_refused(ParticipantFactory, tournament=first.tournament, player=first.player, start_number=2)
    assert_refused(ParticipantFactory, tournament=first.tournament, start_number=0)


def test_it_accepts_every_valid_result_of_each_kind():
    tournament = TournamentFactory()
    a, b = PlayerFactory(), PlayerFactory()
    valid = [
        ("played", b, "1-0"),
        ("played", b, "1/2-1/2"),
        ("played", b, "0-1"),
        ("short", b, "1/2-1/2"),
        ("forfeit", b, "1-0"),
        ("forfeit", b, "0-0"),
        ("bye", None, "1-0"),
        ("half_bye", None, "1/2-1/2"),
        ("unplayed", None, "0-0"),
    ]
    for number, (kind, black, result) in enumerate(valid, start=1):
        GameFactory(tournament=tournament, round=number, white=a, black=black, kind=kind, result=result)
    assert Game.objects.count() == len(valid)


@pytest.mark.parametrize(
    ("kind", "has_black", "result"),
    [
        ("played", True, "0-0"),  # a played game has a winner or is drawn
        ("played", False, "1-0"),  # ...and an opponent
        ("forfeit", True, "1/2-1/2"),
        ("bye", True, "1-0"),  # a bye has no opponent
        ("bye", False, "0-0"),
        ("half_bye", False, "1-0"),
        ("unplayed", False, "1-0"),
    ],
)
def test_it_refuses_invalid_results(kind, has_black, result):
    black = PlayerFactory() if has_black else None
    assert_refused(GameFactory, kind=kind, black=black, result=result)


def test_it_refuses_a_player_twice_in_one_round_or_against_himself():
    game = GameFactory(round=3)
    assert_refused(GameFactory, tournament=game.tournament, round=3, white=game.white)
    assert_refused(GameFactory, tournament=game.tournament, round=3, black=game.black)
    assert_refused(GameFactory, white=game.white, black=game.white)
    assert_refused(GameFactory, tournament=game.tournament, round=0)


def test_it_counts_points_of_each_side():
    assert GameFactory(result="1/2-1/2").white_points == GameFactory(result="0-1").black_points / 2
    bye = GameFactory(black=None, kind="bye", result="1-0")
    assert bye.white_points == 1
    assert bye.black_points is None
    assert not bye.is_rated
    assert GameFactory().is_rated


def test_it_refuses_the_same_file_twice_and_a_confirmed_upload_without_tournament(personas):
    def upload(**kw):
        fields = {
            "original_name": "a.trf",
            "sha256": "a" * 64,
            "size": 10,
            "format": "trf",
            "uploaded_by": personas["arbiter"],
            "file": "uploads/a.trf",
        }
        return Upload.objects.create(**{**fields, **kw})

    upload()
    assert_refused(upload)
    assert_refused(upload, sha256="b" * 64, status="confirmed")
