"""The engines' speed-ups change no rating: every output over a generated federation of about
20,000 games, hashed, equals the hash the engines gave before them (issue 28).

The checksums below were computed by the engines of main before the speed-ups (commit 2fb692c),
run over `federation()`. Floats enter the hash through repr(), the shortest text that reads back
as the same float: a change in the last bit of any rating changes the hash.
"""

import hashlib
import random

from ratings.engines import gcr, mchess
from ratings.engines import playchess as pc
from ratings.engines.common import WHITE_HALF_POINTS, Game

BEFORE = {
    "mchess": "46701ce0307923795ff63269755b52a562a562fea7c4f83bf19efeb8bc037093",
    "playchess": "47b32479a7afdb50eb780a9f188daf0d7222f0483ade7c45f4d2039f761d5f23",
    "gcr": "acfb38e252ec9c7bf434b296de4216d4dc768f015d318bdc6a248104e39a6818",
}


def federation(seed: int = 28, players: int = 2_000, tournaments: int = 400, size: int = 20, rounds: int = 5):
    """Tournaments of `size` players drawn from the federation, `rounds` rounds of random pairings
    (each player one game a round), results drawn with draws; some games forfeited or unplayed."""
    rng = random.Random(seed)
    out = []
    for _ in range(tournaments):
        field = rng.sample(range(players), size)
        games = []
        for rnd in range(1, rounds + 1):
            rng.shuffle(field)
            for white, black in zip(field[::2], field[1::2], strict=True):
                result = rng.choice(("1-0", "1-0", "1/2-1/2", "0-1", "0-1"))
                kind = "forfeit" if rng.random() < 0.02 else "played"
                games.append(Game(rnd, white, black, result, kind))
        out.append(games)
    return out


def digest(rows) -> str:
    h = hashlib.sha256()
    for row in rows:
        h.update(repr(row).encode())
    return h.hexdigest()


def mchess_rows(tournaments):
    rng = random.Random(1)
    ratings = {}
    for games in tournaments:
        # Starting ratings over the whole scale, the floor and the cap included.
        start = {}
        for g in games:
            for pid in (g.white, g.black):
                start[pid] = ratings.setdefault(pid, rng.choice((0, 20_000, rng.randint(0, 20_000))))
        for pid, r in sorted(mchess.rate_tournament(start, games).items()):
            ratings[pid] = r.rating_after
            yield pid, r.rating_before, r.rating_after, r.games, r.half_points, [tuple(d) for d in r.deltas]


def playchess_rows(tournaments):
    rng = random.Random(2)
    states = {}
    fide = {pid: rng.randint(1000, 2700) for pid in range(0, 2_000, 7)}
    for number, games in enumerate(tournaments):
        ids = sorted({g.white for g in games} | {g.black for g in games})
        participants = [
            pc.PlayChessParticipant(pid, states.get(pid, pc.PlayChessState()), fide.get(pid)) for pid in ids
        ]
        for pid, r in sorted(pc.rate_tournament(participants, games, tournament_id=number).items()):
            states[pid] = r.state_after
            yield pid, r.rating_after, r.mode, r.details(), r.state_after


def gcr_rows(tournaments):
    result = gcr.rate(
        (g.white, g.black, WHITE_HALF_POINTS[g.result]) for games in tournaments for g in games if g.kind == "played"
    )
    yield from sorted(result.players.items())
    yield result.accuracy, result.games


def test_it_rates_with_mchess_exactly_as_before_the_speed_ups():
    assert digest(mchess_rows(federation())) == BEFORE["mchess"]


def test_it_rates_with_playchess_exactly_as_before_the_speed_ups():
    assert digest(playchess_rows(federation())) == BEFORE["playchess"]


def test_it_rates_with_gcr_exactly_as_before_the_speed_ups():
    assert digest(gcr_rows(federation())) == BEFORE["gcr"]
