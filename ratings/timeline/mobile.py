"""Rating a finished mobile game at its finishing moment (mobile-chess.md, "Rating").

Mchess: the game is rated alone with its event weight W, as a one-round tournament would be:
both players' ratings from just before it, one game delta each.

PlayChess: the game is rated as a one-game, one-round tournament of its two players, each
entering with his PlayChess rating just before it (the tournaments' "entry rating" rule), so a
provisional player's history grows by this game and an established one gets k * (W - We) for it.
Computers play in Mchess only, as in tournaments. A mobile game counts as a rated game, not as a
rated tournament. It keeps no ProvisionalGame row (that table is per tournament and round): the
game stays in the player's stored engine state, which is what later calculations read.
"""

from __future__ import annotations

from django.conf import settings

from players.models import Player
from ratings.engines import mchess
from ratings.engines import playchess as pc
from ratings.engines.common import PLAYED
from ratings.engines.common import Game as EngineGame
from ratings.models import System
from ratings.timeline.keys import local_date
from ratings.timeline.sources import MobileResult
from ratings.timeline.state import Standing
from ratings.timeline.tournament import playchess_inputs, record_playchess

ANCHOR = "mobile_game_id"
RESULTS = {1: "1-0", 0.5: "1/2-1/2", 0: "0-1"}


def engine_game(result: MobileResult) -> EngineGame:
    return EngineGame(1, result.white_id, result.black_id, RESULTS[result.white_score], PLAYED)


def rate(replay, result: MobileResult) -> None:
    day = local_date(result.finished_at)
    game = engine_game(result)
    anchor = replay.anchor(ANCHOR, result.game_id)
    players = (result.white_id, result.black_id)
    if System.MCHESS in replay.systems:
        _mchess(replay, anchor, result, game, day)
    humans = all(replay.players[pid].kind == Player.Kind.HUMAN for pid in players)
    if humans and System.PLAYCHESS in replay.systems:
        inputs = playchess_inputs(replay, players, day)
        results = pc.rate_tournament(
            inputs, [game], default_entry_rating=settings.PLAYCHESS_DEFAULT_ENTRY_RATING, tournament_id=None
        )
        record_playchess(replay, anchor, results, last_played=day, counts_as_tournament=False)
    replay.summary.mobile_games.append(result.game_id)


def _mchess(replay, anchor, result: MobileResult, game: EngineGame, day) -> None:
    ratings = {pid: replay.mchess_rating(pid, day) for pid in (result.white_id, result.black_id)}
    outcomes = mchess.rate_tournament(ratings, [game], weight=result.weight)
    for player_id, outcome in outcomes.items():
        before = replay.standing(System.MCHESS, player_id)
        previous = before or Standing(rating=ratings[player_id])
        after = Standing(
            rating=outcome.rating_after,
            games=previous.games + outcome.games,
            tournaments=previous.tournaments,
            last_played=day,
        )
        replay.standings[System.MCHESS][player_id] = after
        replay.touched[System.MCHESS].add(player_id)
        replay.record(
            System.MCHESS,
            anchor,
            player_id,
            before or Standing(rating=ratings[player_id]),
            after,
            games=outcome.games,
            half_points=outcome.half_points,
            details=outcome.details(result.weight),
        )
