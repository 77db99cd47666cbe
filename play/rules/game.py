"""The pure game machine of mobile chess (docs/rules/mobile-chess.md, whole): one immutable value
per game and the two operations that change it, `receive` (one player's message) and `advance`
(the sweeper's pass at a moment). No Django: a service stores the value and turns what the
operations return into outbox rows.

A `Game` holds the moves (with their clock figures), the clock state, the pending draw offer,
the conditional lines of each player, the time claims with their statuses, the referrals, the
notices for the TD (PROTEST, DELAY, FAILURE, DISPUTE, APPEAL), how the game ended and when, and from these the
result, its termination and the finishing moment (what Mchess rates the game at).

Plies: `Move.ply` counts from 1 like the clock and the transcript output (White's first move is
ply 1); message.py and notation.py count from 0, so the machine converts at their boundary.

Every operation returns a new Game and a tuple of `Outbound` items: what must be sent, to whom
("white", "black" or "td"), as plain data (kind + a dict of JSON-ready values).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace

import chess

from play.rules import clock, ending
from play.rules import outbound as out
from play.rules.clock import BLACK, WHITE, opponent
from play.rules.message import (
    Command,
    ConditionalLine,
    Referral,
    check_conditional,
    check_reply,
    follow_conditional,
    parse_message,
)
from play.rules.notation import Reason

TD = "td"


@dataclass(frozen=True)
class Move:
    """An accepted move: `ply` from 1, its SAN, the python-chess move, the clock figures, whether
    it was played from a conditional line and whether it offered a draw."""

    ply: int
    san: str
    move: chess.Move
    timing: clock.MoveTiming
    conditional: bool = False
    draw_offer: bool = False

    @property
    def color(self) -> str:
        return self.timing.color


@dataclass(frozen=True)
class ClaimRecord:
    """A time claim and where it stands. `outcome` is what it gives when conceded or upheld
    (judged on the position at filing); `decided` is the instant of its concession or the TD's
    decision."""

    claim: clock.Claim
    status: str
    outcome: ending.Outcome
    decided: datetime.datetime | None = None

    def as_result(self) -> ending.ClaimResult:
        return ending.ClaimResult(filed=self.claim.filed, status=self.status, outcome=self.outcome)


@dataclass(frozen=True)
class ReferralRecord:
    """A message referred back (rule 4c): when, from whom, the reason code and its explanation."""

    at: datetime.datetime
    sender: str
    reason: Reason
    explanation: str
    text: str


@dataclass(frozen=True)
class Notice:
    """Something for the TD that changes nothing by itself: a PROTEST (with the claim it protests,
    or none), a DELAY (minutes declared), a FAILURE report, a DISPUTE (rule 5d) or an APPEAL of a
    TD decision (rule 10c)."""

    kind: str
    sender: str
    at: datetime.datetime
    text: str
    minutes: int | None = None


@dataclass(frozen=True)
class Outbound:
    """One message the service must send: to "white", "black" or "td"; `kind` names it; `data`
    holds plain, JSON-ready values."""

    to: str
    kind: str
    at: datetime.datetime
    data: dict = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Received:
    """What `receive` did with a message: `applied` is "move", "referral", "resign", "draw agreed",
    "draw claim", "draw offer absent", "protest", "no claim", "delay", "failure", "dispute",
    "appeal", "status",
    "record", "help", "conditional" or "after end"; `referral` when referred back; `send` the
    outbound messages (clock events that fell due before the message come first)."""

    applied: str
    send: tuple[Outbound, ...] = ()
    referral: ReferralRecord | None = None


@dataclass(frozen=True)
class Game:
    """One game's whole state. Build it with `new_game`; change it only through receive, advance
    and decide. `board` is a private copy: never push on it."""

    start: datetime.datetime
    clock: clock.ClockState
    board: chess.Board = field(compare=False)
    moves: tuple[Move, ...] = ()
    draw_offer: str | None = None  # the colour whose offer is pending
    conditionals: tuple[tuple[ConditionalLine, ...], tuple[ConditionalLine, ...]] = ((), ())  # white, black
    claims: tuple[ClaimRecord, ...] = ()
    referrals: tuple[ReferralRecord, ...] = ()
    notices: tuple[Notice, ...] = ()
    ended: ending.Outcome | None = None  # how play ended (mate, resignation, ...), claims aside
    ended_at: datetime.datetime | None = None
    # A result the TD scored (rule 10a: a penalty, a disqualification, an adjudication): it
    # stands above play and claims until an appeal clears it (`score(game, None, at)`). Snapshots
    # pickled before these fields existed read the class defaults (None).
    ruled: ending.Outcome | None = None
    ruled_at: datetime.datetime | None = None

    @property
    def control(self) -> clock.TimeControl:
        return self.clock.control

    @property
    def outcome(self) -> ending.Outcome:
        if self.ruled is not None:
            return self.ruled
        return ending.game_outcome(self.ended, [c.as_result() for c in self.claims])

    @property
    def over(self) -> bool:
        """No more moves or game commands: play ended, or a claim was conceded or upheld."""
        if self.ruled is not None:
            return True
        return self.ended is not None or any(c.status in (ending.CONCEDED, ending.UPHELD) for c in self.claims)

    @property
    def on_move(self) -> str:
        return WHITE if self.board.turn == chess.WHITE else BLACK

    @property
    def finished_at(self) -> datetime.datetime | None:
        """The finishing moment (Rating): the move, concession or decision that fixed the result;
        None while the result is "*"."""
        outcome = self.outcome
        if not outcome.finished:
            return None
        if self.ruled is not None:
            return self.ruled_at
        for record in sorted(self.claims, key=lambda c: c.claim.filed):
            if record.status in (ending.CONCEDED, ending.UPHELD):
                return record.decided
        # Ended otherwise: fixed then, or when the last claim that held the result pending was
        # dismissed.
        dismissals = [c.decided for c in self.claims if c.decided is not None and c.status == ending.DISMISSED]
        return max([self.ended_at, *dismissals])

    def lines_of(self, color: str) -> tuple[ConditionalLine, ...]:
        return self.conditionals[0 if color == WHITE else 1]

    def total(self, color: str) -> int:
        return self.clock.total(color)


def new_game(start: datetime.datetime, control: clock.TimeControl | None = None) -> Game:
    """A game starting at `start` (White's first period begins at start + N)."""
    control = control or clock.TimeControl()
    return Game(start=clock.whole_second(start), clock=clock.start(control, start), board=chess.Board())


# --- clock events -----------------------------------------------------------------------------


def _events(game: Game, events: list, board_after: chess.Board | None = None) -> tuple[Game, list[Outbound]]:
    """Record the clock's events: a claim is filed (judged on the board at filing: after the move
    that exceeded, or the current one for a failure to reply), a claim conceded, a reminder."""
    send: list[Outbound] = []
    for event in events:
        if isinstance(event, clock.Claim):
            board = board_after if (board_after is not None and event.kind == clock.EXCEEDED_BY_MOVE) else game.board
            outcome = ending.time_claim_outcome(board, ending.color_named(event.against))
            record = ClaimRecord(claim=event, status=ending.OPEN, outcome=outcome)
            game = replace(game, claims=(*game.claims, record))
            send.append(Outbound(TD, "claim", event.filed, out.claim_details(game, record)))
            send.append(Outbound(event.against, "claim", event.filed, out.claim_data(record, game.clock.pauses)))
        elif isinstance(event, clock.Conceded):
            claims = tuple(
                replace(c, status=ending.CONCEDED, decided=event.at) if c.claim == event.claim else c
                for c in game.claims
            )
            game = replace(game, claims=claims)
            if game.clock.running:
                game = replace(game, clock=clock.finish(game.clock))
            record = next(c for c in claims if c.claim == event.claim)
            data = {**out.claim_data(record, game.clock.pauses), **out.result(game)}
            for to in (WHITE, BLACK, TD):
                send.append(Outbound(to, "claim conceded", event.at, data))
        elif isinstance(event, clock.Reminder):
            used, left = game.clock.shown(event.to, event.at)
            send.append(Outbound(event.to, "reminder", event.at, {"ply": event.ply, "used": used, "left": left}))
    return game, send


def advance(game: Game, now: datetime.datetime) -> tuple[Game, tuple[Outbound, ...]]:
    """The sweeper's pass at `now`: everything due strictly before it (same-second rule): the 80 %
    reminder, a failure-to-reply claim filed at s + N, concessions of claims whose protest window
    ended. Returns the new game and what to send."""
    state, events = clock.advance(game.clock, now, remind=not game.over)
    game, send = _events(replace(game, clock=state), events)
    return game, tuple(send)


def next_due(game: Game) -> datetime.datetime | None:
    """When the sweeper must look at the game again (None: never)."""
    return game.clock.next_due


# --- messages ---------------------------------------------------------------------------------


def _end(game: Game, outcome: ending.Outcome, at: datetime.datetime) -> Game:
    return replace(game, ended=outcome, ended_at=at, clock=clock.finish(game.clock), draw_offer=None)


def _set_lines(game: Game, color: str, lines: tuple[ConditionalLine, ...]) -> Game:
    white, black = game.conditionals
    return replace(game, conditionals=(lines, black) if color == WHITE else (white, lines))


def _play(
    game: Game,
    color: str,
    move: chess.Move,
    arrival: datetime.datetime,
    reported: datetime.datetime | None,
    *,
    draw_offer: bool = False,
    conditional: bool = False,
) -> tuple[Game, list[Outbound]]:
    """An accepted move of the player on move: the clock, the board, the record, the draw offer
    (made with this move, or lapsing), an automatic end, and then the opponent's conditional
    lines (a matching line's reply is played at once with 0 s; a non-matching move cancels all)."""
    state, timing, events = clock.apply_move(game.clock, arrival, reported)
    before = game.board
    san = before.san(move)
    board = before.copy()
    board.push(move)
    record = Move(ply=timing.ply, san=san, move=move, timing=timing, conditional=conditional, draw_offer=draw_offer)
    game = replace(
        game, clock=state, board=board, moves=(*game.moves, record), draw_offer=color if draw_offer else None
    )
    game, send = _events(game, events, board_after=board)
    data = out.move_data(game, record, before)
    send.append(Outbound(color, "acknowledgement", timing.arrival, data))
    send.append(Outbound(opponent(color), "move", timing.arrival, data))
    finished = ending.automatic_end(board)
    if finished is not None:
        game = _end(game, finished, timing.arrival)
        for to in (WHITE, BLACK):
            send.append(Outbound(to, "result", timing.arrival, out.result(game)))
        return game, send
    reply, remaining = follow_conditional(game.lines_of(opponent(color)), move)
    game = _set_lines(game, opponent(color), remaining)
    if reply is not None and not game.over:
        game, more = _play(game, opponent(color), reply, timing.arrival, timing.arrival, conditional=True)
        send.extend(more)
    return game, send


def _announced(game: Game, applied: str, at: datetime.datetime) -> Received:
    """The result told to both players and the TD."""
    return Received(applied, tuple(Outbound(to, "result", at, out.result(game)) for to in (WHITE, BLACK, TD)))


def _refer(
    game: Game, color: str, referral: Referral, at: datetime.datetime, text: str, claim: str | None = None
) -> tuple[Game, Received]:
    record = ReferralRecord(
        at=at, sender=color, reason=Reason(referral.reason), explanation=referral.explanation, text=text
    )
    game = replace(game, referrals=(*game.referrals, record))
    data = {"reason": record.reason.value, "explanation": record.explanation, "position": out.position(game)}
    if claim is not None:
        data["claim"] = claim
    return game, Received("referral", (Outbound(color, "referral", at, data),), record)


def receive(
    game: Game, sender: str, text: str, arrival: datetime.datetime, sent: datetime.datetime | None = None
) -> tuple[Game, Received]:
    """Apply one message from the player of colour `sender` (the spec's whole grammar). First the
    clock's events due before the arrival are handled (a claim filed, conceded, a reminder), so
    the clock keeps running through referrals. A game tag (#CODE) is not checked here: the service
    chose the game. Any message after the game's end changes nothing (the sender is told the
    state), except a PROTEST of a claim still open. Returns the new game and what happened."""
    if sender not in (WHITE, BLACK):
        raise ValueError(f"a message comes from 'white' or 'black', not {sender!r}")
    arrival = clock.whole_second(arrival)
    game, early = advance(game, arrival)
    game, received = _receive(game, sender, text, arrival, sent)
    return game, replace(received, send=(*early, *received.send))


def _receive(
    game: Game, sender: str, text: str, arrival: datetime.datetime, sent: datetime.datetime | None
) -> tuple[Game, Received]:
    message = parse_message(text)
    command = message.command
    me = ending.color_named(sender)

    def reply(kind: str, data: dict | None = None, applied: str | None = None) -> Received:
        return Received(applied or kind, (Outbound(sender, kind, arrival, data or out.state(game, arrival)),))

    if command in (Command.STATUS, Command.RECORD, Command.HELP):
        if command is Command.HELP:
            return game, reply("help", {"text": out.HELP_TEXT})
        if command is Command.RECORD:
            data = {**out.state(game, arrival), "moves": out.record(game)}
            return game, reply("record", data)
        return game, reply("status")
    if command is Command.PROTEST:
        state, claim = clock.protest(game.clock, sender, arrival)
        notice = Notice("protest", sender, arrival, message.text)
        if claim is None:
            # No claim of his in its window: the text still reaches the TD as a dispute (rule 5d),
            # and changes nothing; the sender is told the state.
            game = replace(game, notices=(*game.notices, notice))
            dispute = {"from": sender, "text": message.text, "claim": None, "position": out.position(game)}
            return game, Received(
                "no claim",
                (
                    Outbound(TD, "protest", arrival, dispute),
                    Outbound(sender, "state", arrival, out.state(game, arrival)),
                ),
            )
        claims = tuple(replace(c, status=ending.PROTESTED) if c.claim == claim else c for c in game.claims)
        game = replace(game, clock=state, claims=claims, notices=(*game.notices, notice))
        record = next(c for c in claims if c.claim == claim)
        data = {**out.claim_details(game, record), "protest": message.text}
        return game, Received(
            "protest",
            (
                Outbound(TD, "protest", arrival, data),
                Outbound(sender, "protest received", arrival, out.claim_data(record, game.clock.pauses)),
            ),
        )
    if command in (Command.DELAY, Command.FAILURE, Command.DISPUTE, Command.APPEAL) and not message.illegible:
        notice = Notice(command.value, sender, arrival, message.text, message.minutes)
        game = replace(game, notices=(*game.notices, notice))
        data = {"from": sender, "text": message.text, "minutes": message.minutes, "position": out.position(game)}
        return game, Received(
            command.value,
            (Outbound(TD, command.value, arrival, data), Outbound(sender, f"{command.value} received", arrival, data)),
        )
    if game.over:
        return game, reply("state", applied="after end")
    if command is Command.RESIGN:
        game = _end(game, ending.resignation(me), arrival)
        return game, _announced(game, "resign", arrival)
    if command is Command.DRAW:
        if game.draw_offer != opponent(sender):
            return game, reply("state", applied="draw offer absent")
        game = _end(game, ending.draw_agreed(), arrival)
        return game, _announced(game, "draw agreed", arrival)
    if command is Command.DRAW_CLAIM:
        if game.on_move != sender:
            return _refer(game, sender, Referral(Reason.TURN, "a draw is claimed by the player on move"), arrival, text)
        drawn = ending.draw_claim(game.board)
        if drawn is None:
            # "illegal" is the transcript's code (Edge cases); `claim` lets the texts and the page
            # head it "incorrect draw claim", not "illegal move".
            why = f"incorrect draw claim: {ending.draw_claim_refusal(game.board)}"
            return _refer(game, sender, Referral(Reason.ILLEGAL, why), arrival, text, claim="draw")
        game = _end(game, drawn, arrival)
        return game, _announced(game, "draw claim", arrival)
    if command is Command.IF:
        checked = check_conditional(message, [m.move for m in game.moves], me)
        if isinstance(checked, Referral):
            return _refer(game, sender, checked, arrival, text)
        game = _set_lines(game, sender, (*game.lines_of(sender), *checked))
        return game, reply("conditional", {"lines": len(game.lines_of(sender))})
    if command is not None:  # a DELAY or FAILURE that cannot be read
        return _refer(game, sender, Referral(Reason.ILLEGIBLE, message.illegible or "cannot be read"), arrival, text)
    checked = check_reply(message, game.board, me)
    if isinstance(checked, Referral):
        return _refer(game, sender, checked, arrival, text)
    reported = clock.whole_second(sent) if sent is not None else None
    game, send = _play(game, sender, checked.move, arrival, reported, draw_offer=checked.draw_offer)
    return game, Received("move", tuple(send))


def decide(
    game: Game, claim: clock.Claim, *, upheld: bool, at: datetime.datetime, no_further: bool = False
) -> tuple[Game, tuple[Outbound, ...]]:
    """The TD's decision on a protested (or open) claim (rule 7d): upheld, the player loses (or
    draws, FIDE 6.9); dismissed, play goes on, and `no_further` rules that no further claim
    against that player is accepted in this control period (rule 7f). Both players are told."""
    at = clock.whole_second(at)
    status = ending.UPHELD if upheld else ending.DISMISSED
    claims = tuple(replace(c, status=status, decided=at) if c.claim == claim else c for c in game.claims)
    if claims == game.claims:
        raise ValueError("no such claim in this game")
    state = game.clock if upheld else clock.dismiss(game.clock, claim, no_further=no_further)
    state = replace(state, windows=tuple(c for c in state.windows if c != claim))
    game = replace(game, claims=claims, clock=state)
    if upheld and game.clock.running:
        game = replace(game, clock=clock.finish(game.clock))
    record = next(c for c in claims if c.claim == claim)
    data = {**out.claim_data(record, game.clock.pauses), **out.result(game)}
    return game, tuple(Outbound(to, f"claim {status}", at, data) for to in (WHITE, BLACK, TD))


def adjust(game: Game, color: str, secs: int) -> Game:
    """The TD credits (negative) or charges (positive) time to a player's accumulated total
    (rule 2i, a declared DELAY; rule 10a, a penalty); the flag and the reminder move with it."""
    return replace(game, clock=clock.adjust(game.clock, color, secs))


def pause(game: Game, begin: datetime.datetime, end: datetime.datetime) -> Game:
    """The TD's ruling that the game stands still from `begin` to `end` (a player's leave): both
    clocks stop for the period, so no flag falls, no claim is filed and no reminder comes for it
    (clock.pause). A ruling in the continuous record, replayed like adjust."""
    return replace(game, clock=clock.pause(game.clock, begin, end))


def score(game: Game, outcome: ending.Outcome | None, at: datetime.datetime) -> Game:
    """The TD scores the game (rule 10a): `outcome` stands from `at` whatever play or claims say,
    and the clock stops. `None` clears a scored result (an appeal reversed it): the result is
    again what play and claims give, and if play had not ended the clock runs on from the
    receipt it stood at, as if it had never stopped (the TD may credit the time)."""
    at = clock.whole_second(at)
    if outcome is not None:
        state = clock.finish(game.clock) if game.clock.running else game.clock
        return replace(game, ruled=outcome, ruled_at=at, clock=state, draw_offer=None)
    game = replace(game, ruled=None, ruled_at=None)
    if game.ended is None and not game.over:
        game = replace(game, clock=replace(game.clock, running=True))
    return game


def reverse_claim(game: Game, claim: clock.Claim, at: datetime.datetime) -> Game:
    """The Appeals Commission reverses the TD's decision on a claim (rule 10c): upheld becomes
    dismissed (play goes on if it had not ended otherwise) and dismissed becomes upheld (the
    game is lost, or drawn, as a conceded claim), decided at `at`."""
    at = clock.whole_second(at)
    record = next((c for c in game.claims if c.claim == claim), None)
    if record is None or record.status not in (ending.UPHELD, ending.DISMISSED):
        raise ValueError("only an upheld or dismissed claim can be reversed")
    status = ending.DISMISSED if record.status == ending.UPHELD else ending.UPHELD
    claims = tuple(replace(c, status=status, decided=at) if c.claim == claim else c for c in game.claims)
    game = replace(game, claims=claims)
    if status == ending.UPHELD:
        return replace(game, clock=clock.finish(game.clock)) if game.clock.running else game
    if not game.over and game.ended is None:
        game = replace(game, clock=replace(game.clock, running=True))
    return game
