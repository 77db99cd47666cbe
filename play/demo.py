"""Mobile chess in the demo federation (`make run`, through `manage.py load_demo`).

Everything is played through the real services, as the site would have lived it: every message
goes through `message_receive` at its arrival instant and the sweeper (`games_sweep`) runs every
hour of the finished event, so reminders, time claims and their concessions happen at their
instants. Loaded:

- a finished all-play-all of six demo players, 40 days ago: four sample transcripts of
  examples/mobile/ (a mate, a resignation, an agreed draw, a repetition claimed) and eleven
  short games (mates, resignations, agreed draws, and a player who stopped answering: his claim
  was filed and conceded when its protest window closed);
- an event in progress (the TD adds its games), started two days ago, with a player whose 80 %
  reminder falls due in about 20 minutes and one who has just had it, and a challenge game;
- two accounts linked (confirmed) to two of those players, with passwords printed once, so
  someone can log in and play from a phone.

Loaded once: nothing happens when the finished event exists.
"""

from __future__ import annotations

import datetime
import os
import random
import re
import secrets
import sys
from dataclasses import dataclass
from pathlib import Path

import chess
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from play import services
from play.models import Channel, MobileEvent, MobileGame
from play.rules import clock, transcript
from play.rules import game as machine
from play.rules.message import parse_message

FINISHED_CODE = "demo-mobile"
LIVE_CODE = "demo-mobile-live"
TD_USERNAME = "demo-td"
ACCOUNTS = ("demo-player-1", "demo-player-2")
TRANSCRIPTS = ("m006", "m007", "m010", "m011")  # checkmate, resignation, draw agreed, repetition
# The demo's players answer by the web page (the record is the page): nothing to print on delivery.
CHANNEL = Channel.WEB

LINES = {
    "scholar": "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#",
    "fool": "f3 e5 g4 Qh4#",
    "legal": "e4 e5 Nf3 d6 Bc4 Bg4 Nc3 g6 Nxe5 Bxd1 Bxf7+ Ke7 Nd5#",
    "italian": "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O Re1 a6 Bb3 Ba7 h3 h6",
    "ruy": "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Na5 Bc2 c5",
    "najdorf": "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6 f3 Be7 Qd2 O-O O-O-O Nbd7",
    "qgd": "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6 Bh4 b6 cxd5 Nxd5 Bxe7 Qxe7",
    "kid": "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 O-O Nc6 d5 Ne7",
    "french": "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3 Ne7 Qg4 Qc7 Qxg7 Rg8 Qxh7 cxd4",
    "caro": "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6 h4 h6 Nf3 Nd7 h5 Bh7",
    "english": "c4 e5 Nc3 Nf6 g3 d5 cxd5 Nxd5 Bg2 Nb6 Nf3 Nc6 O-O Be7 d3 O-O",
    "london": "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6 Nd2 e6 Ngf3 Bd6 Bg3 O-O Bd3 b6 Ne5 Bb7",
    "slav": "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5 e3 e6 Bxc4 Bb4 O-O Nbd7 Qe2 Bg6",
}
# The finished event's fifteen games, in the order of its all-play-all pairs: a sample transcript,
# or a line ending by mate, by the player on move resigning, by an agreed draw (the last mover
# offers, the opponent accepts) or by the player on move never answering again ("time").
PLANS = (
    ("m006", None), ("italian", "resign"), ("scholar", None), ("m010", None), ("ruy", "draw"),
    ("kid", "time"), ("m007", None), ("najdorf", "resign"), ("fool", None), ("qgd", "draw"),
    ("m011", None), ("french", "resign"), ("legal", None), ("caro", "draw"), ("english", "resign"),
)  # fmt: skip


@dataclass(frozen=True)
class Message:
    at: datetime.datetime
    game: MobileGame
    color: str
    text: str
    sent: datetime.datetime | None = None


def load(*, stdout=None, now: datetime.datetime | None = None, players=None) -> dict | None:
    """Load the mobile-chess demo (once). `players`: six or more players, the first two get the
    demo accounts; by default six of the demo federation's children. Returns what was made."""
    stdout = stdout or sys.stdout
    if MobileEvent.objects.filter(code=FINISHED_CODE).exists():
        stdout.write("The mobile-chess demo is loaded already.\n")
        return None
    players = list(players) if players is not None else demo_players()
    if len(players) < 6:
        stdout.write("Fewer than six demo players: no mobile-chess demo loaded.\n")
        return None
    now = clock.whole_second(now or timezone.now())
    rng = random.Random(14)  # noqa: S311 - the same demo on every machine, not a secret
    # One transaction: the demo appears whole or not at all, and the re-rating its finished games
    # ask for is sent once, at its commit.
    with transaction.atomic():
        td = _user(TD_USERNAME, first_name="Demo TD")
        finished = _finished_event(td, players[:6], now, rng)
        live, reminded, due_soon = _live_games(td, players[:6], now, rng)
        challenge = live[-1]
        passwords = _accounts(players[:2], td)
    _report(stdout, finished, live, reminded, due_soon, challenge, passwords)
    return {
        "event": finished,
        "live": live,
        "reminded": reminded,
        "due_soon": due_soon,
        "challenge": challenge,
        "accounts": passwords,
    }


def demo_players() -> list:
    """Six human players of the federation, by federation id (load_demo passes the demo season's
    own children instead: play may not read the tournaments app)."""
    from players.models import Player

    return list(Player.objects.filter(kind=Player.Kind.HUMAN, merged_into__isnull=True).order_by("federation_id")[:6])


def _finished_event(td, players: list, now: datetime.datetime, rng: random.Random) -> MobileEvent:
    start = (now - datetime.timedelta(days=40)).replace(hour=9, minute=0, second=0)
    event = services.event_create(
        created_by=td, td=td, code=FINISHED_CODE, name="Mobile chess demo: all-play-all",
        pairing=MobileEvent.Pairing.ALL_PLAY_ALL, start=start, players=players,
    )  # fmt: skip
    games = list(event.games.order_by("pk"))
    messages: list[Message] = []
    for game, (plan, ending) in zip(games, PLANS, strict=True):
        if plan in TRANSCRIPTS:
            messages += _transcript_messages(game, plan)
        else:
            sans = LINES[plan].split()
            messages += _line_messages(game, sans, ending, game.start, _gaps(rng, len(sans) + 1))
    last = max(m.at for m in messages)
    # The sweeper every ten minutes until two days after the last message: reminders, the silent
    # player's claim at its instant, and its concession when its protest window closes.
    sweeps = []
    moment = start
    while moment <= last + datetime.timedelta(days=2):
        sweeps.append(moment)
        moment += datetime.timedelta(minutes=10)
    _play(messages, sweeps)
    return event


def _transcript_messages(game: MobileGame, name: str) -> list[Message]:
    """A sample transcript moved to the game's start; its game tag becomes the game's code."""
    path = Path(settings.BASE_DIR) / "examples" / "mobile" / f"{name}.jsonl"
    read = transcript.read(path.read_text(encoding="utf-8").splitlines())
    shift = game.start - read.start
    messages = []
    for line in read.lines:
        tag = parse_message(line.text).game
        text = re.sub(f"#{re.escape(tag)}", f"#{game.code}", line.text, flags=re.IGNORECASE) if tag else line.text
        sent = line.sent + shift if line.sent else None
        messages.append(Message(line.at + shift, game, line.sender, text, sent))
    return messages


def _texts(sans: list[str]) -> list[str]:
    """Each move's message as a player types it: the opponent's latest move repeated with its
    number, then his own ("1... e5 2. Nf3", "2. Nf3 Nc6")."""
    texts = []
    for ply, san in enumerate(sans):
        number = ply // 2 + 1
        if ply == 0:
            texts.append(f"1. {san}")
        elif ply % 2:  # Black: "n. white's move n...'s move" reads as n. W B
            texts.append(f"{number}. {sans[ply - 1]} {san}")
        else:
            texts.append(f"{number - 1}... {sans[ply - 1]} {number}. {san}")
    return texts


def _gaps(rng: random.Random, count: int) -> list[int]:
    """Seconds between messages: two to fifteen minutes, well inside the time control."""
    return [rng.randint(120, 900) for _ in range(count)]


def _line_messages(
    game: MobileGame, sans: list[str], ending: str | None, start: datetime.datetime, gaps: list[int]
) -> list[Message]:
    """A line of moves, `gaps` seconds apart (the first after White's receipt), then its ending."""
    _check_line(sans)
    texts = _texts(sans)
    if ending == "draw":
        texts[-1] += " draw?"
    at = start + datetime.timedelta(seconds=game.norm)
    messages = []
    for ply, text in enumerate(texts):
        at += datetime.timedelta(seconds=gaps[ply])
        messages.append(Message(at, game, "white" if ply % 2 == 0 else "black", text))
    on_move = "white" if len(sans) % 2 == 0 else "black"
    if ending in ("resign", "draw"):
        at += datetime.timedelta(seconds=gaps[len(texts)])
        messages.append(Message(at, game, on_move, ending))
    return messages


def _recent_game(white, black, event, sans: list[str], last: datetime.datetime, rng) -> list[Message]:
    """A game in progress whose latest move arrived at `last` (the player on move well inside
    his time: the default control gives three hours for thirty moves)."""
    gaps = _gaps(rng, len(sans))
    norm = event.norm if event else clock.TimeControl().norm
    start = last - datetime.timedelta(seconds=norm + sum(gaps))
    game = services.game_create(white=white, black=black, start=start, event=event)
    return _line_messages(game, sans, None, game.start, gaps)


def _check_line(sans: list[str]) -> None:
    board = chess.Board()
    for san in sans:
        board.push_san(san)  # a typo in LINES fails loudly here, not as a referral in the demo


def _play(messages: list[Message], sweeps: list[datetime.datetime]) -> None:
    """Messages and sweeps in the order of their instants, as they would have come."""
    timeline = [(m.at, 0, m) for m in messages] + [(s, 1, s) for s in sweeps]
    timeline.sort(key=lambda item: (item[0], item[1]))
    for _, kind, item in timeline:
        if kind:
            services.games_sweep(now=item)
        else:
            _send(item)


def _send(message: Message) -> services.Receipt:
    player = message.game.white if message.color == "white" else message.game.black
    return services.message_receive(
        channel=CHANNEL,
        sender=str(player.federation_id),
        text=message.text,
        arrival=message.at,
        sent=message.sent,
        game_code=message.game.code,
    )


# --- games in progress ----------------------------------------------------------------------


def _live_games(td, players: list, now: datetime.datetime, rng: random.Random):
    """An event the TD adds games to, started two days ago, and a challenge game. Returns the
    games (the challenge last), the one whose player on move was just reminded, and the one
    whose reminder falls due in about 20 minutes."""
    first, second, third, fourth, fifth, sixth = players
    start = (now - datetime.timedelta(days=2)).replace(minute=0, second=0)
    event = services.event_create(
        created_by=td, td=td, code=LIVE_CODE, name="Mobile chess demo: in progress",
        pairing=MobileEvent.Pairing.TD_ADDS, start=start, players=players,
    )  # fmt: skip

    def minutes(n: int) -> datetime.datetime:
        return now + datetime.timedelta(minutes=n)

    due_soon = _reminder_game(event, first, third, LINES["ruy"].split()[:12], minutes(20), rng)
    reminded = _reminder_game(event, fourth, second, LINES["slav"].split()[:9], minutes(-8), rng)
    messages = _recent_game(fifth, sixth, event, LINES["english"].split()[:7], minutes(-35), rng)
    quiet = messages[0].game
    messages += _recent_game(second, first, None, LINES["caro"].split()[:5], minutes(-50), rng)
    challenge = messages[-1].game
    _play([m for m in messages if m.at < now], [now])
    for game in (due_soon, reminded, quiet, challenge):
        game.refresh_from_db()
    return [due_soon, reminded, quiet, challenge], reminded, due_soon


def _reminder_game(event, white, black, sans, reminder_at, rng) -> MobileGame:
    """A game whose player on move (after `sans`) gets his 80 % reminder at `reminder_at`.

    The reminder depends only on when the last move arrived and on the time he has left, which
    the gaps between the moves fix: the line is played once on the bare machine with the gaps
    drawn, then placed in time so that the reminder falls at `reminder_at`."""
    texts = _texts(sans)
    gaps = _gaps(rng, len(texts))
    control = clock.TimeControl.parse(event.control, norm=event.norm)
    origin = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
    value = machine.new_game(origin, control)
    at = origin + datetime.timedelta(seconds=control.norm)
    arrivals = []
    for ply, text in enumerate(texts):
        at += datetime.timedelta(seconds=gaps[ply])
        arrivals.append(at)
        value, received = machine.receive(value, "white" if ply % 2 == 0 else "black", text, at)
        if received.applied != "move" or value.claims:
            raise ValueError(f"the demo line {sans} is refused or late at ply {ply + 1}: {received.applied}")
    shift = reminder_at - value.clock.reminder_at
    game = services.game_create(white=white, black=black, start=origin + shift, event=event)
    messages = [
        Message(arrival + shift, game, "white" if ply % 2 == 0 else "black", text)
        for ply, (arrival, text) in enumerate(zip(arrivals, texts, strict=True))
    ]
    _play(messages, [])
    return game


# --- accounts -------------------------------------------------------------------------------


def _user(username: str, **fields):
    user, created = get_user_model().objects.get_or_create(username=username, defaults=fields)
    if created:
        user.set_unusable_password()
        user.save()
    return user


def _accounts(players: list, td) -> list[tuple[str, object, str | None]]:
    """Two accounts, each confirmed as one player's own (requested and confirmed through the
    players' services, as staff would): (username, player, password, or None when the account
    existed already and keeps its password)."""
    from accounts.roles import PLAYERS, role
    from players import services as player_services
    from players.models import PlayerLink

    made = []
    for username, player in zip(ACCOUNTS, players, strict=False):
        User = get_user_model()
        user = User.objects.filter(username=username).first()
        password = None
        if user is None:
            password = os.environ.get("DEMO_PLAYER_PASSWORD") or secrets.token_urlsafe(9)
            user = User.objects.create_user(username=username, password=password, first_name=player.given_names)
        user.groups.add(role(PLAYERS))
        if not PlayerLink.objects.filter(user=user, player=player, status=PlayerLink.Status.CONFIRMED).exists():
            link = player_services.link_request(
                user=user, relation=PlayerLink.Relation.SELF, player=player, evidence="demo account"
            )
            player_services.link_decide(link=link, admin=td, confirm=True)
        made.append((username, player, password))
    return made


def _report(stdout, event, live, reminded, due_soon, challenge, passwords) -> None:
    games = list(event.games.order_by("pk"))
    endings: dict[str, int] = {}
    for game in games:
        endings[game.termination] = endings.get(game.termination, 0) + 1
    summary = ", ".join(f"{count} {word}" for word, count in sorted(endings.items()))
    stdout.write(f"  Mobile event {event.code}: {len(games)} games finished ({summary})\n")
    stdout.write(
        f"  Mobile games in progress: {len(live)} (#{due_soon.code}: reminder due at "
        f"{due_soon.next_due:%H:%M} UTC; #{reminded.code}: reminder sent), challenge game #{challenge.code}\n"
    )
    for username, player, password in passwords:
        who = f"{player} ({player.federation_id})"
        if password is None:
            stdout.write(f"  Demo account '{username}' plays as {who}; its password is unchanged.\n")
        elif os.environ.get("DEMO_PLAYER_PASSWORD"):
            stdout.write(f"  Demo account '{username}' plays as {who}, password from DEMO_PLAYER_PASSWORD.\n")
        else:
            stdout.write(f"  Demo account '{username}' plays as {who} with password: {password}\n")
