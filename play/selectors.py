"""Mobile chess reads for the pages: a game with what its page shows (from the machine's snapshot,
no replay of the record), who may act in it, the player's own games, the continuous record.

The machine's value (play/rules/game.py) is read through play/rules/outbound.py where that module
already gives the data (the record of moves, the clocks, the claims), so the page shows exactly
what the messages say.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

import chess
from django.conf import settings
from django.db.models import Count, Min, Q
from django.shortcuts import get_object_or_404

from accounts.roles import is_federation_admin
from play import state
from play.models import ChannelOutage, Color, MobileGame, Transmission
from play.rules import clock, ending
from play.rules import game as machine
from play.rules import outbound as out
from play.rules.notation import write_move
from players.selectors import linked_players, plays_as

COLORS = (Color.WHITE, Color.BLACK)
# Claims that still decide something: the page shows them to everyone (rule 7b: the players are
# informed; the public sees why a result is pending).
OPEN_CLAIMS = ("open", "protested")


def game_by_code(code: str) -> MobileGame:
    return get_object_or_404(
        MobileGame.objects.select_related("white", "black", "event", "event__td"), code__iexact=code
    )


def game_version(code: str) -> tuple[str, bool] | None:
    """What the live fragment's "nothing changed" check compares, in one small query: a version
    string that changes with every save of the game, and whether the game is still open."""
    row = MobileGame.objects.filter(code__iexact=code).values_list("updated_at", "status", "plies").first()
    if row is None:
        return None
    updated_at, status, plies = row
    return version_of(updated_at, plies), status == MobileGame.Status.OPEN


def version_of(updated_at: datetime.datetime, plies: int) -> str:
    return f"{int(updated_at.timestamp() * 1_000_000):x}-{plies}"


def colors_of(user, game: MobileGame) -> tuple[str, ...]:
    """The colours `user` may play in `game` (a parent may play as both his children)."""
    return tuple(color for color in COLORS if plays_as(user, game.player_of(color)))


def may_see_record(user, game: MobileGame) -> bool:
    """The continuous record holds the players' addresses: the federation's staff (admins) and the
    game's TD only (the event's, or the duty TD for a challenge game)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if game.event_id and game.event.td_id == user.pk:
        return True
    # A challenge game has no event: the federation's duty TD rules on it (settings).
    duty = settings.PLAY_DUTY_TD_USERNAME
    if not game.event_id and duty and user.get_username() == duty:
        return True
    return bool(user.is_staff or is_federation_admin(user))


@dataclass(frozen=True)
class RecordRow:
    """One numbered line of the record: White's and Black's move of that number."""

    number: int
    white: dict | None = None
    black: dict | None = None


@dataclass
class GameView:
    """What the game page and its live fragment show, read once from the snapshot."""

    game: MobileGame
    value: machine.Game
    now: datetime.datetime
    viewer_colors: tuple[str, ...] = ()
    clocks: dict = field(default_factory=dict)
    rows: list[RecordRow] = field(default_factory=list)
    claims: list[dict] = field(default_factory=list)

    @property
    def moves(self) -> list[chess.Move]:
        return [m.move for m in self.value.moves]

    @property
    def plies(self) -> int:
        return len(self.value.moves)

    @property
    def on_move(self) -> str | None:
        """The colour on move while the game is played; None once it is over."""
        return None if self.value.over or not self.value.clock.running else self.value.on_move

    @property
    def finished(self) -> bool:
        return self.value.outcome.finished

    @property
    def live(self) -> bool:
        """Whether the page keeps polling: anything can still change (a move, a claim, the TD's
        decision). An annulled game, or one whose result is fixed, will not change by play."""
        return self.game.status == MobileGame.Status.OPEN

    @property
    def draw_offer(self) -> str | None:
        return None if self.value.over else self.value.draw_offer

    @property
    def draw_claimable(self) -> bool:
        """Whether the player on move could claim a draw now (threefold repetition or fifty moves,
        rule of the game): the page offers the button only then, so it never invites a claim that
        would be referred back."""
        return self.on_move is not None and ending.draw_claim(self.value.board) is not None

    @property
    def last_move(self) -> str | None:
        return last_move_text(self.value)

    @property
    def flipped(self) -> bool:
        """The board from Black's side for a viewer who plays Black only."""
        return self.viewer_colors == (Color.BLACK,)

    def lines(self, color: str) -> list[str]:
        return conditional_lines(self.value, color)


def moves_for_update(game: MobileGame) -> list[chess.Move]:
    """The game's moves, its row locked until the caller's transaction ends (the move box writes
    the repetition from them, and the message service then locks the same row again)."""
    locked = MobileGame.objects.select_for_update().get(pk=game.pk)
    return [m.move for m in state.load(locked).moves]


def last_move_text(value: machine.Game) -> str | None:
    if not value.moves:
        return None
    board = value.board.copy()
    move = board.pop()
    return write_move(board, move, len(value.moves) - 1)


def game_view(game: MobileGame, *, user=None, now: datetime.datetime) -> GameView:
    value = state.load(game)
    colors = colors_of(user, game) if user is not None else ()
    view = GameView(game=game, value=value, now=now, viewer_colors=colors)
    on_move = view.on_move
    for color, face in out.clocks(value, now).items():
        view.clocks[color] = {**face, "running": color == on_move}
    view.rows = record_rows(out.record(value))
    view.claims = [out.claim_data(c, value.clock.pauses) for c in value.claims if c.status in OPEN_CLAIMS]
    return view


def record_rows(moves: list[dict]) -> list[RecordRow]:
    """The record's moves (play.rules.outbound.record) two a line, by move number."""
    lines: dict[int, dict] = {}
    for move in moves:
        number = (move["ply"] + 1) // 2
        side = "white" if move["ply"] % 2 else "black"
        lines.setdefault(number, {})[side] = move
    return [RecordRow(number, line.get("white"), line.get("black")) for number, line in sorted(lines.items())]


def conditional_lines(value: machine.Game, color: str) -> list[str]:
    """The lines `color` registered, written from the current position ("12... Nc6 13. Bb5").
    Only ever shown to that player: his opponent must not learn them."""
    written = []
    for line in value.lines_of(color):
        board = value.board.copy(stack=False)
        parts = []
        try:
            for pair in line:
                parts.append(write_move(board, pair.expected, pair.ply))
                board.push(pair.expected)
                parts.append(write_move(board, pair.reply, pair.ply + 1))
                board.push(pair.reply)
        except (AssertionError, ValueError):  # a line that no longer fits the position: show what did
            pass
        if parts:
            written.append(" ".join(parts))
    return written


def replies(ids: list[int], colors: tuple[str, ...]) -> list[Transmission]:
    """The outbound rows of a message's receipt addressed to the viewer's colours."""
    if not ids or not colors:
        return []
    return list(
        Transmission.objects.filter(pk__in=ids, direction=Transmission.Direction.OUT, party__in=colors).order_by("pk")
    )


def continuous_record(game: MobileGame) -> list[Transmission]:
    """Every transmission of the game, in and out and the TD's rulings, in order (rule 2j)."""
    return list(Transmission.objects.filter(game=game).select_related("player").order_by("pk"))


def game_outages(game: MobileGame, now: datetime.datetime) -> list[dict]:
    """The channel outages (rule 5e) this game waited on, newest first, with their duration (so
    far, while open): one query."""
    return [
        {
            "outage": outage,
            "seconds": outage.seconds if outage.ended_at else int((now - outage.started_at).total_seconds()),
        }
        for outage in ChannelOutage.objects.filter(games=game).order_by("-started_at", "-pk")
    ]


@dataclass(frozen=True)
class ChannelOutbox:
    """A channel's outbox as `play_channels check` reports it."""

    pending: int = 0
    oldest_pending: datetime.datetime | None = None
    failed_24h: int = 0
    outage: ChannelOutage | None = None


def outbox_by_channel(now: datetime.datetime) -> dict[str, ChannelOutbox]:
    """Per channel: pending outbound rows and the oldest one's dispatch time, rows failed that
    were due in the 24 hours before `now`, and the open outage. Three queries."""
    out = Transmission.objects.filter(direction=Transmission.Direction.OUT)
    pending = {
        row["channel"]: row
        for row in out.filter(delivery=Transmission.Delivery.PENDING)
        .values("channel")
        .annotate(n=Count("pk"), oldest=Min("at"))
        .order_by()
    }
    failed = dict(
        out.filter(delivery=Transmission.Delivery.FAILED, at__gte=now - datetime.timedelta(hours=24))
        .values("channel")
        .annotate(n=Count("pk"))
        .order_by()
        .values_list("channel", "n")
    )
    outages = {o.channel: o for o in ChannelOutage.objects.filter(ended_at__isnull=True)}
    return {
        channel: ChannelOutbox(
            pending=pending.get(channel, {}).get("n", 0),
            oldest_pending=pending.get(channel, {}).get("oldest"),
            failed_24h=failed.get(channel, 0),
            outage=outages.get(channel),
        )
        for channel in {*pending, *failed, *outages}
    }


# --- My games ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MyGame:
    game: MobileGame
    color: str
    opponent: object
    on_move: bool
    left: int | None = None
    used: int | None = None
    last_move: str | None = None


FINISHED_SHOWN = 100


def my_games(user, *, now: datetime.datetime) -> dict:
    """The games of every player `user` plays as: those where he is on move (longest waiting
    first), those where his opponent is, then his finished games (latest first). Three queries,
    however many games: the players, the open games (their clocks read from the snapshots), the
    finished ones."""
    players = linked_players(user)
    mine = {p.pk for p in players}
    if not mine:
        return {"players": [], "on_move": [], "waiting": [], "finished": []}
    games = MobileGame.objects.filter(Q(white_id__in=mine) | Q(black_id__in=mine)).select_related(
        "white", "black", "event"
    )
    on_move, waiting = [], []
    for game in games.filter(status=MobileGame.Status.OPEN).order_by("on_move_since", "pk"):
        value = state.load(game)
        sides = [c for c in COLORS if game.player_of(c).pk in mine]
        # Playing both sides (a parent whose two children play each other): the one on move.
        color = game.on_move if game.on_move in sides else sides[0]
        used, left = value.clock.shown(color, now)
        row = MyGame(
            game=game,
            color=color,
            opponent=game.player_of(clock.opponent(color)),
            on_move=game.on_move == color,
            left=left,
            used=used,
            last_move=last_move_text(value),
        )
        (on_move if row.on_move else waiting).append(row)
    finished = []
    done = games.exclude(status=MobileGame.Status.OPEN).defer("state").order_by("-finished_at", "-pk")
    for game in done[:FINISHED_SHOWN]:
        color = Color.WHITE if game.white_id in mine else Color.BLACK
        finished.append(MyGame(game=game, color=color, opponent=game.player_of(clock.opponent(color)), on_move=False))
    return {"players": players, "on_move": on_move, "waiting": waiting, "finished": finished}


# The phone simulator (DEBUG only, play/channels/simulator.py) shows what one party of a game sent and
# received on the console and the web, the channels it sends by.
SIMULATED_CHANNELS = ("console", "web")


def simulator_games(limit: int = 50) -> list[MobileGame]:
    """Open games, the newest first, for the simulator's selector."""
    games = MobileGame.objects.filter(status=MobileGame.Status.OPEN).select_related("white", "black")
    return list(games.order_by("-pk")[:limit])


def simulator_messages(game: MobileGame, color: str, limit: int = 200) -> list[Transmission]:
    """One party's messages in and out of a game, in the order they were written (the latest
    `limit`)."""
    rows = Transmission.objects.filter(
        game=game,
        party=color,
        channel__in=SIMULATED_CHANNELS,
        direction__in=(Transmission.Direction.IN, Transmission.Direction.OUT),
    ).order_by("-pk")[:limit]
    return list(reversed(rows))
