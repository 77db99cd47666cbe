"""Who sent a message, and where a player's messages go, per channel (rule 5c: one identity per
player per channel)."""

from __future__ import annotations

import functools

from django.conf import settings
from django.db import connection

from play.models import Channel, ChannelAddress
from players.models import Player
from toolkit import rowsql

# On the web the page, and on the console the operator, have already established who acts;
# the address is the player's federation id.
BY_FEDERATION_ID = (Channel.WEB, Channel.CONSOLE)


def player_for(channel: str, sender: str) -> Player | None:
    if channel in BY_FEDERATION_ID:
        try:
            federation_id = int(str(sender).strip())
        except ValueError:
            return None
        if not -(2**63) <= federation_id < 2**63:  # no such id (the column is a bigint)
            return None
        # One cached statement (a message's first query; the ORM's get() cost more to build).
        return rowsql.get_by(Player, "federation_id", federation_id)
    with connection.cursor() as cursor:  # (channel, address) is unique: one row at most
        cursor.execute(_by_address_sql(connection.vendor), (channel, sender))
        row = cursor.fetchone()
    return rowsql.instance(Player, row) if row else None


@functools.cache
def _by_address_sql(vendor: str) -> str:
    """The verified address's player, built once (an SMS's first query: issue 28)."""
    del vendor
    quote = connection.ops.quote_name
    return (
        f"SELECT {rowsql.select_list(Player, 'p')} FROM {quote(ChannelAddress._meta.db_table)} a "  # noqa: S608
        f"INNER JOIN {quote(Player._meta.db_table)} p ON p.id = a.player_id "
        "WHERE a.channel = %s AND a.address = %s AND a.verified_at IS NOT NULL"
    )


def address_of(player: Player, channel: str) -> str:
    if channel in BY_FEDERATION_ID:
        return str(player.federation_id)
    found = ChannelAddress.objects.filter(player=player, channel=channel).values_list("address", flat=True).first()
    return found or ""


# The channels a game's messages can go to without the player writing first, best first.
PHONE_CHANNELS = (Channel.TELEGRAM, Channel.SMS)


def preferred_channels(players) -> dict[int, str]:
    """Where each player's messages of a new game go before he writes in it: his most recently
    verified phone channel (he linked it to be reached there), else the game page. One query."""
    found = (
        ChannelAddress.objects.filter(player__in=players, channel__in=PHONE_CHANNELS, verified_at__isnull=False)
        .order_by("player_id", "-verified_at")
        .values_list("player_id", "channel")
    )
    chosen: dict[int, str] = {}
    for player_id, channel in found:
        chosen.setdefault(player_id, channel)
    return {player.pk: chosen.get(player.pk, Channel.WEB) for player in players}


def message_language(channel: str, player: Player | None = None) -> str:
    """The language of the site's messages on `channel` to `player`: the one he chose for his game
    messages (Player.message_language, on the channels page), else the federation's default,
    PLAY_MESSAGE_LANGUAGE, but English on SMS, whose texts then keep to the GSM alphabet (Cyrillic
    makes each SMS 70 characters, not 160: a player choosing Russian on SMS is told so)."""
    chosen = getattr(player, "message_language", Player.MessageLanguage.DEFAULT)
    if chosen != Player.MessageLanguage.DEFAULT:
        return chosen
    return "en" if channel == Channel.SMS else settings.PLAY_MESSAGE_LANGUAGE
