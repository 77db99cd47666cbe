"""The GCR filter's pure part: the spec's vectors through the outcome, the document's empty case,
and the normalised filter (docs/rules/gcr.md)."""

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines import gcr
from ratings.gcrquery.query import BOARD, MOBILE, GcrQuery, outcome, since_of

PEOPLE = {pid: (1000 + pid, f"P{pid}") for pid in range(1, 30)}


def _ratings(answer):
    return {row["name"]: row["rating"] for row in answer["results"]}


def test_it_gives_the_specs_one_game_vector():
    answer = outcome([(1, 2, 2)], PEOPLE)
    assert answer["results"] == [
        {"federation_id": 1001, "name": "P1", "rating": 1518, "games": 1},
        {"federation_id": 1002, "name": "P2", "rating": 1481, "games": 1},
    ]
    assert answer["games"] == 1


def test_it_gives_the_specs_two_and_a_half_out_of_three_vector():
    answer = outcome([(1, 2, 2), (2, 1, 1), (1, 2, 2)], PEOPLE)
    assert _ratings(answer) == {"P1": 1530, "P2": 1469}


def test_it_gives_the_specs_three_player_vector_in_order():
    d, a, j = 4, 1, 9  # D beat A, A beat J
    answer = outcome([(d, a, 2), (a, j, 2)], PEOPLE)
    assert [(row["name"], row["rating"]) for row in answer["results"]] == [("P4", 1518), ("P1", 1500), ("P9", 1481)]


def test_it_says_no_games_passed_without_games():
    assert outcome([], PEOPLE) == {"games": 0, "accuracy": None, "results": []}


def test_it_is_one_filter_however_written():
    one = GcrQuery(tournaments=(7, 3, 7), kinds=(MOBILE, BOARD))
    other = GcrQuery(tournaments=(3, 7), kinds=(BOARD, MOBILE))
    assert one.key() == other.key()
    assert one.key() != GcrQuery(tournaments=(3,)).key()


def test_it_refuses_an_unknown_kind():
    with pytest.raises(ValueError, match="unknown kinds"):
        GcrQuery(kinds=("blitz",))


def test_it_counts_the_last_n_days_with_today():
    today = datetime.date(2026, 11, 27)
    assert since_of(None, 1, today) == today
    assert since_of(None, 7, today) == datetime.date(2026, 11, 21)
    assert since_of(datetime.date(2026, 11, 25), 7, today) == datetime.date(2026, 11, 25)
    assert since_of(datetime.date(2026, 1, 1), None, today) == datetime.date(2026, 1, 1)


games_strategy = st.lists(
    st.tuples(st.integers(1, 12), st.integers(1, 12), st.sampled_from([0, 1, 2])).filter(lambda g: g[0] != g[1]),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(games_strategy)
def test_it_equals_gcr_computed_alone_truncated_and_ordered(games):
    answer = outcome(games, PEOPLE)
    alone = gcr.rate(games)
    assert answer["games"] == len(games)
    by_id = {row["federation_id"] - 1000: row for row in answer["results"]}
    assert set(by_id) == set(alone.players)
    for pid, player in alone.players.items():
        assert by_id[pid]["rating"] == max(0, int(player.gcr // 1 if player.gcr >= 0 else -(-player.gcr // 1)))
        assert by_id[pid]["games"] == player.games
    ratings = [row["rating"] for row in answer["results"]]
    assert ratings == sorted(ratings, reverse=True)
    if games:
        assert answer["accuracy"] == round(alone.accuracy, 2)
