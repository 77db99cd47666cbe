"""A small federation built straight in the database, for pipeline tests: tournaments of
children (newcomers at first) and a few rated adults, with forfeits, byes and zero scores."""

from __future__ import annotations

import datetime
import random

from players.models import Player
from ratings.models import PlayerRating, ProvisionalGame, RatingChange
from tests.players.factories import PlayerFactory
from tournaments.models import Game, Participant, Tournament


def make_tournament(name, start, players, rounds=5, *, seed=0, end=None, fide_rated=False, guests=(), **fields):
    """A Swiss of `players` with random results (fixed by `seed`), queued for rating."""
    rng = random.Random(seed)
    fields.setdefault("status", Tournament.Status.QUEUED)
    tournament = Tournament.objects.create(
        name=name,
        start_date=start,
        end_date=end or start + datetime.timedelta(days=2),
        rounds=rounds,
        fide_rated=fide_rated,
        **fields,
    )
    Participant.objects.bulk_create(
        Participant(tournament=tournament, player=p, start_number=n, is_guest=p in guests)
        for n, p in enumerate(players, start=1)
    )
    games = []
    for rnd in range(1, rounds + 1):
        order = list(players)
        rng.shuffle(order)
        if len(order) % 2:
            games.append(Game(tournament=tournament, round=rnd, white=order.pop(), result="1-0", kind="bye"))
        for board in range(len(order) // 2):
            white, black = order[2 * board], order[2 * board + 1]
            roll = rng.random()
            if roll < 0.05:
                games.append(
                    Game(tournament=tournament, round=rnd, white=white, black=black, result="1-0", kind="forfeit")
                )
                continue
            result = "1-0" if roll < 0.45 else "0-1" if roll < 0.8 else "1/2-1/2"
            games.append(
                Game(tournament=tournament, round=rnd, board=board + 1, white=white, black=black, result=result)
            )
    Game.objects.bulk_create(games)
    return tournament


def children(count, *, seed=0, first_year=2013):
    rng = random.Random(seed)
    return [
        PlayerFactory(
            birth_date=datetime.date(first_year + rng.randint(0, 7), rng.randint(1, 12), rng.randint(1, 28)),
            birth_precision=rng.choice([Player.BirthPrecision.DAY, Player.BirthPrecision.YEAR]),
        )
        for _ in range(count)
    ]


def results_snapshot() -> tuple:
    """Every stored number of every system: what two histories must agree on to be the same."""
    changes = sorted(
        (
            c.player_id,
            c.tournament_id,
            c.system,
            c.rating_before,
            c.rating_after,
            c.provisional_before,
            c.provisional_after,
            c.games,
            str(c.score),
            repr(sorted(c.details.items())),
        )
        for c in RatingChange.objects.all()
    )
    ratings = sorted(
        (r.player_id, r.system, r.rating, r.provisional, r.games, r.tournaments, r.last_played, repr(r.state))
        for r in PlayerRating.objects.exclude(system="gcr")
    )
    # The games a provisional rating is still built from: written apart from the ratings (by the
    # forked ORR process, as ready COPY text, when a replay splits).
    provisional = sorted(
        ProvisionalGame.objects.values_list(
            "player_id", "system", "tournament_id", "round", "opponent_id", "opponent_rating", "score"
        )
    )
    return changes, ratings, provisional
