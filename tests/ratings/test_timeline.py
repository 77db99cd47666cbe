"""Mchess as one timeline (mobile-chess.md, "Rating"): uploaded tournaments at their end date
23:59:59 local, mobile games at their finishing moment (same second: by id), penalty months and
decisions, all replayed in one order; a late change re-rates from its moment."""

from __future__ import annotations

import datetime
import itertools
import zoneinfo

import pytest

from play.models import MobileGame
from players.models import Player
from ratings import services
from ratings.models import PlayerRating, RatingChange, RatingOverride, RatingRequest, System
from ratings.timeline.keys import (
    START,
    mobile_key,
    override_key,
    penalty_key,
    since_key,
    tournament_key,
)
from tests.players.factories import PlayerFactory
from tests.ratings.scenario import make_tournament

pytestmark = pytest.mark.django_db

D = datetime.date
MSK = zoneinfo.ZoneInfo("Europe/Moscow")
codes = itertools.count(1)


@pytest.fixture(autouse=True)
def _moscow(settings):
    settings.TIME_ZONE = "Europe/Moscow"


def at(*args) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=MSK)


def game(white, black, finished_at, result="1-0", *, plies=20, status="finished", weight=250) -> MobileGame:
    return MobileGame.objects.create(
        code=f"G{next(codes)}",
        white=white,
        black=black,
        start=finished_at - datetime.timedelta(hours=2),
        weight=weight,
        status=status,
        result=result,
        finished_at=finished_at,
        plies=plies,
    )


def mchess(**filters) -> RatingChange:
    return RatingChange.objects.get(system=System.MCHESS, **filters)


NEW_YEAR = D(2025, 1, 1)


def decide(player, mchess_rating, day=NEW_YEAR):
    """A decision setting the player's Mchess rating from `day` on (as an approved FIDE import does)."""
    RatingOverride.objects.create(player=player, effective=day, mchess=mchess_rating, reason="test")


def snapshot() -> list:
    return sorted(
        (
            (
                c.player_id,
                c.tournament_id,
                c.mobile_game_id,
                c.system,
                c.rating_before,
                c.rating_after,
                c.games,
                str(c.score),
                repr(sorted(c.details.items())),
            )
            for c in RatingChange.objects.all()
        ),
        key=repr,
    )


def standings() -> list:
    return sorted(
        PlayerRating.objects.exclude(system=System.GCR).values_list(
            "player_id", "system", "rating", "provisional", "games", "tournaments", "last_played"
        ),
        key=repr,
    )


# --- Keys ----------------------------------------------------------------------------------------


class _T:
    def __init__(self, pk, start, end):
        self.pk, self.start_date, self.end_date = pk, start, end


def test_it_places_a_tournament_at_its_end_date_235959_local():
    key = tournament_key(_T(7, D(2025, 9, 1), D(2025, 9, 6)))
    assert key.instant == at(2025, 9, 6, 23, 59, 59).astimezone(datetime.UTC)


def test_it_orders_decisions_penalties_tournaments_and_games_on_one_line():
    september = _T(1, D(2025, 8, 25), D(2025, 8, 31))
    october_first = _T(2, D(2025, 10, 1), D(2025, 10, 1))
    evening_game = mobile_key(at(2025, 10, 1, 21, 0, 0, 400), 99)
    late_game = mobile_key(at(2025, 10, 1, 23, 59, 59, 500), 5)
    order = [
        START,
        tournament_key(september),
        override_key(D(2025, 10, 1)),
        penalty_key(D(2025, 10, 1)),
        evening_game,
        tournament_key(october_first),
        late_game,  # the same second as the tournament's place, after it
    ]
    shuffled = [order[i] for i in (4, 1, 6, 0, 3, 5, 2)]
    assert sorted(shuffled) == order
    # A re-rating from a date starts before every event of that day; from an instant, at its second.
    assert since_key(D(2025, 10, 1)) <= override_key(D(2025, 10, 1))
    assert tournament_key(september) < since_key(D(2025, 10, 1))
    assert since_key(at(2025, 10, 1, 21, 0, 0, 900)) <= evening_game < since_key(at(2025, 10, 1, 21, 0, 1))


def test_it_orders_games_of_one_second_by_id():
    assert mobile_key(at(2025, 10, 1, 12, 0, 0, 900_000), 3) < mobile_key(at(2025, 10, 1, 12, 0, 0, 100), 4)


def test_it_refuses_a_naive_finishing_moment():
    with pytest.raises(ValueError):
        mobile_key(datetime.datetime(2025, 10, 1, 12, 0), 1)


# --- Rating mobile games -------------------------------------------------------------------------


def test_it_rates_a_game_with_its_weight_as_the_spec_example():
    white, black = PlayerFactory(), PlayerFactory()
    decide(white, 10_000)
    decide(black, 10_000)
    played = game(white, black, at(2025, 9, 10, 12, 0))
    services.rerate_since(since=None)
    assert (mchess(player=white).rating_before, mchess(player=white).rating_after) == (10_000, 10_125)
    assert (mchess(player=black).rating_before, mchess(player=black).rating_after) == (10_000, 9_875)
    assert mchess(player=white).mobile_game_id == played.pk and mchess(player=white).tournament_id is None
    assert mchess(player=white).details["W"] == 250
    rating = PlayerRating.objects.get(player=white, system=System.MCHESS)
    assert (rating.rating, rating.games, rating.tournaments, rating.last_played) == (10_125, 1, 0, D(2025, 9, 10))


def test_it_rates_a_challenge_with_another_weight():
    white, black = PlayerFactory(), PlayerFactory()
    decide(white, 10_000)
    decide(black, 10_000)
    game(white, black, at(2025, 9, 10, 12, 0), "0-1", weight=500)
    services.rerate_since(since=None)
    assert mchess(player=black).rating_after == 10_250
    assert mchess(player=white).rating_after == 9_750


def test_it_rates_a_game_between_the_tournaments_around_it():
    players = [PlayerFactory() for _ in range(6)]
    white, black = players[:2]
    for player in players:
        decide(player, 10_000)
    before = make_tournament("Before", D(2025, 9, 1), players, rounds=3, seed=1, end=D(2025, 9, 6))
    after = make_tournament("After", D(2025, 9, 6), players, rounds=3, seed=2, end=D(2025, 9, 7))
    # Sunday 7 September, 10:00 in Moscow: after "Before" (6 September, 23:59:59), before "After"
    # (7 September, 23:59:59).
    played = game(white, black, at(2025, 9, 7, 10, 0))
    services.rerate_since(since=None)
    first, middle, last = (
        mchess(player=white, tournament=before),
        mchess(player=white, mobile_game=played),
        mchess(player=white, tournament=after),
    )
    assert middle.rating_before == first.rating_after
    assert last.rating_before == middle.rating_after
    assert (
        mchess(player=black, mobile_game=played).rating_before == mchess(player=black, tournament=before).rating_after
    )


def test_it_rates_a_game_that_ends_on_a_tournaments_last_day_before_it():
    players = [PlayerFactory() for _ in range(4)]
    white, black = players[:2]
    cup = make_tournament("Cup", D(2025, 9, 5), players, rounds=3, seed=4, end=D(2025, 9, 6))
    played = game(white, black, at(2025, 9, 6, 23, 0), "1/2-1/2")
    services.rerate_since(since=None)
    assert mchess(player=white, tournament=cup).rating_before == mchess(player=white, mobile_game=played).rating_after


def test_it_rates_games_of_the_same_second_by_id():
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    for player in (a, b, c):
        decide(player, 10_000)
    first = game(a, b, at(2025, 9, 10, 12, 0, 0, 900_000))  # the lower id finished later in the second
    second = game(a, c, at(2025, 9, 10, 12, 0, 0, 100))
    services.rerate_since(since=None)
    assert mchess(player=a, mobile_game=first).rating_before == 10_000
    assert mchess(player=a, mobile_game=second).rating_before == mchess(player=a, mobile_game=first).rating_after


def test_it_rates_a_game_between_humans_in_playchess_too():
    white, black = PlayerFactory(), PlayerFactory()
    played = game(white, black, at(2025, 9, 10, 12, 0))
    services.rerate_since(since=None)
    change = RatingChange.objects.get(player=white, mobile_game=played, system=System.PLAYCHESS)
    # A single win against a newcomer entering at 1000: the seed's example, 1400.
    assert (change.rating_after, change.provisional_after, change.games) == (1400, True, 1)
    assert RatingChange.objects.get(player=black, mobile_game=played, system=System.PLAYCHESS).rating_after == 600
    assert not RatingChange.objects.filter(mobile_game=played, system=System.ORR).exists()


def test_it_rates_a_game_against_a_computer_in_mchess_only():
    human = PlayerFactory()
    computer = PlayerFactory(kind=Player.Kind.COMPUTER)
    played = game(human, computer, at(2025, 9, 10, 12, 0), "0-1")
    services.rerate_since(since=None)
    assert mchess(player=computer).rating_before == 1000
    assert set(RatingChange.objects.filter(mobile_game=played).values_list("system", flat=True)) == {"mchess"}


@pytest.mark.parametrize(
    "fields",
    [
        {"plies": 1},  # only white moved
        {"plies": 0},
        {"status": "annulled"},
        {"result": "*"},
    ],
)
def test_it_does_not_rate_a_game_without_a_move_of_each_player_or_annulled(fields):
    white, black = PlayerFactory(), PlayerFactory()
    game(white, black, at(2025, 9, 10, 12, 0), **({"result": "1-0"} | fields))
    services.rerate_since(since=None)
    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.filter(player__in=[white, black]).exists()


# --- Late changes ---------------------------------------------------------------------------------


def history():
    """Six players, three tournaments and games between them in between, rated as they came."""
    players = [PlayerFactory() for _ in range(6)]
    for player in players[:3]:
        decide(player, 12_000)
    tournaments = [
        make_tournament(f"Stage {n}", D(2025, 9, 1) + datetime.timedelta(days=14 * n), players, rounds=3, seed=n)
        for n in range(3)
    ]
    games = [
        game(players[0], players[1], at(2025, 9, 8, 19, 30)),
        game(players[2], players[3], at(2025, 9, 8, 19, 30, 0, 5), "1/2-1/2"),
        game(players[4], players[0], at(2025, 9, 20, 9, 0), "0-1"),
        game(players[5], players[1], at(2025, 10, 2, 0, 30), "1-0"),
    ]
    return players, tournaments, games


def test_it_reproduces_the_stored_results_from_scratch_with_tournaments_and_games_interleaved():
    _, tournaments, games = history()
    # As they came: the second stage first, the games as they finished, the first stage late.
    services.rating_run(tournament_id=tournaments[1].pk)
    for played in games:
        services.rating_request(reason=RatingRequest.Reason.MOBILE, since=played.finished_at)
    services.rating_run(tournament_id=tournaments[0].pk)
    services.rating_run(tournament_id=tournaments[2].pk)
    stored, kept = snapshot(), standings()
    assert RatingChange.objects.filter(mobile_game__isnull=False).count() == 4 * 2 + 4 * 2  # Mchess and PlayChess
    services.rerate_since(since=None)
    assert snapshot() == stored
    assert standings() == kept


def test_it_re_rates_from_the_moment_of_a_late_changed_result():
    players, tournaments, games = history()
    services.rerate_since(since=None)
    earlier = set(RatingChange.objects.filter(tournament=tournaments[0]).values_list("pk", flat=True))
    changed = games[2]
    changed.result = "1-0"  # the arbiter's decision reverses it
    changed.save(update_fields=["result"])
    request = services.rating_request(reason=RatingRequest.Reason.MOBILE, since=changed.finished_at)
    assert request.since_at == changed.finished_at and request.since == D(2025, 9, 20)
    services.run_requests()
    # Before the moment: untouched rows; from it: re-rated, and as a full re-rating would have it.
    assert set(RatingChange.objects.filter(tournament=tournaments[0]).values_list("pk", flat=True)) == earlier
    assert (
        mchess(player=players[4], mobile_game=changed).rating_after
        > mchess(player=players[4], mobile_game=changed).rating_before
    )
    stored, kept = snapshot(), standings()
    services.rerate_since(since=None)
    assert snapshot() == stored
    assert standings() == kept


def test_it_removes_the_rating_of_a_game_annulled_after_it_was_rated():
    _, _, games = history()
    services.rerate_since(since=None)
    annulled = games[0]
    MobileGame.objects.filter(pk=annulled.pk).update(status="annulled")
    services.rerate_since(since=annulled.finished_at)
    assert not RatingChange.objects.filter(mobile_game=annulled).exists()
    stored = snapshot()
    services.rerate_since(since=None)
    assert snapshot() == stored


# --- Pages ---------------------------------------------------------------------------------------


def test_it_shows_the_game_in_the_players_history_with_a_link_to_it(client):
    white, black = PlayerFactory(), PlayerFactory()
    cup = make_tournament("Autumn Cup", D(2025, 9, 1), [white, black, PlayerFactory(), PlayerFactory()], seed=3)
    played = game(white, black, at(2025, 9, 10, 12, 0))
    services.rerate_since(since=None)
    page = client.get(white.get_absolute_url()).content.decode()
    table = page[page.index('id="player-tournaments"') :]
    assert f'<a href="/play/games/{played.code}/">' in table
    assert table.index(f"/play/games/{played.code}/") < table.index(cup.name)  # newest first
    assert f"{white.full_name} – {black.full_name}" in table


def test_it_lists_the_game_in_the_players_api_answer(client):
    white, black = PlayerFactory(), PlayerFactory()
    played = game(white, black, at(2025, 9, 10, 12, 0))
    services.rerate_since(since=None)
    data = client.get(f"/api/players/{white.federation_id}/").json()
    assert data["tournaments"] == []
    [row] = data["mobile_games"]
    assert row["url"] == f"/play/games/{played.code}/"
    assert row["changes"]["mchess"]["after"] == mchess(player=white).rating_after


def test_it_reads_the_players_history_in_as_many_queries_for_many_games(client, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    white = PlayerFactory()
    opponents = [PlayerFactory() for _ in range(4)]
    game(white, opponents[0], at(2025, 9, 10, 12, 0))
    services.rerate_since(since=None)
    with CaptureQueriesContext(connection) as one:
        assert client.get(white.get_absolute_url()).status_code == 200
    for n, opponent in enumerate(opponents[1:], start=11):
        game(white, opponent, at(2025, 9, n, 12, 0))
    services.rerate_since(since=None)
    with django_assert_max_num_queries(len(one.captured_queries)):
        assert client.get(white.get_absolute_url()).status_code == 200


def test_it_puts_players_rated_by_mobile_games_alone_on_the_mchess_list(client):
    white, black = PlayerFactory(), PlayerFactory()
    decide(white, 10_000)
    decide(black, 10_000)
    game(white, black, at(2025, 9, 10, 12, 0))
    services.rerate_since(since=None)
    page = client.get("/ratings/mchess/").content.decode()
    assert white.family_name in page and "10125" in page.replace("\u202f", "").replace(" ", "").replace(",", "")
