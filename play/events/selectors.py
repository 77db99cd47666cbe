"""Reads for the mobile events' pages, their PGN, the TD's list and the player page's mobile games.

Lists never unpickle a game's machine value: the columns play.state keeps in step (status,
result, plies, on_move) are enough for them, and `state` (the snapshot) is deferred. Only the PGN
and the TD's list, which need the moves and the claims, load values, and the TD's list only for
games whose record holds a claim or a notice for the TD.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import BooleanField, Case, Count, Prefetch, Q, Value, When
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.roles import is_federation_admin
from play import state
from play.desk import conflict
from play.events import crosstable
from play.models import ChannelOutage, MobileEvent, MobileGame, Transmission
from play.rules import clock, ending, pairing

OPEN = MobileGame.Status.OPEN
FINISHED = MobileGame.Status.FINISHED
ANNULLED = MobileGame.Status.ANNULLED

# What the TD's list shows: every claim filed, and every PROTEST, DELAY and FAILURE notice.
TD_KINDS = ("claim", "protest", "delay", "failure")
# Notices of a finished game stay on the TD's list this long after its end (a dispute or a
# declared delay may still need his ruling); claims stay as long as they are undecided.
TD_RECENT = datetime.timedelta(days=30)


# --- the public pages --------------------------------------------------------------------------


def events_list():
    """Every mobile event, running ones first (a game in progress, or no game yet), then the
    finished ones; newest first within each. One query per page (plus its count)."""
    return (
        MobileEvent.objects.annotate(
            games_total=Count("games", filter=~Q(games__status=ANNULLED), distinct=True),
            games_open=Count("games", filter=Q(games__status=OPEN), distinct=True),
            players_count=Count("entries", distinct=True),
        )
        .annotate(
            running=Case(
                When(Q(games_open__gt=0) | Q(games_total=0), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            )
        )
        .order_by("-running", "-start", "pk")
    )


def challenge_games_open() -> int:
    """Challenge games (outside events) in progress."""
    return MobileGame.objects.filter(event__isnull=True, status=OPEN).count()


def event_by_code(code: str) -> MobileEvent:
    return get_object_or_404(MobileEvent.objects.select_related("td", "appeals_chair"), code=code)


def event_page(event: MobileEvent) -> dict:
    """The event's players, games, crosstable and standings: two queries whatever its size
    (entries with their players and referees; games with both players)."""
    entries = list(event.entries.select_related("player", "referee").order_by("pk"))
    players = [entry.player for entry in entries]
    games = list(event.games.select_related("white", "black").defer("state").order_by("pk"))
    rounds = {}
    if event.pairing == MobileEvent.Pairing.ALL_PLAY_ALL:
        rounds = crosstable.rounds_of([p.pk for p in players], pairing.round_robin)
    for game in games:
        game.round = rounds.get((game.white_id, game.black_id))
        game.moves_count = (game.plies + 1) // 2
        game.on_move_player = game.player_of(game.on_move) if game.status == OPEN and game.on_move else None
    table = crosstable.build(players, games)
    shown = [g for g in games if g.status != ANNULLED]
    shown.sort(key=lambda g: (g.round or 10**6, g.pk))
    return {
        "event": event,
        "entries": entries,
        "games": shown,
        "rows": table["rows"],
        "standings": table["standings"],
        "open_games": sum(1 for g in shown if g.status == OPEN),
        "referees": any(entry.referee_id for entry in entries),
    }


# --- PGN -----------------------------------------------------------------------------------------


def game_for_pgn(code: str) -> MobileGame:
    game = get_object_or_404(
        MobileGame.objects.select_related("white", "black", "event").exclude(status=ANNULLED), code__iexact=code
    )
    game.round = None
    if game.event is not None and game.event.pairing == MobileEvent.Pairing.ALL_PLAY_ALL:
        game.round = _rounds(game.event).get((game.white_id, game.black_id))
    return game


def event_games_for_pgn(event: MobileEvent) -> list[MobileGame]:
    """The event's games (annulled ones left out), in round order, each with its `round`."""
    games = list(event.games.select_related("white", "black").exclude(status=ANNULLED).order_by("pk"))
    rounds = _rounds(event) if event.pairing == MobileEvent.Pairing.ALL_PLAY_ALL else {}
    for game in games:
        game.event = event
        game.round = rounds.get((game.white_id, game.black_id))
    games.sort(key=lambda g: (g.round or 10**6, g.pk))
    return games


def _rounds(event: MobileEvent) -> dict:
    ids = list(event.entries.order_by("pk").values_list("player_id", flat=True))
    return crosstable.rounds_of(ids, pairing.round_robin)


# --- the player page -----------------------------------------------------------------------------


def player_mobile_games(player, limit: int = 20) -> list[dict]:
    """A player's latest mobile games (annulled ones left out), newest first, from his side: one
    query (both players and the event joined, the snapshot not read)."""
    games = (
        MobileGame.objects.filter(Q(white_id=player.pk) | Q(black_id=player.pk))
        .exclude(status=ANNULLED)
        .select_related("white", "black", "event")
        .defer("state")
        .order_by("-start", "-pk")[:limit]
    )
    rows = []
    for game in games:
        white = game.white_id == player.pk
        got = crosstable.points_of(game.result, white) if game.status == FINISHED else None
        rows.append(
            {
                "game": game,
                "white": white,
                "opponent": game.black if white else game.white,
                "points": got,
                "mark": "*" if got is None else crosstable.MARK[got],
            }
        )
    return rows


# --- who directs what, for the desk -------------------------------------------------------------------------------


def oversees_all(user) -> bool:
    """Federation admins (and whoever holds the permission to change games) see and rule on every
    game, challenge games included."""
    if not (user.is_authenticated and user.is_active):
        return False
    return is_federation_admin(user) or user.has_perm("play.change_mobilegame")


def is_duty_td(user) -> bool:
    """The federation's duty TD (settings.PLAY_DUTY_TD_USERNAME; none when empty) directs the
    challenge games, which belong to no event."""
    name = settings.PLAY_DUTY_TD_USERNAME
    return bool(name and user.is_authenticated and user.get_username() == name)


def directs_any(user) -> bool:
    """Whether the user directs anything: an event, the challenge games (duty TD), or all (staff)."""
    if not user.is_authenticated:
        return False
    return oversees_all(user) or is_duty_td(user) or MobileEvent.objects.filter(td=user).exists()


def may_rule(user, game: MobileGame) -> bool:
    """Whether the user may decide on this game's claims: its event's TD, the duty TD for a
    challenge game, or staff; none of them in a game he plays in."""
    if not user.is_authenticated or not user.is_active:
        return False
    if conflict.conflict(user.pk, [game]):
        return False  # nobody rules in his own case: another member of staff does
    if oversees_all(user):
        return True
    if game.event_id is None:
        return is_duty_td(user)
    return game.event.td_id == user.pk


def _directed(user) -> Q | None:
    """The games the user directs, as a filter on MobileGame; None for staff (every game)."""
    if oversees_all(user):
        return None
    mine = Q(event__td=user)
    if is_duty_td(user):
        mine |= Q(event__isnull=True)
    return mine


def td_outages(user, now: datetime.datetime | None = None) -> list[dict]:
    """The channel outages (rule 5e) that held up games the user directs (staff: every outage):
    open ones, and those ended within TD_RECENT, newest first, each with its start, end, duration
    (so far, while open) and the user's affected games, so time can be credited. Two queries."""
    return _outages(_directed(user), now)


def event_outages(event: MobileEvent, now: datetime.datetime | None = None) -> list[dict]:
    """The outages (rule 5e) that held up games of one event, as td_outages shows them: for the
    event's desk, where the TD credits the time lost. Two queries."""
    return _outages(Q(event=event), now)


def _outages(mine: Q | None, now: datetime.datetime | None) -> list[dict]:
    now = now or timezone.now()
    shown = MobileGame.objects.select_related("white", "black", "event").defer("state").order_by("pk")
    outages = ChannelOutage.objects.filter(Q(ended_at__isnull=True) | Q(ended_at__gte=now - TD_RECENT))
    if mine is not None:
        shown = shown.filter(mine)
        outages = outages.filter(
            pk__in=ChannelOutage.games.through.objects.filter(mobilegame__in=MobileGame.objects.filter(mine)).values(
                "channeloutage_id"
            )
        )
    outages = outages.prefetch_related(Prefetch("games", queryset=shown, to_attr="shown_games"))
    return [
        {
            "outage": outage,
            "games": outage.shown_games,
            "seconds": outage.seconds if outage.ended_at else int((now - outage.started_at).total_seconds()),
        }
        for outage in outages.order_by("-started_at", "-pk")
    ]


def td_games(user, now: datetime.datetime | None = None):
    """The challenge games (no event: the duty TD's, and staff's) whose record holds a claim or a
    PROTEST, DELAY or FAILURE for the TD, open or finished within TD_RECENT (one query; the
    values are loaded by `td_desk`). The games of an event are on that event's desk."""
    now = now or timezone.now()
    flagged = Transmission.objects.filter(party="td", direction=Transmission.Direction.OUT, kind__in=TD_KINDS)
    games = (
        MobileGame.objects.filter(pk__in=flagged.values("game_id"))
        .filter(Q(status=OPEN) | Q(status=FINISHED, finished_at__gte=now - TD_RECENT))
        .filter(event__isnull=True)
        .select_related("white", "black")
        .order_by("pk")
    )
    if not (oversees_all(user) or is_duty_td(user)):
        return games.none()
    return games


def td_desk(user, now: datetime.datetime | None = None) -> dict:
    """What the challenge games' desk shows: the undecided claims (open or protested) and the
    notices of the challenge games, each with its game, from the machine's values."""
    claims, notices = [], []
    own = conflict.owned([user.pk]).get(user.pk, set())
    for game in td_games(user, now):
        # His own game is another staff member's to decide: the desk says so instead of the form.
        passed = conflict.passed_on(conflict.conflict(user.pk, [game], own=own), conflict.STAFF)
        value = state.load(game)
        for record in value.claims:
            if record.status not in (ending.OPEN, ending.PROTESTED):
                continue
            claim = record.claim
            claims.append(
                {
                    "game": game,
                    "claim": claim,
                    "status": record.status,
                    "player": game.player_of(claim.against),
                    "move": _move_label(claim.ply),
                    "outcome": record.outcome,
                    "protest_until": value.clock.protest_deadline(claim),
                    "passed": passed,
                }
            )
        for notice in value.notices:
            notices.append({"game": game, "notice": notice, "player": game.player_of(notice.sender)})
    claims.sort(key=lambda row: row["claim"].filed)
    notices.sort(key=lambda row: row["notice"].at, reverse=True)
    return {"claims": claims, "notices": notices}


def _move_label(ply: int) -> str:
    """Ply 23 is "12." (White's 12th move), ply 24 "12…"."""
    number = clock.move_of_ply(ply)
    return f"{number}." if clock.color_of_ply(ply) == clock.WHITE else f"{number}…"
