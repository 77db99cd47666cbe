from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Q, QuerySet
from django.shortcuts import get_object_or_404

from ratings.lines import calculation_lines, hundredths, stored_game_lines
from tournaments.models import Game, Tournament, Upload
from tournaments.tiebreaks import labels, rules

PUBLIC_STATUSES = (Tournament.Status.RATED, Tournament.Status.QUEUED, Tournament.Status.CONFIRMED)


def public_tournaments() -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(status__in=PUBLIC_STATUSES)
        .select_related("chief_arbiter")
        .order_by("-end_date", "-start_date", "-id")
    )


def latest_rated_tournaments(*, limit: int) -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=Tournament.Status.RATED).order_by("-end_date", "-start_date", "-id")[:limit]


def just_rated_tournaments(*, limit: int) -> list[int]:
    """The ids of the tournaments rated last (by the time of their rating), newest first."""
    rated = Tournament.objects.filter(status=Tournament.Status.RATED, rated_at__isnull=False)
    return list(rated.order_by("-rated_at", "-id").values_list("id", flat=True)[:limit])


def public_tournament(pk: int) -> Tournament:
    return get_object_or_404(public_tournaments().select_related("chief_arbiter"), pk=pk)


def standings(*, tournament: Tournament) -> list[dict]:
    """Participants with the points of their games, best first (two queries whatever the size)."""
    return tournament_report(tournament=tournament)["rows"]


def tournament_report(*, tournament: Tournament) -> dict:
    """The crosstable and every number of the rating calculation, in three queries."""
    from ratings.models import RatingChange, System
    from tournaments.crosstable import cells_by_player

    participants = list(tournament.participants.select_related("player", "player__club"))
    number = {p.player_id: p.start_number for p in participants}
    games = list(Game.objects.filter(tournament=tournament).only("round", "white_id", "black_id", "result", "kind"))
    plain = [
        (g.round, number.get(g.white_id), number.get(g.black_id) if g.black_id else None, g.result, g.kind)
        for g in games
    ]
    cells, points = cells_by_player(plain, tournament.rounds)
    ratings = {p.start_number: p.fide_rating_in_file or p.rating_in_file for p in participants}
    order = labels.order_for(tournament.tiebreaks, plain, ratings)
    virtual = tournament.tiebreak_unplayed == Tournament.UnplayedRule.FIDE_2009
    ranked = {row["number"]: row for row in rules.standings(plain, ratings, tournament.rounds, order, virtual)}
    changes: dict[int, dict] = {}
    for change in RatingChange.objects.filter(tournament=tournament):
        changes.setdefault(change.player_id, {})[change.system] = change
    rows = []
    for participant in participants:
        own = changes.get(participant.player_id, {})
        tiebreak = ranked.get(participant.start_number, {})
        rows.append(
            {
                "participant": participant,
                "player": participant.player,
                "points": points.get(participant.start_number, Decimal(0)),
                "cells": cells.get(participant.start_number, [""] * tournament.rounds),
                "tiebreaks": [tiebreak.get("tiebreaks", {}).get(code) for code in order],
                "tiebreak_rank": tiebreak.get("rank", 10**6),
                "orr": own.get(System.ORR),
                "mchess": own.get(System.MCHESS),
                "playchess": own.get(System.PLAYCHESS),
            }
        )
    # Points first; among equal points the file's rank (the arbiter's standings) where it gives one,
    # then the tie-breaks, then the start number.
    rows.sort(
        key=lambda row: (
            -row["points"],
            row["participant"].rank or 10**6,
            row["tiebreak_rank"],
            row["participant"].start_number,
        )
    )
    for place, row in enumerate(rows, start=1):
        row["place"] = place
    coefficient = next((row["orr"].details for row in rows if row["orr"] is not None), None)
    contributors = [row for row in rows if row["orr"] is not None and row["orr"].details.get("Ki")]
    return {
        "rows": rows,
        "round_numbers": range(1, tournament.rounds + 1),
        "tiebreak_columns": [(code, labels.NAMES[code]) for code in order],
        "coefficient": coefficient,
        "contributors": contributors,
        "rated_systems": {system for row in rows for system in ("orr", "mchess", "playchess") if row[system]},
    }


def player_calculation(*, tournament: Tournament, player_id: int) -> dict:
    """One player's rating calculation in a tournament, game by game, in every system it was rated
    in: what the report's summary rows come from. Four queries whatever the number of games."""
    from players.models import Player
    from ratings.models import RatingChange, System

    participant = get_object_or_404(tournament.participants.select_related("player"), player_id=player_id)
    changes = {c.system: c for c in RatingChange.objects.filter(tournament=tournament, player_id=player_id)}
    stored = {system: stored_game_lines(change) for system, change in changes.items()}
    complete = None not in stored.values()
    lines = {system: rows if complete else [] for system, rows in stored.items()}
    opponents = {line[1] for rows in lines.values() for line in rows if line[1] is not None}
    names = Player.objects.only("id", "federation_id", "family_name", "given_names").in_bulk(opponents)

    def opponent(player_id):
        return names.get(player_id) if player_id is not None else None

    orr_lines = lines.get(System.ORR, [])
    orr = calculation_lines(System.ORR, orr_lines, opponent)
    mchess = calculation_lines(System.MCHESS, lines.get(System.MCHESS, []), opponent)
    playchess = calculation_lines(System.PLAYCHESS, lines.get(System.PLAYCHESS, []), opponent)
    return {
        "participant": participant,
        "player": participant.player,
        "orr": changes.get(System.ORR),
        "mchess": changes.get(System.MCHESS),
        "playchess": changes.get(System.PLAYCHESS),
        "orr_lines": orr,
        "mchess_lines": mchess,
        "playchess_lines": playchess,
        "complete": complete,
        "orr_totals": {
            "pd": hundredths(sum(line[4] for line in orr_lines)),
            "dr": hundredths(sum(50 * line[3] - line[4] for line in orr_lines)),
        },
    }


def arbiter_tournaments(*, user) -> QuerySet[Tournament]:
    return (
        Tournament.objects.filter(Q(chief_arbiter=user) | Q(co_arbiters=user))
        .distinct()
        .order_by("-end_date", "-start_date", "-id")
    )


def tournament_counts(*, tournament: Tournament) -> dict:
    """What the arbiter checks at a glance: players, games, rated games, rating changes."""
    from ratings.models import RatingChange

    games = Game.objects.filter(tournament=tournament)
    return {
        "players": tournament.participants.count(),
        "games": games.count(),
        "rated_games": games.filter(kind__in=Game.RATED_KINDS).count(),
        "changes": RatingChange.objects.filter(tournament=tournament).count(),
    }


def arbiter_uploads(*, user) -> QuerySet[Upload]:
    return Upload.objects.filter(uploaded_by=user).select_related("tournament").order_by("-uploaded_at")


@dataclass(frozen=True)
class UploadProgress:
    """Where a confirmed upload's tournament stands on its way to the public report.

    state: "queued" (its rating run waits; `place` in the queue, 1 = next), "rating" (a run that
    reaches it is running), "rated" (the run has committed; the public pages are being updated),
    "published" (visitors see the report), "failed" (`error` says why), "withdrawn"."""

    state: str
    tournament: Tournament
    run: object = None  # the RatingRequest shown (ratings.selectors.tournament_run), if any
    place: int = 0
    error: str = ""

    @property
    def waiting(self) -> bool:
        """Whether its page must look again (until the report is published or the run failed)."""
        return self.state in ("queued", "rating", "rated")


def upload_progress(*, upload: Upload) -> UploadProgress:
    """The progress of a confirmed upload (its tournament's rating run), as its arbiter follows it."""
    from ratings.selectors import runs_ahead, tournament_run
    from toolkit import pagecache

    tournament = Tournament.objects.get(pk=upload.tournament_id)
    status = tournament.status
    if status == Tournament.Status.WITHDRAWN:
        return UploadProgress("withdrawn", tournament)
    run = tournament_run(tournament=tournament)
    state = run.state if run is not None else None
    if state == "running":
        return UploadProgress("rating", tournament, run)
    if state == "pending":
        return UploadProgress("queued", tournament, run, place=runs_ahead() + 1, error=run.error)
    if status == Tournament.Status.RATED:
        return UploadProgress("published" if pagecache.current() else "rated", tournament, run)
    if status == Tournament.Status.FAILED or state == "failed":
        error = run.error if state == "failed" else tournament.status_detail
        return UploadProgress("failed", tournament, run, error=error or tournament.status_detail)
    # Queued without a request (the sweeper gives it one) or a request just created: next.
    return UploadProgress("queued", tournament, run, place=runs_ahead() + 1)


def preview_context(preview: dict) -> dict:
    """What the preview page shows, from the stored preview: players with their matches, the crosstable."""
    from collections import Counter

    from django.utils.translation import gettext

    from tournaments.crosstable import cells_by_player
    from tournaments.importers.base import shown, shown_note

    file = preview["file"]
    matches = preview["matches"]
    rounds = file["rounds"]
    cells, points = cells_by_player(
        ((g["round"], g["white"], g["black"], g["result"], g["kind"]) for g in file["games"]), rounds
    )
    players = []
    for player in sorted(file["players"], key=lambda p: p["start_number"]):
        number = player["start_number"]
        players.append(
            {
                **player,
                "name": f"{player['family_name']}, {player['given_names']}"
                if player["given_names"]
                else player["family_name"],
                "match": matches[str(number)],
                "cells": cells.get(number, [""] * rounds),
                "game_points": points.get(number, Decimal(0)),
            }
        )
    statuses = Counter(m["status"] for m in matches.values())
    kinds = Counter(g["kind"] for g in file["games"])
    return {
        "file": file,
        "players": players,
        "round_numbers": range(1, rounds + 1),
        # Messages are stored as msgid and values: shown in the reader's language.
        "warnings": [shown(p) for p in file["problems"] if p["severity"] == "warning"],
        "notes": [shown_note(note) for note in file["notes"]],
        "view": gettext(file["view"]) if file["view"] else "",
        "summary": {
            "players": len(players),
            "matched": statuses.get("matched", 0),
            "new": statuses.get("new", 0),
            "ambiguous": statuses.get("ambiguous", 0),
            "games": len(file["games"]),
            "played": kinds.get("played", 0),
            "not_rated": len(file["games"]) - kinds.get("played", 0),
            "no_birth": sum(1 for p in file["players"] if not p["birth_date"]),
        },
    }


def preview_duplicates(*, upload: Upload, user, details=None) -> list:
    """The federation's tournaments the previewed file repeats (as the file names and dates it, or as
    the arbiter's `details` do), each marked `may_replace` for this user and `public` when its report
    can be linked."""
    from tournaments.arbiters.permissions import can_replace_tournament
    from tournaments.uploads.duplicates import duplicates_of_preview

    if details is None:
        duplicates = duplicates_of_preview(upload.preview)
    else:
        duplicates = duplicates_of_preview(
            upload.preview, name=details.name, start_date=details.start_date, end_date=details.end_date
        )
    for duplicate in duplicates:
        duplicate.may_replace = can_replace_tournament(user, duplicate.tournament)
        duplicate.public = duplicate.tournament.status in PUBLIC_STATUSES
    return duplicates


def player_games(*, player, limit: int = 300, changes=()) -> list[dict]:
    """The player's games, newest first, with the opponent and his own result; with his rating
    changes (`changes`, already read), the opponent's rating each system counted in the game and
    Mchess's change of the game, from the stored calculation lines (no query more)."""
    counted = game_ratings(changes)
    games = (
        Game.objects.filter(Q(white=player) | Q(black=player), tournament__status__in=PUBLIC_STATUSES)
        .select_related("tournament", "white", "black")
        .order_by("-tournament__end_date", "-tournament_id", "-round")[:limit]
    )
    rows = []
    for game in games:
        white = game.white_id == player.pk
        opponent = game.black if white else game.white
        points = game.white_points if white else game.black_points
        rows.append(
            {
                "game": game,
                "tournament": game.tournament,
                "opponent": opponent,
                "colour": "w" if white else "b",
                "points": points,
                "counted": counted.get((game.tournament_id, game.round, opponent.pk if opponent else None), {}),
            }
        )
    return rows


def game_ratings(changes) -> dict[tuple, dict]:
    """{(tournament id, round, opponent id): {system: {"rating": opponent's rating, "delta": change}}}
    from the rating changes' stored game lines (ORR's games of earlier tournaments left out)."""
    from ratings.models import System

    counted: dict[tuple, dict] = {}
    for change in changes:
        lines = stored_game_lines(change) or []
        for line in lines:
            if change.system == System.ORR:
                rnd, other, rating, _hp, _pd, *rest = line
                if rest and rest[0]:
                    continue  # a stored game of an earlier tournament
                delta = None
            elif change.system == System.MCHESS:
                rnd, other, _before, rating, _hp, delta = line
            else:
                rnd, other, rating, *_ = line
                delta = None
            if other is None:
                continue  # ORR's fictitious draw
            counted.setdefault((change.tournament_id, rnd, other), {})[change.system] = {
                "rating": rating,
                "delta": delta,
            }
    return counted


def followed_players(*, user) -> list[dict]:
    """The players an account follows, with their ratings and latest rated tournament (3 queries)."""
    from django.db.models import OuterRef, Subquery

    from players.models import Follow
    from ratings.models import PlayerRating, RatingChange

    # The latest rated tournament (a mobile game has no tournament to show here).
    latest = RatingChange.objects.filter(player=OuterRef("player"), tournament__isnull=False).order_by(
        "-tournament__end_date", "-tournament__start_date", "-tournament_id"
    )
    follows = list(
        Follow.objects.filter(user=user)
        .select_related("player", "player__club", "player__merged_into")
        .annotate(latest_tournament=Subquery(latest.values("tournament_id")[:1]))
        .order_by("player__family_name", "player__given_names", "player_id")
    )
    ids = [follow.player_id for follow in follows]
    ratings: dict[int, dict] = {}
    for rating in PlayerRating.objects.filter(player_id__in=ids, rating__isnull=False):
        ratings.setdefault(rating.player_id, {})[rating.system] = rating
    changes: dict[int, dict] = {}
    wanted = {(follow.player_id, follow.latest_tournament) for follow in follows if follow.latest_tournament}
    for change in RatingChange.objects.filter(
        player_id__in=ids, tournament_id__in={t for _, t in wanted}
    ).select_related("tournament"):
        if (change.player_id, change.tournament_id) in wanted:
            changes.setdefault(change.player_id, {})[change.system] = change
    return [
        {
            "follow": follow,
            "player": follow.player,
            "ratings": ratings.get(follow.player_id, {}),
            "latest": changes.get(follow.player_id, {}),
            "latest_tournament": next(iter(changes.get(follow.player_id, {}).values()), None),
        }
        for follow in follows
    ]
