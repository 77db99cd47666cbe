"""The rating history as a walk over one timeline: roll back to a key, then rate every event after it.

Events are uploaded tournaments, finished mobile games (both from the sources wired in
settings.RATING_SOURCES), Mchess penalty months and rating decisions, in the order of their keys
(ratings.timeline.keys). Each kind is rated by its own module; this one holds the players'
standings between events, reads what the walk needs before it writes, and writes the results.
Rating a late tournament, re-rating from a date or an instant, applying a month's penalty: all
are `replay_from(key)`.

Every RatingChange keeps the player's engine state after it (rating, provisional flag, counts,
stored games), so the state at any point is the state of the player's last change before it.
Callers run this inside one transaction under the rating lock.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from typing import BinaryIO

from django.conf import settings
from django.utils import timezone

from players.models import FideImportApplication, Player
from ratings.engines import mchess
from ratings.models import (
    InactivityPenalty,
    PenaltyMonth,
    PlayerRating,
    ProvisionalGame,
    RatingChange,
    RatingOverride,
    System,
)
from ratings.opening.timeline import opening_fide_ratings, opening_key, opening_states, openings_at_or_after
from ratings.timeline import lines, mobile, penalty, rollback, tournament
from ratings.timeline.keys import START, Key, local_date, override_key, penalty_key
from ratings.timeline.sources import Facts, registered
from ratings.timeline.state import ENGINE_SYSTEMS, Standing, Summary, override, score
from toolkit import pagecache
from toolkit.bulk import copy_lines, copy_rows, copy_stream, line_format
from toolkit.collector import collector_aside

logger = logging.getLogger(__name__)

RATING_COLUMNS = ("player_id", "system", "rating", "provisional", "games", "tournaments", "last_played", "state")
PROVISIONAL_COLUMNS = ("player_id", "system", "tournament_id", "round", "opponent_id", "opponent_rating", "score")
RATE = {"tournament": tournament.rate, "mobile": mobile.rate, "penalty": penalty.penalise}


class Replay:
    def __init__(self):
        self.standings: dict[str, dict[int, Standing | None]] = {s: {} for s in ENGINE_SYSTEMS}
        self.touched: dict[str, set[int]] = {s: set() for s in ENGINE_SYSTEMS}
        # Where RatingChange rows (lines.CHANGE_COLUMNS) go: the COPY stream of replay_from.
        self.write: Callable[[tuple], None] = self._no_writer
        self.penalties: list = []
        self.players: dict[int, Facts] = {}
        self.approved: dict[int, list[tuple[datetime.date, int]]] = defaultdict(list)
        self.summary = Summary()
        # The systems this process rates: all, or a share when a child process rates the others.
        self.systems: tuple[str, ...] = ENGINE_SYSTEMS
        # From the start of the history: no standing survives, so none is ever read from the database.
        self.from_scratch = False
        self._mchess_loaded = False
        # Per player, the moment of the last override before the roll-back point (restoring).
        self.override_moment: dict[int, Key] = {}
        # The opening lists on the walk: list id -> [(player id, {system: snapshot})].
        self.opening_states: dict[int, list] = {}

    @staticmethod
    def _no_writer(row) -> None:
        raise RuntimeError("rating changes are written inside replay_from's stream")

    anchor = staticmethod(lines.anchor)

    def roll_back(self, key: Key) -> None:
        rollback.roll_back(self, key)

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

    def load_all_mchess(self) -> None:
        """Every Mchess-rated player (the penalty's subjects), once per replay."""
        if not self._mchess_loaded:
            known = PlayerRating.objects.filter(system=System.MCHESS).values_list("player_id", flat=True)
            self._load(System.MCHESS, list(known))
            self._mchess_loaded = True

    def load_approvals(self) -> None:
        """Every approved FIDE-rating import (a short list: one per approved application)."""
        approved = FideImportApplication.objects.filter(
            status=FideImportApplication.Status.APPROVED, player__isnull=False, decided_at__isnull=False
        ).values_list("player_id", "decided_at", "fide_rating")
        for player_id, decided_at, rating in approved:
            self.approved[player_id].append((timezone.localdate(decided_at), rating))
        for player_id, effective, rating in opening_fide_ratings():
            self.approved[player_id].append((effective, rating))

    def preload(self, overrides: list[RatingOverride], months: list[datetime.date]) -> None:
        """The standings the events will touch, read before the stream opens."""
        for system in ENGINE_SYSTEMS:
            self._load(system, list(self.players))
            self._load(system, [o.player_id for o in overrides])
        if months:
            self.load_all_mchess()

    def approved_fide(self, player_id: int, day: datetime.date) -> int | None:
        """The FIDE rating the federation approved for the player by `day` (the latest such)."""
        ratings = [(decided, rating) for decided, rating in self.approved.get(player_id, ()) if decided <= day]
        return max(ratings)[1] if ratings else None

    def mchess_rating(self, player_id: int, day: datetime.date) -> int:
        """The player's Mchess rating before an event of `day`, or his initial rating."""
        standing = self.standing(System.MCHESS, player_id)
        if standing is not None and standing.rating is not None:
            return standing.rating
        return mchess.initial_rating(
            computer=self.players[player_id].kind == Player.Kind.COMPUTER,
            fide_rating=self.approved_fide(player_id, day),
        )

    # --- Events -------------------------------------------------------------------------------

    def record(self, system, anchor, player_id, before, after, *, games, half_points, details, guest=False):
        details["state"] = after.snapshot() if after is not None else Standing().snapshot()
        self.summary.changes += 1
        self.write(
            (
                player_id,
                *anchor,
                system,
                before.rating if before else None,
                after.rating if after else None,
                bool(before and before.provisional),
                bool(after and after.provisional),
                games,
                score(half_points),
                guest,
                bool(after and after.rating is not None) and not guest,
                details,
            )
        )

    def override(self, decision: RatingOverride) -> None:
        """A decided rating (an approved FIDE import that replaces existing ratings) takes effect."""
        for system in self.systems:
            value = getattr(decision, system)
            if value is None:
                continue
            standing = self.standing(system, decision.player_id)
            if standing is None:
                standing = Standing()
                self.standings[system][decision.player_id] = standing
            override(system, standing, value)
            self.touched[system].add(decision.player_id)

    def opening(self, opening) -> None:
        """The opening list takes effect: each of its players starts from his standing in it."""
        for player_id, states in self.opening_states[opening.pk]:
            for system in self.systems:
                state = states.get(system)
                self.standings[system][player_id] = Standing.from_snapshot(state) if state is not None else None
                self.touched[system].add(player_id)

    # --- Writing ------------------------------------------------------------------------------

    def persist(self, ready: dict[str, tuple[BinaryIO, BinaryIO]] | None = None) -> None:
        """Write the touched players' standings; `ready` holds, per system, their PlayerRating and
        ProvisionalGame rows already as COPY text in temporary files (write_ready: made while the
        rating was still going on, ORR's by the forked child)."""
        ready = ready or {}
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
            if system in ready:
                ratings, games = ready[system]
                copy_lines(PlayerRating, RATING_COLUMNS, ratings)
                copy_lines(ProvisionalGame, PROVISIONAL_COLUMNS, games)
                continue
            copy_rows(PlayerRating, RATING_COLUMNS, self._ratings(system, touched))
            if system in (System.ORR, System.PLAYCHESS):
                copy_rows(ProvisionalGame, PROVISIONAL_COLUMNS, self._provisional_games(system, touched))

    def write_ready(self, system: str, files: tuple[BinaryIO, BinaryIO], between: Callable[[], None]) -> None:
        """The touched players' PlayerRating and ProvisionalGame rows of `system` as COPY text into
        two files, for persist, with `between()` called every few thousand players: made in the
        split run as soon as a process has rated its systems, beside the other process still
        rating, and kept on disk, not in either process's memory (the worker's peak is measured)."""
        ratings = line_format(PlayerRating, RATING_COLUMNS).text_line
        games = line_format(ProvisionalGame, PROVISIONAL_COLUMNS).text_line
        touched = list(self.touched[system])
        ratings_file, games_file = files
        for start in range(0, len(touched), 5000):
            some = touched[start : start + 5000]
            ratings_file.write("".join(map(ratings, self._ratings(system, some))).encode())
            if system in (System.ORR, System.PLAYCHESS):
                games_file.write("".join(map(games, self._provisional_games(system, some))).encode())
            between()
        ratings_file.flush()
        games_file.flush()

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
                if tournament_id is None:  # a mobile game: kept in the engine state only
                    continue
                yield (player_id, system, tournament_id, rnd, opponent_id, opponent_rating, score(half_points))


def timeline(replay: Replay, key: Key) -> list[tuple]:
    """Every event at or after `key`, in order, as (key, kind, item); reads the sources' events and
    their players' facts into the replay."""
    events = []
    for source in registered():
        batch = source.batch(key)
        for player_id, facts in batch.facts.items():
            replay.players.setdefault(player_id, facts)
        events += [(event.key, source.kind, event) for event in batch.events]
    months = PenaltyMonth.objects.filter(penalty.at_or_after(key)).values_list("month", flat=True)
    events += [(penalty_key(m), "penalty", m) for m in months]
    events += [(opening_key(o.effective), "opening", o) for o in openings_at_or_after(key)]
    overrides = [o for o in RatingOverride.objects.order_by("effective", "id") if override_key(o.effective) >= key]
    events += [(override_key(o.effective), "override", o) for o in overrides]
    # Stable: decisions of one day keep their (effective, id) order, after that day's opening list.
    events.sort(key=lambda event: event[0])
    return events


def replay_from(key: Key) -> Summary:
    """Roll back to just before `key` and rate every event from there on, in order."""
    with collector_aside() as read_done:
        return _replay_from(Key(*key), read_done)


def _replay_from(key: Key, read_done: Callable[[], None]) -> Summary:
    clock = _Clock()
    replay = Replay()
    replay.roll_back(key)
    clock.lap("roll back")
    events = timeline(replay, key)
    replay.load_approvals()
    replay.preload([e[2] for e in events if e[1] == "override"], [e[2] for e in events if e[1] == "penalty"])
    for _, kind, item in events:
        if kind == "opening":
            replay.opening_states[item.pk] = opening_states(item)
    games_count = sum(len(e[2].games) for e in events if e[1] == "tournament")
    games_count += sum(1 for e in events if e[1] == "mobile")
    clock.lap("read")
    read_done()
    if settings.RATING_RUN_PAUSE_SECONDS:
        time.sleep(settings.RATING_RUN_PAUSE_SECONDS)  # failure drills: a window to kill the worker in
    with contextlib.ExitStack() as files:  # the split run's temporary files, closed after persist
        _rate_and_persist(replay, events, games_count, files, clock)
    rated = {"tournament": replay.summary.tournaments, "mobile": replay.summary.mobile_games}
    for source in registered():
        if rated.get(source.kind):
            source.rated(rated[source.kind])
    clock.lap("write the ratings")
    replay.summary.players = set().union(*replay.touched.values())
    replay.summary.systems = {system for system, players in replay.touched.items() if players}
    # The public pages show the new ratings from the commit on; those the replay changed rendered first.
    pagecache.bump_on_commit(warm=True, changed=replay.summary)
    logger.info("replayed %s events, %s games, %s changes: %s", len(events), games_count, replay.summary.changes, clock)
    return replay.summary


def _rate_and_persist(replay: Replay, events, games_count: int, files: contextlib.ExitStack, clock) -> None:
    """Rate every event, the changes streaming into one COPY (split between two processes for a long
    history), then write the standings; `files` holds the split run's temporary files until then."""
    ready = None
    with copy_stream(RatingChange, lines.CHANGE_COLUMNS) as stream:
        if stream.raw is not None and games_count >= settings.RATING_PARALLEL_MIN_GAMES and hasattr(os, "fork"):
            ready = _run_split(replay, events, stream, files)
        elif stream.raw is not None:
            replay.write, flush = lines.line_writer(stream)
            _run(replay, events)
            flush()
        else:
            replay.write = stream.write
            _run(replay, events)
    replay.write = replay._no_writer
    clock.lap("rate and write the changes")
    replay.persist(ready)


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


def _run(replay: Replay, events, after_each=None) -> None:
    for _, kind, item in events:
        if kind == "override":
            replay.override(item)
        elif kind == "opening":
            replay.opening(item)
        else:
            RATE[kind](replay, item)
        if after_each is not None:
            after_each()


def _run_split(replay: Replay, events, stream, files: contextlib.ExitStack) -> dict[str, tuple[BinaryIO, BinaryIO]]:
    """ORR in a forked child, Mchess and PlayChess here, both on the same events, in parallel.
    Each process also writes its systems' standings as COPY text into temporary files (opened
    here, before the fork, so the child's are shared with this process) for persist."""
    from ratings.forked import Child

    tail = stream.line_end
    here = (System.MCHESS, System.PLAYCHESS)
    temporary = lambda: files.enter_context(tempfile.TemporaryFile())  # noqa: E731, SIM115 - the stack closes it
    ready = {system: (temporary(), temporary()) for system in ENGINE_SYSTEMS}

    def rate_orr(write_line):
        replay.systems = (System.ORR,)
        replay.write = lambda row: write_line(lines.change_line(row, tail))
        _run(replay, events)
        replay.write_ready(System.ORR, ready[System.ORR], between=_nothing)
        return replay.touched[System.ORR], replay.summary.changes

    child = Child(rate_orr)
    try:
        replay.systems = here
        replay.write, flush = lines.line_writer(stream)
        forward = lambda: child.forward(stream.raw)  # noqa: E731 - passed on as a callback
        _run(replay, events, after_each=forward)
        flush()
        for system in here:  # while the child may still be rating, its lines passed on between
            replay.write_ready(system, ready[system], between=forward)
        touched, changes = child.finish(stream.raw)
    except BaseException:
        child.kill()
        raise
    replay.systems = ENGINE_SYSTEMS
    # ORR's standings stay in the child: its rows come back ready to COPY (persist).
    replay.touched[System.ORR] |= touched
    replay.summary.changes += changes
    return ready


def _nothing() -> None:
    pass


__all__ = ["START", "Replay", "Summary", "local_date", "replay_from"]
