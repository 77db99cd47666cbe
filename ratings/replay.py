"""Rating history as a replay: roll the federation back to a point, then rate every event after it.

Events are the tournaments of the history, in the rating order (end date, start date,
id), and the Mchess penalty months, each placed before the tournaments that end on or
after its first day. Rating a late tournament, re-rating from a date and applying a
month's penalty are all the same operation: `replay_from(key)`.

Every RatingChange keeps the player's engine state after it (rating, provisional flag,
counts, stored games), so the state at any point is the state of the player's last
change before it. Callers run this inside one transaction under the rating lock.
"""

from __future__ import annotations

import datetime
import logging
import os
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import NamedTuple

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from federation import pagecache
from federation.bulk import copy_rows, copy_stream, json_text, raw_rows
from players.models import FideImportApplication, Player
from ratings.engines import mchess, orr
from ratings.engines import playchess as pc
from ratings.engines.common import Game as EngineGame
from ratings.models import (
    InactivityPenalty,
    PenaltyMonth,
    PlayerRating,
    ProvisionalGame,
    RatingChange,
    RatingOverride,
    System,
)
from tournaments.models import Game, Participant, Tournament

logger = logging.getLogger(__name__)

HISTORY = (Tournament.Status.CONFIRMED, Tournament.Status.QUEUED, Tournament.Status.RATED)
CHANGE_COLUMNS = ("player_id", "tournament_id", "system", "rating_before", "rating_after", "provisional_before",
                  "provisional_after", "games", "score", "is_guest", "enters_list", "details")  # fmt: skip
TOURNAMENT_FIELDS = ("id", "end_date", "start_date", "fide_rated", "rate_mchess", "rate_playchess", "mchess_weight")
ENGINE_SYSTEMS = (System.ORR, System.MCHESS, System.PLAYCHESS)
START = (datetime.date.min, datetime.date.min, 0)


def tournament_key(tournament) -> tuple:
    return (tournament.end_date, tournament.start_date, tournament.pk)


def penalty_key(month: datetime.date) -> tuple:
    """A month's penalty comes after the tournaments that ended before its 1st, before all others."""
    return (month, datetime.date.min, 0)


def override_key(effective: datetime.date) -> tuple:
    """A decision taking effect on a day comes before the tournaments ending on or after that day."""
    return (effective, datetime.date.min, 0)


def at_or_after(key: tuple, prefix: str = "") -> Q:
    end, start, pk = key
    return (
        Q(**{f"{prefix}end_date__gt": end})
        | Q(**{f"{prefix}end_date": end, f"{prefix}start_date__gt": start})
        | Q(**{f"{prefix}end_date": end, f"{prefix}start_date": start, f"{prefix}id__gte": pk})
    )


def penalties_at_or_after(key: tuple) -> Q:
    """Penalty months whose place in the order is at or after `key`."""
    if key == START:
        return Q()
    month, start, pk = key
    same_month_too = start == datetime.date.min and pk <= 0  # `key` is itself a penalty month
    return (Q(month__gt=month) | Q(month=month)) if same_month_too else Q(month__gt=month)


class Entrant(NamedTuple):
    """What a rating run needs of a participant (read as plain tuples, never as model instances)."""

    player_id: int
    fide_rating_in_file: int | None
    is_guest: bool


class Facts(NamedTuple):
    kind: str
    birth_date: datetime.date | None
    birth_precision: str


@dataclass
class Standing:
    """A player's standing in one system between events: what PlayerRating and the snapshots hold."""

    rating: int | None = None
    provisional: bool = False
    games: int = 0
    tournaments: int = 0
    last_played: datetime.date | None = None
    stored: tuple = ()  # ORR: stored games; PlayChess: the history of a provisional rating

    def snapshot(self) -> dict:
        return {
            "rating": self.rating,
            "provisional": self.provisional,
            "games": self.games,
            "tournaments": self.tournaments,
            "last_played": self.last_played.isoformat() if self.last_played else None,
            "stored": list(self.stored),  # tuples: JSON arrays once written
        }

    @classmethod
    def from_snapshot(cls, data: dict) -> Standing:
        last = data.get("last_played")
        return cls(
            rating=data.get("rating"),
            provisional=bool(data.get("provisional")),
            games=data.get("games", 0),
            tournaments=data.get("tournaments", 0),
            last_played=datetime.date.fromisoformat(last) if last else None,
            stored=tuple(tuple(g) for g in data.get("stored", [])),
        )


@dataclass
class Summary:
    tournaments: list[int] = field(default_factory=list)
    penalty_months: list[datetime.date] = field(default_factory=list)
    changes: int = 0
    penalties: int = 0


class Replay:
    def __init__(self):
        self.standings: dict[str, dict[int, Standing | None]] = {s: {} for s in ENGINE_SYSTEMS}
        self.touched: dict[str, set[int]] = {s: set() for s in ENGINE_SYSTEMS}
        # Where RatingChange rows (CHANGE_COLUMNS) go: the COPY stream of replay_from.
        self.write: Callable[[tuple], None] = self._no_writer
        self.penalties: list[InactivityPenalty] = []
        self.players: dict[int, Facts] = {}
        self.approved: dict[int, list[tuple[datetime.date, int]]] = defaultdict(list)
        self.summary = Summary()
        # The systems this process rates: all, or a share when a child process rates the others.
        self.systems: tuple[str, ...] = ENGINE_SYSTEMS
        # From the start of the history: no standing survives, so none is ever read from the database.
        self.from_scratch = False
        self._mchess_loaded = False
        # Per player, the moment of the last override before the roll-back point (restoring).
        self._override_moment: dict[int, tuple] = {}

    @staticmethod
    def _no_writer(row) -> None:
        raise RuntimeError("rating changes are written inside replay_from's stream")

    # --- Rolling back -------------------------------------------------------------------------

    def roll_back(self, key: tuple) -> None:
        """Delete every result at or after `key` and restore the affected players' standings before it."""
        if key == START:
            self._roll_back_everything()
            return
        later = Tournament.objects.filter(at_or_after(key))
        later_changes = RatingChange.objects.filter(tournament__in=later)
        affected: dict[str, set[int]] = {s: set() for s in ENGINE_SYSTEMS}
        for system, player_id in later_changes.values_list("system", "player_id").distinct():
            affected[system].add(player_id)
        later_penalties = InactivityPenalty.objects.filter(penalties_at_or_after(key))
        affected[System.MCHESS].update(later_penalties.values_list("player_id", flat=True))
        # Overrides are inputs, never deleted; their players' standings are rebuilt from before `key`.
        for player_id, effective in RatingOverride.objects.values_list("player_id", "effective"):
            if override_key(effective) >= key:
                for system in ENGINE_SYSTEMS:
                    affected[system].add(player_id)

        for system in ENGINE_SYSTEMS:
            players = affected[system]
            if not players:
                continue
            earlier: dict[int, tuple[tuple, dict]] = {}
            rows = (
                RatingChange.objects.filter(player_id__in=players, system=system)
                .exclude(tournament__in=later)
                .values_list("player_id", "tournament__end_date", "tournament__start_date", "tournament_id", "details")
            )
            for player_id, end, start, tournament_id, details in rows.iterator(chunk_size=2000):
                change_key = (end, start, tournament_id)
                if player_id not in earlier or change_key > earlier[player_id][0]:
                    earlier[player_id] = (change_key, details.get("state", {}))
            restored = {pid: Standing.from_snapshot(state) for pid, (_, state) in earlier.items()}
            self._apply_earlier_overrides(system, players, key, earlier, restored)
            if system == System.MCHESS:
                penalties = (
                    InactivityPenalty.objects.filter(player_id__in=players)
                    .exclude(penalties_at_or_after(key))
                    .order_by("month")
                    .values_list("player_id", "month", "rating_after")
                )
                for player_id, month, after in penalties:
                    last = earlier.get(player_id)
                    moment = penalty_key(month)
                    later_than_change = last is None or moment > last[0]
                    later_than_override = moment >= self._override_moment.get(player_id, START)
                    if player_id in restored and later_than_change and later_than_override:
                        restored[player_id].rating = after
            for player_id in players:
                self.standings[system][player_id] = restored.get(player_id)
                self.touched[system].add(player_id)
        later_changes.delete()
        later_penalties.delete()

    def _roll_back_everything(self) -> None:
        """From scratch: every standing goes, including any left by tournaments no longer in the history."""
        self.from_scratch = True
        for system in ENGINE_SYSTEMS:
            players = set(PlayerRating.objects.filter(system=system).values_list("player_id", flat=True))
            self.standings[system] = dict.fromkeys(players)
            self.touched[system] = players
        RatingChange.objects.all().delete()
        InactivityPenalty.objects.all().delete()

    def _apply_earlier_overrides(self, system, players, key, earlier, restored) -> None:
        """Overrides between a player's last change before `key` and `key` set his standing."""
        overrides = RatingOverride.objects.filter(player_id__in=players).order_by("effective", "id")
        for override in overrides:
            moment = override_key(override.effective)
            last = earlier.get(override.player_id)
            if moment >= key or (last is not None and moment <= last[0]):
                continue
            value = getattr(override, system)
            if value is None:
                continue
            standing = restored.setdefault(override.player_id, Standing())
            _override(system, standing, value)
            self._override_moment[override.player_id] = moment

    # --- Loading ------------------------------------------------------------------------------

    def standing(self, system: str, player_id: int) -> Standing | None:
        """The player's standing now in the replay (loaded from the database the first time)."""
        table = self.standings[system]
        if player_id not in table:
            self._load(system, [player_id])
        return table[player_id]

    def _load(self, system: str, player_ids) -> None:
        table = self.standings[system]
        missing = [pid for pid in player_ids if pid not in table]
        if not missing:
            return
        if not self.from_scratch:
            rows = PlayerRating.objects.filter(system=system, player_id__in=missing).values_list("player_id", "state")
            for player_id, state in rows.iterator(chunk_size=5000):
                table[player_id] = Standing.from_snapshot(state)
        for pid in missing:
            table.setdefault(pid, None)

    def load_approvals(self) -> None:
        """Every approved FIDE-rating import (a short list: one per approved application)."""
        approved = FideImportApplication.objects.filter(
            status=FideImportApplication.Status.APPROVED, player__isnull=False, decided_at__isnull=False
        ).values_list("player_id", "decided_at", "fide_rating")
        for player_id, decided_at, rating in approved:
            self.approved[player_id].append((timezone.localdate(decided_at), rating))

    def prepare(self, tournaments: list[Tournament]) -> tuple[dict, dict]:
        """Participants and games of the tournaments to replay, as plain tuples, in two queries.

        Everything is read before any result is written: the results stream into the database
        on the same connection, which then runs no other query.
        """
        ids = [t.pk for t in tournaments]
        participants: dict[int, list[Entrant]] = defaultdict(list)
        games: dict[int, list[EngineGame]] = defaultdict(list)
        players = self.players
        for start in range(0, len(ids), 2000):
            some = ids[start : start + 2000]
            rows = Participant.objects.filter(tournament_id__in=some).values_list(
                "tournament_id",
                "player_id",
                "fide_rating_in_file",
                "is_guest",
                "player__kind",
                "player__birth_date",
                "player__birth_precision",
            )
            for tournament_id, player_id, fide, guest, kind, birth_date, precision in raw_rows(rows):
                participants[tournament_id].append(Entrant(player_id, fide, guest))
                if player_id not in players:
                    players[player_id] = Facts(kind, birth_date, precision)
            # Single-player rows (byes, absences) are never rated: only pairings are read.
            rows = Game.objects.filter(tournament_id__in=some, black__isnull=False).values_list(
                "tournament_id", "round", "white_id", "black_id", "result", "kind"
            )
            texts: dict[str, str] = {}  # one string object per result and kind, not one per game
            text = texts.setdefault
            new = tuple.__new__  # the named tuple without its Python-level __new__: a million games
            for tournament_id, rnd, white, black, result, kind in raw_rows(rows):
                game = (rnd, white, black, text(result, result), text(kind, kind))
                games[tournament_id].append(new(EngineGame, game))
        for system in ENGINE_SYSTEMS:
            self._load(system, list(players))
        return participants, games

    def preload(self, overrides: list[RatingOverride], months: list[datetime.date]) -> None:
        """The standings the decisions and penalty months will touch, read before the stream opens."""
        for system in ENGINE_SYSTEMS:
            self._load(system, [o.player_id for o in overrides])
        if months and not self._mchess_loaded:
            known = PlayerRating.objects.filter(system=System.MCHESS).values_list("player_id", flat=True)
            self._load(System.MCHESS, list(known))
            self._mchess_loaded = True

    def approved_fide(self, player_id: int, day: datetime.date) -> int | None:
        """The FIDE rating the federation approved for the player by `day` (the latest such)."""
        ratings = [(decided, rating) for decided, rating in self.approved.get(player_id, ()) if decided <= day]
        return max(ratings)[1] if ratings else None

    # --- Events -------------------------------------------------------------------------------

    def rate(self, tournament: Tournament, participants: list[Entrant], engine_games: list[EngineGame]) -> None:
        systems = self.systems
        humans = [p for p in participants if self.players[p.player_id].kind == Player.Kind.HUMAN]
        human_ids = {p.player_id for p in humans}
        human_games = [g for g in engine_games if g.white in human_ids and g.black in human_ids]
        if System.ORR in systems:
            self._orr(tournament, humans, human_games)
        if tournament.rate_mchess and System.MCHESS in systems:
            self._mchess(tournament, participants, engine_games)
        if tournament.rate_playchess and System.PLAYCHESS in systems:
            self._playchess(tournament, humans, human_games)
        self.summary.tournaments.append(tournament.pk)

    def _record(self, system, tournament, player_id, before, after, *, games, half_points, details, guest=False):
        details["state"] = after.snapshot() if after is not None else Standing().snapshot()
        self.summary.changes += 1
        self.write(
            (
                player_id,
                tournament.pk,
                system,
                before.rating if before else None,
                after.rating if after else None,
                bool(before and before.provisional),
                bool(after and after.provisional),
                games,
                _SCORES[half_points] if half_points < len(_SCORES) else Decimal(half_points) / 2,
                guest,
                bool(after and after.rating is not None) and not guest,
                details,
            )
        )

    def _orr(self, tournament: Tournament, participants: list[Participant], games) -> None:
        inputs = []
        for p in participants:
            standing = self.standing(System.ORR, p.player_id)
            if standing is None:
                state = orr.OrrState()
            else:
                stored = _records(standing.stored, orr.StoredGame)
                state = orr.OrrState(
                    standing.rating, standing.provisional, stored, standing.tournaments if standing.provisional else 0
                )
            player = self.players[p.player_id]
            inputs.append(
                orr.OrrParticipant(
                    p.player_id,
                    state,
                    fide_rating=p.fide_rating_in_file,
                    approved_fide_rating=self.approved_fide(p.player_id, tournament.start_date),
                    birth_date=player.birth_date,
                    birth_precision=player.birth_precision,
                    guest=p.is_guest,
                )
            )
        result = orr.rate_tournament(
            orr.OrrTournament(tournament.start_date, tuple(inputs), tuple(games), tournament.pk, tournament.fide_rated)
        )
        for player_id, outcome in result.players.items():
            if outcome.games == 0:
                continue
            before = self.standing(System.ORR, player_id)
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
                self.standings[System.ORR][player_id] = after
                self.touched[System.ORR].add(player_id)
            coefficient = result.coefficient
            details = outcome.details() | {
                "Kt": coefficient.kt,
                "Kt_mean_Ki": round(coefficient.mean_ki, 4) if coefficient.mean_ki is not None else None,
                "Np": coefficient.np,
                "n": coefficient.n,
                "i": coefficient.i,
                "Kt_lowered": coefficient.lowered,
            }
            # The rating he started with: his ORR rating, or the FIDE rating that stood in for it.
            shown_before = Standing(rating=outcome.rating_before, provisional=outcome.provisional_before)
            self._record(
                System.ORR,
                tournament,
                player_id,
                shown_before,
                after,
                games=outcome.games,
                half_points=outcome.half_points,
                details=details,
                guest=outcome.guest,
            )

    def _mchess(self, tournament: Tournament, participants: list[Participant], games) -> None:
        ratings = {}
        for p in participants:
            standing = self.standing(System.MCHESS, p.player_id)
            if standing is not None and standing.rating is not None:
                ratings[p.player_id] = standing.rating
            else:
                ratings[p.player_id] = mchess.initial_rating(
                    computer=self.players[p.player_id].kind == Player.Kind.COMPUTER,
                    fide_rating=self.approved_fide(p.player_id, tournament.start_date),
                )
        results = mchess.rate_tournament(ratings, games, weight=tournament.mchess_weight)
        for player_id, outcome in results.items():
            if outcome.games == 0:
                continue
            before = self.standing(System.MCHESS, player_id)
            previous = before or Standing(rating=ratings[player_id])
            after = Standing(
                rating=outcome.rating_after,
                games=previous.games + outcome.games,
                tournaments=previous.tournaments + 1,
                last_played=tournament.end_date,
            )
            self.standings[System.MCHESS][player_id] = after
            self.touched[System.MCHESS].add(player_id)
            if before is None:
                before = Standing(rating=ratings[player_id])
            self._record(
                System.MCHESS,
                tournament,
                player_id,
                before,
                after,
                games=outcome.games,
                half_points=outcome.half_points,
                details=outcome.details(tournament.mchess_weight),
            )

    def _playchess(self, tournament: Tournament, participants: list[Participant], games) -> None:
        inputs = []
        for p in participants:
            standing = self.standing(System.PLAYCHESS, p.player_id)
            if standing is None:
                state = pc.PlayChessState()
            else:
                state = pc.PlayChessState(standing.rating, standing.games, _records(standing.stored, pc.PlayedGame))
            inputs.append(
                pc.PlayChessParticipant(
                    p.player_id, state, fide_rating=self.approved_fide(p.player_id, tournament.start_date)
                )
            )
        results = pc.rate_tournament(
            inputs, games, default_entry_rating=settings.PLAYCHESS_DEFAULT_ENTRY_RATING, tournament_id=tournament.pk
        )
        for player_id, outcome in results.items():
            if outcome.games == 0:
                continue
            before = self.standing(System.PLAYCHESS, player_id)
            previous = before or Standing()
            state = outcome.state_after
            after = Standing(
                rating=state.rating,
                provisional=state.provisional,
                games=state.games,
                tournaments=previous.tournaments + 1,
                last_played=tournament.end_date,
                stored=state.history,
            )
            self.standings[System.PLAYCHESS][player_id] = after
            self.touched[System.PLAYCHESS].add(player_id)
            self._record(
                System.PLAYCHESS,
                tournament,
                player_id,
                before,
                after,
                games=outcome.games,
                half_points=outcome.half_points,
                details=outcome.details(),
            )

    def override(self, override: RatingOverride) -> None:
        """A decided rating (an approved FIDE import that replaces existing ratings) takes effect."""
        for system in self.systems:
            value = getattr(override, system)
            if value is None:
                continue
            standing = self.standing(system, override.player_id)
            if standing is None:
                standing = Standing()
                self.standings[system][override.player_id] = standing
            _override(system, standing, value)
            self.touched[system].add(override.player_id)

    def penalise(self, month: datetime.date) -> None:
        """The month's Mchess inactivity penalty, on every player who has an Mchess rating."""
        if System.MCHESS not in self.systems:
            return
        table = self.standings[System.MCHESS]
        if not self._mchess_loaded:
            # Every Mchess-rated player, once per replay: later months find them all in memory.
            known = PlayerRating.objects.filter(system=System.MCHESS).values_list("player_id", flat=True)
            self._load(System.MCHESS, list(known))
            self._mchess_loaded = True
        for player_id, standing in table.items():
            if standing is None or standing.rating is None:
                continue
            if not mchess.is_inactive(standing.last_played, month):
                continue
            after = mchess.penalised(standing.rating)
            if after == standing.rating:
                continue
            self.penalties.append(
                InactivityPenalty(player_id=player_id, month=month, rating_before=standing.rating, rating_after=after)
            )
            standing.rating = after
            self.touched[System.MCHESS].add(player_id)
        self.summary.penalty_months.append(month)

    # --- Writing ------------------------------------------------------------------------------

    def persist(self) -> None:
        InactivityPenalty.objects.bulk_create(self.penalties, batch_size=2000)
        self.summary.penalties = len(self.penalties)
        for system in ENGINE_SYSTEMS:
            touched = self.touched[system]
            if not touched:
                continue
            if self.from_scratch:
                PlayerRating.objects.filter(system=system).delete()
                ProvisionalGame.objects.filter(system=system).delete()
            else:
                PlayerRating.objects.filter(system=system, player_id__in=touched).delete()
                ProvisionalGame.objects.filter(system=system, player_id__in=touched).delete()
            copy_rows(
                PlayerRating,
                ("player_id", "system", "rating", "provisional", "games", "tournaments", "last_played", "state"),
                self._ratings(system, touched),
            )
            if system in (System.ORR, System.PLAYCHESS):
                copy_rows(
                    ProvisionalGame,
                    ("player_id", "system", "tournament_id", "round", "opponent_id", "opponent_rating", "score"),
                    self._provisional_games(system, touched),
                )

    def _ratings(self, system, touched):
        for player_id in touched:
            standing = self.standings[system].get(player_id)
            if standing is not None:
                yield (player_id, system, standing.rating, standing.provisional, standing.games,
                       standing.tournaments, standing.last_played, standing.snapshot())  # fmt: skip

    def _provisional_games(self, system, touched):
        for player_id in touched:
            standing = self.standings[system].get(player_id)
            if standing is None or not (standing.provisional or standing.rating is None):
                continue
            for opponent_rating, half_points, tournament_id, rnd, opponent_id in standing.stored:
                yield (player_id, system, tournament_id, rnd, opponent_id, opponent_rating, _SCORES[half_points])


_SCORES = [Decimal(n) / 2 for n in range(64)]


def _records(stored: tuple, record: type) -> tuple:
    """A standing's stored games as the engine's named tuples: read back from the database they
    are lists; kept from the engine in this replay they already are."""
    if stored and type(stored[0]) is not record:
        return tuple(record(*game) for game in stored)
    return stored


def _override(system: str, standing: Standing, value: int) -> None:
    """ORR and Mchess: the rating, established from now on. PlayChess: the rating only, so that a
    provisional rating keeps growing from the player's own games."""
    standing.rating = value
    if system != System.PLAYCHESS:
        standing.provisional = False
        standing.stored = ()


def replay_from(key: tuple) -> Summary:
    """Roll back to just before `key` and rate every event from there on, in order."""
    clock = _Clock()
    replay = Replay()
    replay.roll_back(key)
    clock.lap("roll back")
    tournaments = list(
        Tournament.objects.filter(at_or_after(key), status__in=HISTORY)
        .order_by("end_date", "start_date", "id")
        .only(*TOURNAMENT_FIELDS)
    )
    months = list(
        PenaltyMonth.objects.filter(month__gte=key[0] if key != START else datetime.date.min).values_list(
            "month", flat=True
        )
    )
    overrides = [o for o in RatingOverride.objects.order_by("effective", "id") if override_key(o.effective) >= key]
    # At one moment: decisions first, then the month's penalty, then tournaments (they have later keys).
    events = [(tournament_key(t), 2, "tournament", t) for t in tournaments]
    events += [(penalty_key(m), 1, "penalty", m) for m in months if penalty_key(m) >= key]
    events += [(override_key(o.effective), 0, "override", o) for o in overrides]
    events.sort(key=lambda event: (event[0], event[1]))
    replay.load_approvals()
    participants, games = replay.prepare(tournaments)
    replay.preload(overrides, months)
    games_count = sum(len(g) for g in games.values())
    clock.lap("read")
    if settings.RATING_RUN_PAUSE_SECONDS:
        time.sleep(settings.RATING_RUN_PAUSE_SECONDS)  # failure drills: a window to kill the worker in
    with copy_stream(RatingChange, CHANGE_COLUMNS) as stream:
        if stream.raw is not None and games_count >= settings.RATING_PARALLEL_MIN_GAMES and hasattr(os, "fork"):
            _run_split(replay, events, participants, games, stream)
        elif stream.raw is not None:
            replay.write, flush = _line_writer(stream)
            _run(replay, events, participants, games)
            flush()
        else:
            replay.write = stream.write
            _run(replay, events, participants, games)
    replay.write = replay._no_writer
    clock.lap("rate and write the changes")
    replay.persist()
    now = timezone.now()
    Tournament.objects.filter(pk__in=replay.summary.tournaments).update(
        status=Tournament.Status.RATED, status_detail="", rated_at=now
    )
    clock.lap("write the ratings")
    pagecache.bump_on_commit()  # the public pages show the new ratings from the commit on
    logger.info(
        "replayed %s events, %s games, %s changes: %s",
        len(events),
        games_count,
        replay.summary.changes,
        clock,
    )
    return replay.summary


class _Clock:
    """Where a replay's time went, for the log."""

    def __init__(self):
        self.laps: list[tuple[str, float]] = []
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps.append((name, now - self._last))
        self._last = now

    def __str__(self) -> str:
        return ", ".join(f"{name} {seconds:.2f} s" for name, seconds in self.laps)


def _run(replay: Replay, events, participants, games, after_each=None) -> None:
    for _, _, kind, item in events:
        if kind == "tournament":
            replay.rate(item, participants.get(item.pk, []), games.get(item.pk, []))
        elif kind == "penalty":
            replay.penalise(item)
        else:
            replay.override(item)
        if after_each is not None:
            after_each()


def _run_split(replay: Replay, events, participants, games, stream) -> None:
    """ORR in a forked child, Mchess and PlayChess here, both on the same events, in parallel."""
    from ratings.forked import Child

    tail = stream.line_end

    def rate_orr(write_line):
        replay.systems = (System.ORR,)
        replay.write = lambda row: write_line(change_line(row, tail))
        _run(replay, events, participants, games)
        orr_touched = replay.touched[System.ORR]
        return (
            {pid: replay.standings[System.ORR].get(pid) for pid in orr_touched},
            orr_touched,
            replay.summary.changes,
        )

    child = Child(rate_orr)
    try:
        replay.systems = (System.MCHESS, System.PLAYCHESS)
        replay.write, flush = _line_writer(stream)
        forward = lambda: child.forward(stream.raw)  # noqa: E731 - passed on as a callback
        _run(replay, events, participants, games, after_each=forward)
        flush()
        standings, touched, changes = child.finish(stream.raw)
    except BaseException:
        child.kill()
        raise
    replay.systems = ENGINE_SYSTEMS
    replay.standings[System.ORR].update(standings)
    replay.touched[System.ORR] |= touched
    replay.summary.changes += changes


_NULL = "\\N"


def change_line(row: tuple, tail: str) -> str:
    """A RatingChange row (CHANGE_COLUMNS) as a line of COPY text, `tail` holding the columns filled
    in for every row and the newline: one format string where psycopg adapts value by value (a
    fifth of the main process's time in a full re-rating)."""
    (
        player_id,
        tournament_id,
        system,
        before,
        after,
        was_provisional,
        provisional,
        games,
        score,
        guest,
        enters,
        details,
    ) = row
    text = json_text(details)
    if "\\" in text:  # JSON escapes (\", \n, \u...) are backslashes, which COPY text doubles
        text = text.replace("\\", "\\\\")
    return (
        f"{player_id}\t{tournament_id}\t{system}\t{_NULL if before is None else before}\t"
        f"{_NULL if after is None else after}\t{'t' if was_provisional else 'f'}\t{'t' if provisional else 'f'}\t"
        f"{games}\t{score}\t{'t' if guest else 'f'}\t{'t' if enters else 'f'}\t{text}{tail}"
    )


def _line_writer(stream) -> tuple[Callable[[tuple], None], Callable[[], None]]:
    """write(row) and flush() sending RatingChange rows to a PostgreSQL COPY as text, in blocks."""
    tail = stream.line_end
    block: list[str] = []
    send = stream.raw

    def write(row: tuple) -> None:
        block.append(change_line(row, tail))
        if len(block) >= 2000:
            flush()

    def flush() -> None:
        if block:
            send("".join(block).encode())
            block.clear()

    return write, flush
