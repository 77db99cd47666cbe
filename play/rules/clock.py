"""The mobile-chess clock (docs/rules/mobile-chess.md, "Clocks (rules 2i, 6)", "Time claims"
and "Edge cases"): plain data in and out, no Django, exact integer seconds.

Every instant is a timezone-aware datetime, converted to UTC and truncated to the whole second
before any arithmetic (the spec counts in whole seconds); naive datetimes are refused. Durations
are ints of seconds.

Plies are numbered from 1 (White's first move); ply p is move k = (p + 1) // 2 of White when p is
odd, of Black when even. "Move k" in the allowance is always the player's own move number.

A deadline D is *passed* at `now` only when now > D: a message arriving in the same second as a
deadline counts as arriving before it (Edge cases). The instant recorded for what happens at a
deadline (a claim filed, a claim conceded) is D itself, whenever the sweep that notices it runs.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field, replace

WHITE = "white"
BLACK = "black"
COLORS = (WHITE, BLACK)

PROTEST_WINDOW = 86_400  # rule 7c, "within 1 day", counted from the claim notice's receipt

# Claim kinds (rule 6d): a move that arrived over the allowance, or no valid move by s + N.
EXCEEDED_BY_MOVE = "move"
EXCEEDED_NO_REPLY = "no reply"

_CONTROL = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*\+\s*(\d+)\s*/\s*(\d+)\s*$")


class ControlError(ValueError):
    """A time control or norm that cannot be used; the message says what is wrong."""


@dataclass(frozen=True)
class TimeControl:
    """B seconds for the first M moves, then E seconds for every further X moves; norm N (rule 6a,
    rule 2i). Defaults: 10800/30+1200/10, N = 60."""

    base: int = 10_800  # B
    moves: int = 30  # M
    extra: int = 1_200  # E
    every: int = 10  # X
    norm: int = 60  # N

    def __post_init__(self):
        for name in ("base", "moves", "extra", "every", "norm"):
            value = getattr(self, name)
            if type(value) is not int:
                raise ControlError(f"the {name} of a time control must be a whole number, not {value!r}")
        if self.base < 1 or self.moves < 1 or self.every < 1:
            raise ControlError(
                f"time control {self}: the base time, its number of moves and the moves per "
                "further period must all be at least 1"
            )
        if self.extra < 0 or self.norm < 0:
            raise ControlError(f"time control {self}: the added time and the norm cannot be negative")

    @classmethod
    def parse(cls, text: str = "10800/30+1200/10", norm: int = 60) -> TimeControl:
        """Read the transcript form "B/M+E/X" (seconds / moves + seconds / moves)."""
        if not isinstance(text, str):
            raise ControlError(f"a time control is written like 10800/30+1200/10, not {text!r}")
        found = _CONTROL.match(text)
        if not found:
            raise ControlError(
                f"time control {text!r} is not of the form seconds/moves+seconds/moves, e.g. 10800/30+1200/10"
            )
        if type(norm) is not int:
            raise ControlError(f"the transmission norm must be a whole number of seconds, not {norm!r}")
        base, moves, extra, every = (int(part) for part in found.groups())
        return cls(base=base, moves=moves, extra=extra, every=every, norm=norm)

    def __str__(self) -> str:
        return f"{self.base}/{self.moves}+{self.extra}/{self.every}"

    def allowance(self, k: int) -> int:
        """A(k) = B for k <= M, else B + E * ceil((k - M) / X) (rule 6a, 6b: saved time is
        carried forward, so the allowance is cumulative)."""
        _check_move(k)
        return self.base + self.extra * self.period(k)

    def period(self, k: int) -> int:
        """The control period of move k: 0 for moves 1..M, then 1 for M+1..M+X, 2 for the next X
        moves, and so on (ceil((k - M) / X) with integers only). "At most one claim per player
        per control period" counts in these periods."""
        _check_move(k)
        return 0 if k <= self.moves else -(-(k - self.moves) // self.every)

    def period_moves(self, period: int) -> tuple[int, int]:
        """First and last move number of a control period."""
        if period == 0:
            return 1, self.moves
        last = self.moves + period * self.every
        return last - self.every + 1, last


def _check_move(k: int) -> None:
    if type(k) is not int or k < 1:
        raise ValueError(f"a move number is a whole number from 1, not {k!r}")


# --- instants -------------------------------------------------------------------------------


def whole_second(instant: datetime.datetime) -> datetime.datetime:
    """The instant in UTC, truncated to the whole second (never rounded up: a move sent at
    10:05:30.9 was sent at 10:05:30). A naive datetime is refused: its zone is unknown."""
    if not isinstance(instant, datetime.datetime):
        raise TypeError(f"an instant must be a datetime, not {instant!r}")
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError(f"{instant.isoformat()} has no time zone; only timezone-aware instants are accepted")
    return instant.astimezone(datetime.UTC).replace(microsecond=0)


def seconds(later: datetime.datetime, earlier: datetime.datetime) -> int:
    """Whole seconds from earlier to later (negative when later is earlier)."""
    return int((whole_second(later) - whole_second(earlier)).total_seconds())


def after(instant: datetime.datetime, secs: int) -> datetime.datetime:
    return whole_second(instant) + datetime.timedelta(seconds=secs)


def receipt(dispatch: datetime.datetime, norm: int) -> datetime.datetime:
    """Rule 6c: a message is deemed received at its dispatch time + N. A move is dispatched to
    the opponent at its arrival. Channel delivery reports never move this (Decision)."""
    return after(dispatch, norm)


def first_receipt(start: datetime.datetime, norm: int) -> datetime.datetime:
    """White's first period starts at the game's start + N: the start notice is a transmission."""
    return receipt(start, norm)


def sending_time(arrival: datetime.datetime, reported: datetime.datetime | None, norm: int) -> datetime.datetime:
    """The sending time of a reply: the channel's reported time clamped to [arrival - N, arrival],
    or the arrival when the channel reports none (Decision: a phone's clock can never buy time)."""
    arrival = whole_second(arrival)
    if reported is None:
        return arrival
    return min(arrival, max(after(arrival, -norm), whole_second(reported)))


def time_used(sent: datetime.datetime, receipt_at: datetime.datetime) -> int:
    """u_k = max(0, sent_k - receipt_k); receipt_k is the receipt of the opponent's move that put
    the player on move (referrals in between do not restart it)."""
    return max(0, seconds(sent, receipt_at))


def exceeded(total: int, allowance: int) -> bool:
    """Rule 6d.1: a move arriving with T_k > A(k). Exactly at the allowance is in time."""
    return total > allowance


def flag_second(receipt_at: datetime.datetime, allowance: int, total_before: int) -> datetime.datetime:
    """s, the first whole second with T_(k-1) + (s - receipt_k) > A(k):
    s = receipt_k + A(k) - T_(k-1) + 1 (rule 6d.2). A move sent at s is over the allowance."""
    return after(receipt_at, allowance - total_before + 1)


def no_reply_filing(receipt_at: datetime.datetime, allowance: int, total_before: int, norm: int) -> datetime.datetime:
    """Rule 6d.2, failure to reply: the claim is filed at s + N if no valid move has arrived by
    then (the grace N lets a move sent in time arrive). A move arriving in the second s + N itself
    counts as before it."""
    return after(flag_second(receipt_at, allowance, total_before), norm)


def reminder_instant(receipt_at: datetime.datetime, allowance: int, total_before: int) -> datetime.datetime | None:
    """The 80 % reminder (issue #14) to the player on move k. Decision: "the time to the next
    control" is what the player had left when put on move, R = A(k) - T_(k-1); the reminder is
    due once 80 % of R has elapsed since receipt_k, at receipt_k + ceil(4 R / 5) (rounded up, so
    it never comes before 80 % is really gone). None when R <= 0 (nothing left to remind of)."""
    remaining = allowance - total_before
    if remaining <= 0:
        return None
    return after(receipt_at, -(-4 * remaining // 5))


def protest_deadline(filed: datetime.datetime, norm: int, pauses=()) -> datetime.datetime:
    """Rule 7c: a protest is accepted until the claim notice's receipt + 86 400 s. The notice is
    dispatched at filing, so its receipt is filed + N, and the window ends at filed + N + 86 400.
    A protest arriving in that very second is in time; the claim is conceded at this instant
    when no protest came (found by a sweep once now is past it).

    A leave the TD granted (`pauses`, the game's paused periods) stops the window as it stops the
    clocks: a player on leave cannot be expected to protest, so the part of a leave inside the
    window moves its end by as much (beyond the draft: leave is)."""
    return run_until(pauses, filed, norm + PROTEST_WINDOW)


def appeal_deadline(decision_dispatched: datetime.datetime, norm: int) -> datetime.datetime:
    """Rule 10c: an appeal against a TD decision is accepted until the decision's receipt
    (dispatch + N) + 86 400 s; the same-second rule applies as to a protest."""
    return after(decision_dispatched, norm + PROTEST_WINDOW)


def passed(deadline: datetime.datetime | None, now: datetime.datetime) -> bool:
    """Whether a deadline is over at `now`: only from the second after it (same-second rule)."""
    return deadline is not None and whole_second(now) > whole_second(deadline)


def color_of_ply(ply: int) -> str:
    return WHITE if ply % 2 == 1 else BLACK


def move_of_ply(ply: int) -> int:
    return (ply + 1) // 2


def ply_of(move: int, color: str) -> int:
    return 2 * move - (1 if color == WHITE else 0)


def opponent(color: str) -> str:
    return BLACK if color == WHITE else WHITE


# --- what the clock reports -----------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """A time claim filed by the system against a player (rule 7a). `ply` is the ply of the move
    that exceeded, or of the move the player was to make; `kind` is EXCEEDED_BY_MOVE or
    EXCEEDED_NO_REPLY; `total` and `allowance` are T and A at the excess (for a failure to reply,
    T as of the filing instant)."""

    against: str
    ply: int
    filed: datetime.datetime
    kind: str
    total: int
    allowance: int
    norm: int
    period: int  # the control period of the move, in which no second claim is filed

    @property
    def period_key(self) -> tuple[str, int]:
        return self.against, self.period

    @property
    def protest_deadline(self) -> datetime.datetime:
        """The window's end without any leave; ClockState.protest_deadline(claim) counts the game's."""
        return protest_deadline(self.filed, self.norm)


def _claim(control: TimeControl, **kwargs) -> Claim:
    return Claim(norm=control.norm, period=control.period(move_of_ply(kwargs["ply"])), **kwargs)


@dataclass(frozen=True)
class Reminder:
    """The 80 % reminder to the player on move at ply `ply`, due at `at`."""

    to: str
    ply: int
    at: datetime.datetime


@dataclass(frozen=True)
class Conceded:
    """A claim whose protest window ended at `at` without a protest: conceded at that instant."""

    claim: Claim
    at: datetime.datetime


@dataclass(frozen=True)
class MoveTiming:
    """The clock figures of one accepted move, as the record and the acknowledgement show them."""

    ply: int
    color: str
    arrival: datetime.datetime
    sent: datetime.datetime
    receipt: datetime.datetime
    used: int
    total: int
    allowance: int

    @property
    def in_time(self) -> bool:
        return not exceeded(self.total, self.allowance)


# --- the clock of one game ------------------------------------------------------------------


@dataclass(frozen=True)
class ClockState:
    """What a game machine keeps per game between messages. Immutable: every transition returns a
    new state. `next_due` is the moment the sweeper must look at the game again.

    ply: the ply to be played next; receipt: receipt_k of the player on move; totals: T of each
    player (uses plus TD adjustments); running: False once the game has ended (no more flags or
    reminders, but protest windows of open claims still run); reminded: the reminder for the
    current move was sent; closed: (player, period) pairs in which no further claim is filed (a
    claim was filed there, or the TD so ruled, rule 7f); windows: filed claims whose protest
    window is still running and unprotested."""

    control: TimeControl
    ply: int
    receipt: datetime.datetime
    white_total: int = 0
    black_total: int = 0
    running: bool = True
    reminded: bool = False
    closed: frozenset = field(default_factory=frozenset)
    windows: tuple = ()
    # Periods (begin, end) in which every clock of the game stands still (a leave the TD granted):
    # their seconds count neither in a move's time used nor towards a flag or a reminder.
    # Snapshots pickled before the field existed read the class default (no pause).
    pauses: tuple = ()

    @property
    def on_move(self) -> str:
        return color_of_ply(self.ply)

    @property
    def move_number(self) -> int:
        return move_of_ply(self.ply)

    def total(self, color: str) -> int:
        return self.white_total if color == WHITE else self.black_total

    @property
    def allowance(self) -> int:
        return self.control.allowance(self.move_number)

    @property
    def remaining(self) -> int:
        """Time left to the next control for the player on move, as of receipt_k."""
        return self.allowance - self.total(self.on_move)

    def shown(self, color: str, now: datetime.datetime) -> tuple[int, int]:
        """What a live clock shows for a player at `now`: (time used so far, time left to the next
        control). For the player on move the current move's time runs from receipt_k (never
        before it); the left time may go negative once the flag has fallen."""
        total = self.total(color)
        if self.running and color == self.on_move:
            total += running_seconds(self.pauses, self.receipt, now)
            move = self.move_number
        else:
            move = move_of_ply(self.ply if color == self.on_move else self.ply + 1)
        return total, self.control.allowance(move) - total

    @property
    def can_claim(self) -> bool:
        return (self.on_move, self.control.period(self.move_number)) not in self.closed

    @property
    def filing_at(self) -> datetime.datetime | None:
        """When a failure-to-reply claim is due (s + N), or None when none can be filed."""
        if not self.running or not self.can_claim:
            return None
        if self.pauses:
            # s and s + N count only running seconds: no claim is filed for a paused period.
            flag = self.allowance - self.total(self.on_move) + 1
            return run_until(self.pauses, self.receipt, flag + self.control.norm)
        return no_reply_filing(self.receipt, self.allowance, self.total(self.on_move), self.control.norm)

    @property
    def reminder_at(self) -> datetime.datetime | None:
        if not self.running or self.reminded or not self.can_claim:
            return None
        due = reminder_instant(self.receipt, self.allowance, self.total(self.on_move))
        if due is None or not self.pauses:
            return due
        return run_until(self.pauses, self.receipt, seconds(due, self.receipt))

    def protest_deadline(self, claim: Claim) -> datetime.datetime:
        """The end of `claim`'s protest window in this game: moved by any pause (leave) in it."""
        return protest_deadline(claim.filed, claim.norm, self.pauses)

    @property
    def next_due(self) -> datetime.datetime | None:
        """The earliest of the failure-to-reply filing, the reminder and a protest window's end;
        None when nothing is due (the sweeper's index)."""
        due = [self.filing_at, self.reminder_at, *(self.protest_deadline(c) for c in self.windows)]
        due = [d for d in due if d is not None]
        return min(due) if due else None


def start(control: TimeControl, game_start: datetime.datetime) -> ClockState:
    """The clock at the game's start: White on move 1, receipt = start + N."""
    return ClockState(control=control, ply=1, receipt=first_receipt(game_start, control.norm))


def _file(state: ClockState, claim: Claim) -> ClockState:
    return replace(state, closed=state.closed | {claim.period_key}, windows=(*state.windows, claim))


def advance(state: ClockState, now: datetime.datetime, *, remind: bool = True) -> tuple[ClockState, list]:
    """Everything due strictly before `now` (the same-second rule): the 80 % reminder, a
    failure-to-reply claim filed at s + N, concessions of claims whose protest window ended.
    Returns the new state and the events (Reminder, Claim, Conceded) in the order of their
    instants. This is the sweeper's one pass over a game. remind=False skips the reminder (a move
    that has arrived makes a reminder not yet sent moot)."""
    events: list = []
    filing = state.filing_at
    if passed(filing, now):
        color = state.on_move
        claim = _claim(
            state.control,
            against=color,
            ply=state.ply,
            filed=filing,
            kind=EXCEEDED_NO_REPLY,
            total=state.total(color) + running_seconds(state.pauses, state.receipt, filing),
            allowance=state.allowance,
        )
        # No reminder after the flag has fallen: the claim notice says more.
        state = replace(_file(state, claim), reminded=True)
        events.append(claim)
    reminder = state.reminder_at
    if remind and passed(reminder, now):
        state = replace(state, reminded=True)
        events.append(Reminder(to=state.on_move, ply=state.ply, at=reminder))
    open_windows = []
    for claim in state.windows:
        deadline = state.protest_deadline(claim)
        if passed(deadline, now):
            events.append(Conceded(claim=claim, at=deadline))
        else:
            open_windows.append(claim)
    state = replace(state, windows=tuple(open_windows))
    events.sort(key=lambda e: e.filed if isinstance(e, Claim) else e.at)
    return state, events


def apply_move(
    state: ClockState, arrival: datetime.datetime, reported: datetime.datetime | None = None
) -> tuple[ClockState, MoveTiming, list]:
    """An accepted move of the player on move arrives. First whatever fell due before its arrival
    is handled (advance), then u, T and A of the move are computed; a move over its allowance
    files a claim at its arrival (rule 6d.1) unless one was already filed against that player in
    this control period. The move is dispatched to the opponent at its arrival, so the opponent's
    receipt is arrival + N. A conditional reply is applied with reported = arrival of the move it
    answers (and that same arrival): it uses 0 s.

    Returns (new state, the move's timing, events in order)."""
    if not state.running:
        raise ValueError("the game has ended: its clock takes no more moves")
    arrival = whole_second(arrival)
    dispatched = after(state.receipt, -state.control.norm)
    if arrival < dispatched:
        raise ValueError(
            f"a move arriving at {arrival.isoformat()} cannot answer one dispatched at {dispatched.isoformat()}"
        )
    state, events = advance(state, arrival, remind=False)
    color = state.on_move
    sent = sending_time(arrival, reported, state.control.norm)
    used = time_used(sent, state.receipt)
    if state.pauses:
        used = running_seconds(state.pauses, state.receipt, sent)
    total = state.total(color) + used
    timing = MoveTiming(
        ply=state.ply,
        color=color,
        arrival=arrival,
        sent=sent,
        receipt=state.receipt,
        used=used,
        total=total,
        allowance=state.allowance,
    )
    if not timing.in_time and state.can_claim:
        claim = _claim(
            state.control,
            against=color,
            ply=state.ply,
            filed=arrival,
            kind=EXCEEDED_BY_MOVE,
            total=total,
            allowance=timing.allowance,
        )
        state = _file(state, claim)
        events.append(claim)
    totals = {"white_total": total} if color == WHITE else {"black_total": total}
    state = replace(state, ply=state.ply + 1, receipt=receipt(arrival, state.control.norm), reminded=False, **totals)
    return state, timing, events


def protest(state: ClockState, against: str, arrival: datetime.datetime) -> tuple[ClockState, Claim | None]:
    """A `PROTEST` from the player against whom a claim is open (rule 7c). In time when it arrives
    no later than the window's end (same second counts as before). The protested claim leaves
    the clock's windows: it now waits for the TD, not for time. None when no open claim of that
    player was still in its window; the earliest filed is protested first."""
    for claim in state.windows:
        if claim.against == against and not passed(state.protest_deadline(claim), arrival):
            return replace(state, windows=tuple(c for c in state.windows if c is not claim)), claim
    return state, None


def dismiss(state: ClockState, claim: Claim, *, no_further: bool = False) -> ClockState:
    """The TD dismisses a claim (rule 7d, 7f): play goes on. Decision: a dismissed claim does not
    count against "one claim per player per control period", so its period opens again, unless
    the TD rules that no further claim against that player is accepted in it (no_further=True).
    A TD who dismisses without crediting time should so rule: the player's T is still over A,
    and the next sweep would file again."""
    windows = tuple(c for c in state.windows if c != claim)
    closed = state.closed if no_further else state.closed - {claim.period_key}
    return replace(state, windows=windows, closed=closed)


def close_period(state: ClockState, color: str, period: int | None = None) -> ClockState:
    """The TD's ruling after dismissing a claim that no further claim against that player is
    accepted in the current control period (rule 7f). `period` defaults to the period of the
    player's next move."""
    if period is None:
        move = state.move_number if state.on_move == color else move_of_ply(state.ply + 1)
        period = state.control.period(move)
    return replace(state, closed=state.closed | {(color, period)})


def adjust(state: ClockState, color: str, secs: int) -> ClockState:
    """A TD's credit (negative) or charge (positive) to a player's accumulated time (rule 2i,
    10a). The next due moments move with it."""
    if type(secs) is not int:
        raise ValueError(f"a time adjustment is a whole number of seconds, not {secs!r}")
    if color == WHITE:
        return replace(state, white_total=state.white_total + secs)
    return replace(state, black_total=state.black_total + secs)


def finish(state: ClockState) -> ClockState:
    """The game ended (mate, resignation, agreed draw, ...): no more flags or reminders. Open
    claims keep their protest windows: a conceded claim still decides (the excess came first)."""
    return replace(state, running=False)


# --- pauses (a leave) -----------------------------------------------------------------------


def pause(state: ClockState, begin: datetime.datetime, end: datetime.datetime) -> ClockState:
    """Every clock of the game stands still from `begin` to `end` (a leave the TD granted, as
    ICCF practice pauses the games, the opponent's clock too): the seconds in between count in
    no time used, and a flag, a filing or a reminder due in or after the period moves past it by
    its length. Overlapping periods count once."""
    begin, end = whole_second(begin), whole_second(end)
    if end <= begin:
        raise ValueError(f"a pause ends after it begins, not {begin.isoformat()} to {end.isoformat()}")
    return replace(state, pauses=_merged((*state.pauses, (begin, end))))


def _merged(pauses) -> tuple:
    merged: list[tuple[datetime.datetime, datetime.datetime]] = []
    for begin, end in sorted(pauses):
        if merged and begin <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((begin, end))
    return tuple(merged)


def paused_seconds(pauses, begin: datetime.datetime, end: datetime.datetime) -> int:
    """The seconds of [begin, end) that fall in a pause."""
    total = 0
    for start, stop in pauses:
        total += max(0, seconds(min(stop, end), max(start, begin)))
    return total


def running_seconds(pauses, begin: datetime.datetime, end: datetime.datetime) -> int:
    """The seconds a clock runs from `begin` to `end`: paused ones aside; 0 when end <= begin."""
    if end <= begin:
        return 0
    return seconds(end, begin) - paused_seconds(pauses, begin, end)


def run_until(pauses, begin: datetime.datetime, secs: int) -> datetime.datetime:
    """The instant at which a clock started at `begin` has run `secs` seconds, pauses skipped.
    An instant reached exactly when a pause begins is that instant (the clock stops after it)."""
    now, left = whole_second(begin), secs
    for start, stop in pauses:
        if stop <= now:
            continue
        if start >= after(now, left):
            break
        left -= max(0, seconds(start, now))
        now = max(now, stop)
    return after(now, left)
