"""Finding a tournament the federation holds already in a new upload (a read: no writes here).

A result file uploaded again with one byte changed (a rating corrected, a space added) has
another SHA-256 and used to be rated twice. Here two tournaments are compared by what they
are: the games among the players the federation knows. A start number stands for the
player it was matched to, or, while the arbiter has not chosen yet, for any of the offered
namesakes, so a re-upload whose players are all "to choose" is still recognised.

- **the same tournament**: same name (compared as a name key, any script), same dates, and
  the same games (white, black, round, result) among the known players;
- **likely the same**: at least half of the file's games (white, black and result, in any
  round) are games of one existing tournament of the same event: its dates overlap the
  file's, or it has the same name.

Finding the candidates never scans the games: if half of the file's G games are in a
tournament, and nobody plays more than R games in the file, at least G/R of the file's
players took part in it. So the candidates come from one grouped query on the participants
of the known players (the `participant_player_idx` index) joined to their tournaments
(dates or name), and only the games of the few best candidates are read (by the
tournament's unique index). `benchmarks/duplicates.py` measures it.
"""

from __future__ import annotations

import datetime
import math
from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Q

from players.names import name_key
from tournaments.models import Participant, Tournament

LIKELY_SHARE = 0.5  # the share of the file's games found in one tournament that makes it a likely duplicate
MAX_COMPARED = 10  # the candidates (most shared players first) whose games are read


@dataclass(frozen=True)
class FileGame:
    round: int
    white: frozenset[int]  # the federation players the start number may be
    black: frozenset[int]
    result: str


@dataclass
class Duplicate:
    tournament: Tournament
    found: int  # the file's games found in it
    games: int  # the file's games between two players
    same: bool  # same name, dates and games: certainly the same tournament
    may_replace: bool = False  # set for the user looking at it (tournaments.selectors.preview_duplicates)
    public: bool = False  # its public report can be linked

    @property
    def percent(self) -> int:
        return round(100 * self.found / self.games) if self.games else 0


def identities_from_matches(matches: dict) -> dict[int, frozenset[int]]:
    """Start number -> the player ids it may be, from a stored preview's matches."""
    identities = {}
    for number, match in matches.items():
        if match.get("status") == "matched" and match.get("player_id"):
            ids = {match["player_id"]}
        elif match.get("status") == "ambiguous":
            ids = {c["player_id"] for c in match.get("candidates", [])}
        else:
            ids = set()
        identities[int(number)] = frozenset(ids)
    return identities


def file_games(games: list[dict], identities: dict[int, frozenset[int]]) -> list[FileGame]:
    """The stored preview's games between two players (byes have no opponent to compare)."""
    empty: frozenset[int] = frozenset()
    return [
        FileGame(g["round"], identities.get(g["white"], empty), identities.get(g["black"], empty), g["result"])
        for g in games
        if g.get("black") is not None
    ]


def find_duplicates(
    *,
    name: str,
    start_date: datetime.date | None,
    end_date: datetime.date | None,
    games: list[FileGame],
    rounds_per_player: int,
) -> list[Duplicate]:
    """The federation's tournaments (not withdrawn) that this file repeats, most certain first.

    Three queries at most, whatever the size of the federation.
    """
    known = [g for g in games if g.white and g.black]
    if not games or not known:
        return []
    ids = set().union(*(g.white | g.black for g in known))
    needed = max(2, math.ceil(len(games) * LIKELY_SHARE / max(1, rounds_per_player)))
    # Only the same event can be a duplicate: a club's round robin played again next month with the
    # same pairing table and similar results is a new tournament, however alike its games.
    same_event = Q(tournament__name__iexact=" ".join(name.split())) if name.strip() else Q(pk__in=[])
    if start_date is not None and end_date is not None:
        same_event |= Q(tournament__start_date__lte=end_date, tournament__end_date__gte=start_date)
    rows = list(
        Participant.objects.filter(same_event, player_id__in=ids)
        .exclude(tournament__status=Tournament.Status.WITHDRAWN)
        .values("tournament_id")
        .annotate(in_common=Count("player_id"))
        .filter(in_common__gte=needed)
        .values_list("tournament_id", "in_common")
    )
    if not rows:
        return []
    # Players who often play together share many tournaments: only those sharing the most are looked at.
    rows = sorted(rows, key=lambda row: (-row[1], row[0]))[: 5 * MAX_COMPARED]
    tournaments = Tournament.objects.only("id", "name", "start_date", "end_date", "status", "chief_arbiter_id").in_bulk(
        [tournament_id for tournament_id, _ in rows]
    )
    key = name_key(name)

    def closeness(row):
        tournament = tournaments[row[0]]
        overlaps = (
            start_date is not None
            and end_date is not None
            and tournament.start_date <= end_date
            and tournament.end_date >= start_date
        )
        return (-row[1], name_key(tournament.name) != key, not overlaps, tournament.pk)

    compared = [tournaments[tournament_id] for tournament_id, _ in sorted(rows, key=closeness)[:MAX_COMPARED]]
    return _compare(compared, known_games=known, all_games=len(games), key=key, start=start_date, end=end_date)


def _compare(compared, *, known_games, all_games, key, start, end) -> list[Duplicate]:
    from tournaments.models import Game

    exact: dict[int, set] = {t.pk: set() for t in compared}
    loose: dict[int, set] = {t.pk: set() for t in compared}
    among_known: Counter = Counter()  # each tournament's games between players the file knows
    ids = set().union(*(g.white | g.black for g in known_games))
    for tournament_id, white, black, rnd, result in Game.objects.filter(
        tournament_id__in=exact, black__isnull=False
    ).values_list("tournament_id", "white_id", "black_id", "round", "result"):
        exact[tournament_id].add((white, black, rnd, result))
        loose[tournament_id].add((white, black, result))
        if white in ids and black in ids:
            among_known[tournament_id] += 1
    duplicates = []
    for tournament in compared:
        same_round = loose_found = 0
        for game in known_games:
            pairs = [(w, b) for w in game.white for b in game.black]
            if any((w, b, game.round, game.result) in exact[tournament.pk] for w, b in pairs):
                same_round += 1
                loose_found += 1
            elif any((w, b, game.result) in loose[tournament.pk] for w, b in pairs):
                loose_found += 1
        same = (
            same_round == len(known_games) == among_known[tournament.pk]
            and name_key(tournament.name) == key
            and (tournament.start_date, tournament.end_date) == (start, end)
        )
        if same or loose_found >= LIKELY_SHARE * all_games:
            duplicates.append(Duplicate(tournament, loose_found, all_games, same))
    duplicates.sort(key=lambda d: (not d.same, -d.found, d.tournament.pk))
    return duplicates


def rounds_per_player(games: list[dict]) -> int:
    """The most games one start number has in the file (at most one a round)."""
    counts: Counter = Counter()
    for game in games:
        if game.get("black") is not None:
            counts[game["white"]] += 1
            counts[game["black"]] += 1
    return max(counts.values(), default=0)


def duplicates_of_preview(
    preview: dict,
    *,
    name: str | None = None,
    start_date: datetime.date | None = None,
    end_date: datetime.date | None = None,
    identities: dict[int, frozenset[int]] | None = None,
) -> list[Duplicate]:
    """The duplicates of a stored preview: by the file's own name and dates unless others are given
    (those the arbiter typed), by the matches unless the resolved players are given."""
    file = preview["file"]
    if file.get("content") != "results":
        return []
    if identities is None:
        identities = identities_from_matches(preview["matches"])
    if name is None:
        name = file.get("name") or ""
        start_date = datetime.date.fromisoformat(file["start_date"]) if file.get("start_date") else None
        end_date = datetime.date.fromisoformat(file["end_date"]) if file.get("end_date") else start_date
    return find_duplicates(
        name=name,
        start_date=start_date,
        end_date=end_date,
        games=file_games(file["games"], identities),
        rounds_per_player=rounds_per_player(file["games"]),
    )
