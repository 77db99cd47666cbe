"""Reads of "My phones and chats" (play/channels/views.py): for each player an account plays as,
his SMS number and Telegram chat, the SMS code waiting to be typed, and the account's digest choice."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from play.channels.linking import MAX_WRONG
from play.models import Channel, ChannelAddress, DigestSubscription, VerificationCode
from players.selectors import linked_players


@dataclass
class PlayerChannels:
    player: object
    sms: ChannelAddress | None = None
    telegram: ChannelAddress | None = None
    pending: VerificationCode | None = None  # the SMS code that can still be typed
    pending_tries_left: int = MAX_WRONG


def player_channels(user, now: datetime.datetime) -> list[PlayerChannels]:
    """Three queries however many players: the players, their addresses, their latest SMS codes."""
    players = linked_players(user)
    rows = {p.pk: PlayerChannels(player=p) for p in players}
    if not rows:
        return []
    for address in ChannelAddress.objects.filter(player_id__in=rows, channel__in=[Channel.SMS, Channel.TELEGRAM]):
        setattr(rows[address.player_id], address.channel, address)
    # Only an unexpired code can be typed, and the newest unexpired one is the newest of all when
    # there is one (a later code would be unexpired too): a short read, whatever the history.
    seen = set()
    live = VerificationCode.objects.filter(player_id__in=rows, channel=Channel.SMS, expires_at__gt=now)
    for code in live.order_by("-created_at", "-pk"):
        if code.player_id in seen:
            continue
        seen.add(code.player_id)
        if code.used_at is None and code.wrong_tries < MAX_WRONG:
            rows[code.player_id].pending = code
            rows[code.player_id].pending_tries_left = MAX_WRONG - code.wrong_tries
    return list(rows.values())


def digest_enabled(user) -> bool:
    return DigestSubscription.objects.filter(user=user, enabled=True).exists()
