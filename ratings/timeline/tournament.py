"""Rating an uploaded tournament, at its place on the timeline, in ORR, Mchess and PlayChess."""

from __future__ import annotations

from django.conf import settings

from players.models import Player
from ratings.engines import mchess, orr
from ratings.engines import playchess as pc
from ratings.models import System
from ratings.timeline.sources import TournamentEvent
from ratings.timeline.state import Standing, records

ANCHOR = "tournament_id"
# Module constants: a class attribute of an enum costs a metaclass lookup, once per player per
# event here (a million times in a full re-rating).
ORR, MCHESS, PLAYCHESS = System.ORR, System.MCHESS, System.PLAYCHESS
HUMAN = Player.Kind.HUMAN


def rate(replay, tournament: TournamentEvent) -> None:
    systems = replay.systems
    facts = replay.players
    entrants, games = tournament.entrants, tournament.games
    orr_here = ORR in systems
    playchess_here = tournament.rate_playchess and PLAYCHESS in systems
    if orr_here or playchess_here:
        humans = [p for p in entrants if facts[p.player_id].kind == HUMAN]
        if len(humans) == len(entrants):  # the usual case: every game is between humans
            human_games = games
        else:
            human_ids = {p.player_id for p in humans}
            human_games = [g for g in games if g.white in human_ids and g.black in human_ids]
        if orr_here:
            _orr(replay, tournament, humans, human_games)
    if tournament.rate_mchess and MCHESS in systems:
        _mchess(replay, tournament, entrants, games)
    if playchess_here:
        _playchess(replay, tournament, humans, human_games)
    replay.summary.tournaments.append(tournament.pk)


def _orr(replay, tournament: TournamentEvent, participants, games) -> None:
    anchor = replay.anchor(ANCHOR, tournament.pk)
    inputs = []
    for p in participants:
        standing = replay.standing(ORR, p.player_id)
        if standing is None:
            state = orr.OrrState()
        else:
            stored = records(standing.stored, orr.StoredGame)
            state = orr.OrrState(
                standing.rating, standing.provisional, stored, standing.tournaments if standing.provisional else 0
            )
        player = replay.players[p.player_id]
        inputs.append(
            orr.OrrParticipant(
                p.player_id,
                state,
                fide_rating=p.fide_rating_in_file,
                approved_fide_rating=replay.approved_fide(p.player_id, tournament.start_date),
                birth_date=player.birth_date,
                birth_precision=player.birth_precision,
                guest=p.is_guest,
            )
        )
    result = orr.rate_tournament(
        orr.OrrTournament(tournament.start_date, tuple(inputs), tuple(games), tournament.pk, tournament.fide_rated)
    )
    coefficient = result.coefficient
    # The tournament's coefficient, the same in every player's details: built once per event.
    tournament_details = {
        "Kt": coefficient.kt,
        "Kt_mean_Ki": round(coefficient.mean_ki, 4) if coefficient.mean_ki is not None else None,
        "Np": coefficient.np,
        "n": coefficient.n,
        "i": coefficient.i,
        "Kt_lowered": coefficient.lowered,
    }
    standings, touched = replay.standings[ORR], replay.touched[ORR]
    for player_id, outcome in result.players.items():
        if outcome.games == 0:
            continue
        before = replay.standing(ORR, player_id)
        if outcome.state_after is None:  # a guest: rated for the event, nothing kept
            after = Standing(outcome.rating_after, outcome.provisional_after)
        else:
            state = outcome.state_after
            previous = before or Standing()
            rated = state.rating is not None
            after = Standing(
                rating=state.rating,
                provisional=state.provisional,
                games=previous.games + outcome.games,
                tournaments=previous.tournaments + (1 if rated else 0),
                last_played=tournament.end_date,
                stored=state.stored_games,
            )
            standings[player_id] = after
            touched.add(player_id)
        details = outcome.details()
        details.update(tournament_details)
        # The rating he started with: his ORR rating, or the FIDE rating that stood in for it.
        shown_before = Standing(rating=outcome.rating_before, provisional=outcome.provisional_before)
        replay.record(
            ORR,
            anchor,
            player_id,
            shown_before,
            after,
            games=outcome.games,
            half_points=outcome.half_points,
            details=details,
            guest=outcome.guest,
        )


def _mchess(replay, tournament: TournamentEvent, participants, games) -> None:
    anchor = replay.anchor(ANCHOR, tournament.pk)
    ratings = {p.player_id: replay.mchess_rating(p.player_id, tournament.start_date) for p in participants}
    results = mchess.rate_tournament(ratings, games, weight=tournament.mchess_weight)
    for player_id, outcome in results.items():
        if outcome.games == 0:
            continue
        before = replay.standing(MCHESS, player_id)
        previous = before or Standing(rating=ratings[player_id])
        after = Standing(
            rating=outcome.rating_after,
            games=previous.games + outcome.games,
            tournaments=previous.tournaments + 1,
            last_played=tournament.end_date,
        )
        replay.standings[MCHESS][player_id] = after
        replay.touched[MCHESS].add(player_id)
        if before is None:
            before = Standing(rating=ratings[player_id])
        replay.record(
            MCHESS,
            anchor,
            player_id,
            before,
            after,
            games=outcome.games,
            half_points=outcome.half_points,
            details=outcome.details(tournament.mchess_weight),
        )


def playchess_inputs(replay, player_ids, day) -> list[pc.PlayChessParticipant]:
    """The players' PlayChess states before an event of `day` (a tournament's start, a game's day)."""
    inputs = []
    for player_id in player_ids:
        standing = replay.standing(PLAYCHESS, player_id)
        if standing is None:
            state = pc.PlayChessState()
        else:
            state = pc.PlayChessState(standing.rating, standing.games, records(standing.stored, pc.PlayedGame))
        inputs.append(pc.PlayChessParticipant(player_id, state, fide_rating=replay.approved_fide(player_id, day)))
    return inputs


def record_playchess(replay, anchor, results, *, last_played, counts_as_tournament: bool) -> None:
    """Keep and write each rated player's PlayChess outcome of one event (a tournament, a game)."""
    for player_id, outcome in results.items():
        if outcome.games == 0:
            continue
        before = replay.standing(PLAYCHESS, player_id)
        previous = before or Standing()
        state = outcome.state_after
        after = Standing(
            rating=state.rating,
            provisional=state.provisional,
            games=state.games,
            tournaments=previous.tournaments + (1 if counts_as_tournament else 0),
            last_played=last_played,
            stored=state.history,
        )
        replay.standings[PLAYCHESS][player_id] = after
        replay.touched[PLAYCHESS].add(player_id)
        replay.record(
            PLAYCHESS,
            anchor,
            player_id,
            before,
            after,
            games=outcome.games,
            half_points=outcome.half_points,
            details=outcome.details(),
        )


def _playchess(replay, tournament: TournamentEvent, participants, games) -> None:
    inputs = playchess_inputs(replay, [p.player_id for p in participants], tournament.start_date)
    results = pc.rate_tournament(
        inputs, games, default_entry_rating=settings.PLAYCHESS_DEFAULT_ENTRY_RATING, tournament_id=tournament.pk
    )
    record_playchess(
        replay,
        replay.anchor(ANCHOR, tournament.pk),
        results,
        last_played=tournament.end_date,
        counts_as_tournament=True,
    )
