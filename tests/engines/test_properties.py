"""Properties every rating engine must have, checked on generated tournaments."""

import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engines import gcr, mchess, orr
from ratings.engines import playchess as pc
from ratings.engines.common import Game

RESULTS = ["1-0", "1/2-1/2", "0-1"]
FLIP = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2", "0-0": "0-0"}


@st.composite
def swiss(draw, max_players=12, max_rounds=6):
    """A tournament: players paired at random each round, some forfeits, an odd one out sits."""
    size = draw(st.integers(2, max_players))
    rounds = draw(st.integers(1, max_rounds))
    players = list(range(size))
    games = []
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(players))
        for k in range(0, size - 1, 2):
            kind = draw(st.sampled_from(["played"] * 9 + ["forfeit"]))
            result = draw(st.sampled_from(RESULTS[::2] if kind == "forfeit" else RESULTS))
            games.append(Game(rnd, order[k], order[k + 1], result, kind))
    return size, games


def shuffled_within_rounds(draw, games):
    by_round = {}
    for game in games:
        by_round.setdefault(game.round, []).append(game)
    out = []
    for rnd in sorted(by_round, reverse=True):  # rounds listed backwards too
        out.extend(draw(st.permutations(by_round[rnd])))
    return out


def swapped(games):
    return [Game(g.round, g.black, g.white, FLIP[g.result], g.kind) for g in games]


@st.composite
def orr_case(draw):
    size, games = draw(swiss())
    start = datetime.date(2026, 3, 1)
    participants = []
    for pid in range(size):
        kind = draw(st.sampled_from(["established", "provisional", "newcomer", "fide"]))
        birth = start - datetime.timedelta(days=draw(st.integers(3 * 365, 40 * 365)))
        state = orr.OrrState()
        fide = None
        if kind == "established":
            state = orr.OrrState(draw(st.integers(0, 2700)))
        elif kind == "provisional":
            stored = tuple(
                orr.StoredGame(draw(st.integers(100, 2000)), draw(st.sampled_from([0, 1, 2])))
                for _ in range(draw(st.integers(1, 9)))
            )
            if sum(g.half_points for g in stored) == 0:
                stored = (*stored[:-1], orr.StoredGame(stored[-1].opponent_rating, 1))
            state = orr.OrrState(draw(st.integers(100, 2000)), True, stored, 1)
        elif kind == "fide":
            fide = draw(st.integers(1000, 2700))
        participants.append(orr.OrrParticipant(pid, state, fide_rating=fide, birth_date=birth))
    return start, tuple(participants), games


def orr_numbers(start, participants, games):
    result = orr.rate_tournament(orr.OrrTournament(start, participants, tuple(games), fide_rated=True))
    return result.kt, {
        pid: (
            p.rating_after,
            p.provisional_after,
            p.rp,
            p.rkor,
            p.sr_cents,
            p.state_after.rating if p.state_after else 0,
        )
        for pid, p in result.players.items()
    }


@settings(max_examples=60, deadline=None)
@given(orr_case(), st.data())
def test_it_rates_orr_ignoring_game_order_within_a_round_and_colours(case, data):
    start, participants, games = case
    expected = orr_numbers(start, participants, games)
    assert orr_numbers(start, participants, shuffled_within_rounds(data.draw, games)) == expected
    assert orr_numbers(start, participants, swapped(games)) == expected


@settings(max_examples=60, deadline=None)
@given(orr_case())
def test_it_keeps_orr_ratings_within_bounds(case):
    start, participants, games = case
    result = orr.rate_tournament(orr.OrrTournament(start, participants, tuple(games), fide_rated=True))
    assert 8 <= result.kt <= 25
    for player in result.players.values():
        if player.rating_after is not None:
            assert player.rating_after >= 0
        if player.corridor is not None:
            c = player.corridor
            assert c.rmin <= c.rpmax <= c.rmax
            assert c.rmin <= 1000
        if player.rs is not None:
            assert player.corridor.rmin <= player.rs <= player.corridor.rpmax


def mchess_case(draw, size):
    return {pid: draw(st.integers(0, 20_000)) for pid in range(size)}


@settings(max_examples=80, deadline=None)
@given(swiss(), st.data(), st.integers(1, 600))
def test_it_keeps_mchess_in_bounds_ignores_order_and_colours_and_conserves_points(case, data, weight):
    size, games = case
    ratings = mchess_case(data.draw, size)
    result = mchess.rate_tournament(ratings, games, weight=weight)
    after = {pid: r.rating_after for pid, r in result.items()}
    # Within bounds.
    assert all(0 <= rating <= 20_000 for rating in after.values())
    # Order within a round and colours do not matter.
    for variant in (shuffled_within_rounds(data.draw, games), swapped(games)):
        again = mchess.rate_tournament(ratings, variant, weight=weight)
        assert {pid: r.rating_after for pid, r in again.items()} == after
    # Points are conserved in every game that touched neither the floor nor the cap.
    for r in result.values():
        for delta in r.deltas:
            opponent = next(d for d in result[delta.opponent].deltas if d.round == delta.round)
            clamped = {delta.rating_before + delta.delta, opponent.rating_before + opponent.delta} & {0, 20_000}
            if not clamped:
                assert delta.delta == -opponent.delta


@settings(max_examples=60, deadline=None)
@given(swiss(), st.data())
def test_it_conserves_the_mchess_total_away_from_the_bounds(case, data):
    size, games = case
    ratings = {pid: data.draw(st.integers(3_000, 15_000)) for pid in range(size)}
    result = mchess.rate_tournament(ratings, games)
    assert sum(r.rating_after for r in result.values()) == sum(ratings.values())


@st.composite
def playchess_participants(draw, size):
    participants = []
    for pid in range(size):
        kind = draw(st.sampled_from(["new", "fide", "provisional", "established"]))
        if kind == "new":
            participants.append(pc.PlayChessParticipant(pid))
        elif kind == "fide":
            participants.append(pc.PlayChessParticipant(pid, fide_rating=draw(st.integers(1000, 2700))))
        elif kind == "provisional":
            history = tuple(
                pc.PlayedGame(draw(st.integers(800, 2400)), draw(st.sampled_from([0, 1, 2])))
                for _ in range(draw(st.integers(1, 9)))
            )
            rating = draw(st.integers(600, 2400))
            participants.append(pc.PlayChessParticipant(pid, pc.PlayChessState(rating, len(history), history)))
        else:
            state = pc.PlayChessState(draw(st.integers(600, 2800)), draw(st.integers(10, 200)))
            participants.append(pc.PlayChessParticipant(pid, state))
    return participants


@settings(max_examples=60, deadline=None)
@given(swiss(), st.data())
def test_it_rates_playchess_ignoring_order_and_colours_and_never_below_zero(case, data):
    size, games = case
    participants = data.draw(playchess_participants(size))

    def ratings(game_list):
        return {pid: r.rating_after for pid, r in pc.rate_tournament(participants, game_list).items()}

    expected = ratings(games)
    assert ratings(shuffled_within_rounds(data.draw, games)) == expected
    assert ratings(swapped(games)) == expected
    assert all(r is None or r >= 0 for r in expected.values())


@settings(max_examples=60, deadline=None)
@given(swiss(max_players=20, max_rounds=8), st.data())
def test_it_rates_gcr_deterministically_whatever_the_order_of_the_games(case, data):
    _, games = case
    played = [(g.white, g.black, g.white_half_points) for g in games if g.kind == "played"]
    first = gcr.rate(played)
    again = gcr.rate(data.draw(st.permutations(played)))
    flipped = gcr.rate([(b, a, 2 - hp) for a, b, hp in played])
    for other in (again, flipped):
        assert list(other.players) == list(first.players)
        for pid, player in first.players.items():
            assert other.players[pid].gcr1 == player.gcr1
            assert other.players[pid].gcr2 == player.gcr2
    # Every pass moves ratings by less than 400 per pair: a sanity bound on the scale.
    for player in first.players.values():
        assert abs(player.gcr - 1500) < 400 * player.games
        assert 0 <= player.accuracy <= 100
