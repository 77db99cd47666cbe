"""Who sent a message, and where a player's messages go, per channel (rule 5c: one identity per
player per channel)."""

from __future__ import annotations

from play.models import Channel, ChannelAddress
from players.models import Player

# On the web the page, and on the console the operator, have already established who acts;
# the address is the player's federation id.
BY_FEDERATION_ID = (Channel.WEB, Channel.CONSOLE)


def player_for(channel: str, sender: str) -> Player | None:
    if channel in BY_FEDERATION_ID:
        try:
            return Player.objects.get(federation_id=int(str(sender).strip()))
        except (ValueError, Player.DoesNotExist):
            return None
    address = ChannelAddress.objects.filter(channel=channel, address=sender, verified_at__isnull=False)
    found = address.select_related("player").first()
    return found.player if found else None


def address_of(player: Player, channel: str) -> str:
    if channel in BY_FEDERATION_ID:
        return str(player.federation_id)
    found = ChannelAddress.objects.filter(player=player, channel=channel).values_list("address", flat=True).first()
    return found or ""
