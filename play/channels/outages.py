"""Failures of transmission (rule 5e): when the system's own outbound channel fails for longer than
the transmission norm, the TD and the players of every game waiting on it are told, and the TD
may credit time.

A channel is failing from its first message that could not go out after its last successful
delivery: a row still pending after an attempt that failed (not one merely held by the rate
limit), or one marked failed. A failure before a later success was the address's, not the
channel's (a chat that blocked the bot), and is not an outage. The outbox sweep
(`play.channels.outbox.outbox_sweep`, every minute) calls `outages_sweep`: once a failing message of a game
has waited longer than that game's norm, an outage is opened (or, already open, takes in the
game), the TD is told on each affected game's page, and each player of those games once per
outage by another channel: his other verified address, else e-mail to the accounts linked to
him, else the game page. The channel's next successful delivery (`channels_delivered`, called by
`play.channels.outbox.outbound_deliver_many`) closes it and tells the same people, with its duration.
"""

from __future__ import annotations

import datetime
import logging

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from play.channels.limits import RATE_LIMITED
from play.models import Channel, ChannelAddress, ChannelOutage, MobileGame, Transmission
from players.models import PlayerLink

logger = logging.getLogger("play.outages")

# The system's own channels that can fail: the web and console channels cannot, and e-mail only
# carries these notices.
OUTAGE_CHANNELS = (Channel.SMS, Channel.TELEGRAM)
# The order in which another channel is tried for a player's notice.
NOTICE_CHANNELS = (Channel.SMS, Channel.TELEGRAM)
# A failure older than this opens no outage any more: it is no news (an outage already open stays
# open until the channel delivers again).
LOOKBACK = datetime.timedelta(days=7)
OPENED, CLOSED = "outage", "outage over"

OUT = Transmission.Direction.OUT
PENDING, SENT, FAILED = Transmission.Delivery.PENDING, Transmission.Delivery.SENT, Transmission.Delivery.FAILED


# --- detection (the outbox sweep) --------------------------------------------------------------


def outages_sweep(*, now: datetime.datetime | None = None) -> list[ChannelOutage]:
    """Open or extend the outage of every channel failing for longer than the norm of a game
    waiting on it; returns the outages that took in games in this pass."""
    now = now or timezone.now()
    changed = []
    for channel in OUTAGE_CHANNELS:
        try:
            with transaction.atomic():
                outage = _sweep_channel(channel, now)
        except IntegrityError:
            # Another sweep opened this channel's outage at the same moment: it told everyone.
            logger.info("%s outage opened by a concurrent sweep", channel)
            continue
        if outage is not None:
            changed.append(outage)
    return changed


def failing_rows(channel: str, now: datetime.datetime):
    """The channel's outbound rows that could not go out since its last successful delivery
    (oldest first), as (at, game id, the game's norm, error)."""
    last_ok = Transmission.objects.filter(direction=OUT, channel=channel, delivery=SENT).aggregate(
        last=Max("delivered_at")
    )["last"]
    rows = Transmission.objects.filter(direction=OUT, channel=channel, game__isnull=False, at__gte=now - LOOKBACK)
    tried = Q(delivery=PENDING, attempts__gt=0) & ~Q(error="") & ~Q(error=RATE_LIMITED)
    rows = rows.filter(tried | Q(delivery=FAILED))
    if last_ok is not None:
        rows = rows.filter(at__gt=last_ok)
    return list(rows.order_by("at", "pk").values_list("at", "game_id", "game__norm", "error"))


def _sweep_channel(channel: str, now: datetime.datetime) -> ChannelOutage | None:
    rows = failing_rows(channel, now)
    if not rows:
        return None
    # A game is affected once its own message has waited longer than its own norm (rule 5e).
    overdue = list(dict.fromkeys(game for at, game, norm, _ in rows if (now - at).total_seconds() > norm))
    if not overdue:
        return None
    outage = ChannelOutage.objects.select_for_update().filter(channel=channel, ended_at__isnull=True).first()
    if outage is None:
        outage = ChannelOutage.objects.create(
            channel=channel, started_at=rows[0][0], detected_at=now, last_error=rows[-1][3]
        )
        logger.warning("%s outage since %s detected at %s: %s", channel, outage.started_at, now, outage.last_error)
        known = set()
    else:
        known = set(outage.games.values_list("pk", flat=True))
        if outage.last_error != rows[-1][3]:
            outage.last_error = rows[-1][3]
            outage.save(update_fields=["last_error"])
    new = [pk for pk in overdue if pk not in known]
    if not new:
        return None
    outage.games.add(*new)
    games = list(MobileGame.objects.filter(pk__in=new).select_related("white", "black").defer("state").order_by("pk"))
    data = {"channel": channel, "since": outage.started_at.isoformat()}
    _tell(outage, games, OPENED, data, now, players=_not_yet_told(outage, games))
    return outage


def _not_yet_told(outage: ChannelOutage, games: list[MobileGame]) -> list[int]:
    told = set(outage.notified)
    players = [p for game in games for p in (game.white_id, game.black_id) if p not in told]
    players = list(dict.fromkeys(players))
    outage.notified = [*outage.notified, *players]
    outage.save(update_fields=["notified"])
    return players


# --- recovery (the first successful delivery) -----------------------------------------------------


def channels_delivered(channels: set[str], now: datetime.datetime) -> list[ChannelOutage]:
    """Close the open outage of each channel that has just delivered a message, and tell the TD
    and the players told of it that the channel is back, with how long it failed. Runs in the
    delivery's transaction; one query when no outage is open."""
    channels = {c for c in channels if c in OUTAGE_CHANNELS}
    if not channels:
        return []
    closed = []
    for outage in ChannelOutage.objects.select_for_update().filter(channel__in=channels, ended_at__isnull=True):
        outage.ended_at = max(now, outage.started_at)
        outage.save(update_fields=["ended_at"])
        logger.warning("%s outage since %s ended at %s", outage.channel, outage.started_at, outage.ended_at)
        games = list(outage.games.select_related("white", "black").defer("state").order_by("pk"))
        data = {
            "channel": outage.channel,
            "since": outage.started_at.isoformat(),
            "until": outage.ended_at.isoformat(),
            "seconds": outage.seconds,
        }
        _tell(outage, games, CLOSED, data, now, players=list(outage.notified))
        closed.append(outage)
    return closed


# --- the notices ----------------------------------------------------------------------------------


def _tell(outage, games: list[MobileGame], kind: str, data: dict, now, *, players: list[int]) -> None:
    """The TD on each game's page (a "td" web row, as the machine's messages for the TD), and
    each of `players` once, by a channel other than the failing one; delivered after commit."""
    from play.services import _deliver_later, _out_row

    rows = [_out_row(game, None, Channel.WEB, "td", kind, {**data, "to": "td"}, now, party="td") for game in games]
    rows += _player_rows(outage, games, kind, data, now, players)
    Transmission.objects.bulk_create(rows)
    ids = [row.pk for row in rows if row.delivery == PENDING]
    if ids:
        transaction.on_commit(lambda: _deliver_later(ids))


def _player_rows(outage, games, kind, data, now, players: list[int]) -> list[Transmission]:
    from play.services import _out_row

    if not players:
        return []
    # Another channel that is not failing too.
    down = set(ChannelOutage.objects.filter(ended_at__isnull=True).values_list("channel", flat=True))
    usable = [c for c in NOTICE_CHANNELS if c != outage.channel and c not in down]
    addresses: dict[int, ChannelAddress] = {}
    found = ChannelAddress.objects.filter(player_id__in=players, channel__in=usable, verified_at__isnull=False)
    for address in sorted(found, key=lambda a: usable.index(a.channel)):
        addresses.setdefault(address.player_id, address)
    mails: dict[int, list[str]] = {}
    links = PlayerLink.objects.filter(
        player_id__in=players, status=PlayerLink.Status.CONFIRMED, user__is_active=True
    ).exclude(user__email="")
    for player_id, email in links.order_by("pk").values_list("player_id", "user__email"):
        if email not in mails.setdefault(player_id, []):
            mails[player_id].append(email)
    rows = []
    for player_id in players:
        mine = [g for g in games if player_id in (g.white_id, g.black_id)]
        if not mine:
            continue
        game = mine[0]
        color = game.color_of(player_id)
        player = game.player_of(color)
        told = {**data, "to": "player", "games": [g.code for g in mine]}
        if player_id in addresses:
            address = addresses[player_id]
            rows.append(_out_row(game, player, address.channel, address.address, kind, told, now, party=color))
        elif mails.get(player_id):
            rows += [_out_row(game, player, Channel.EMAIL, m, kind, told, now, party=color) for m in mails[player_id]]
        else:
            # No other way to reach him: the game page shows it (and he will find it there).
            rows.append(_out_row(game, player, Channel.WEB, str(player.federation_id), kind, told, now, party=color))
    return rows
