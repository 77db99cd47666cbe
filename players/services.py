"""Writes for players. Every new player gets his federation id here."""

from __future__ import annotations

import datetime

from django.db import transaction

from players.models import Player, Sequence

FEDERATION_ID_SEQUENCE = "federation_id"
# Federation ids are visible on cards and lists: start at a round number so they all have the same width.
FIRST_FEDERATION_ID = 100001


def allocate_federation_ids(count: int) -> range:
    """Reserve `count` consecutive federation ids; concurrent callers get disjoint blocks."""
    if count < 1:
        raise ValueError("count must be at least 1")
    with transaction.atomic():
        sequence, _ = Sequence.objects.select_for_update().get_or_create(
            name=FEDERATION_ID_SEQUENCE, defaults={"next_value": FIRST_FEDERATION_ID}
        )
        start = sequence.next_value
        sequence.next_value = start + count
        sequence.save(update_fields=["next_value"])
    return range(start, start + count)


def player_create(
    *,
    family_name: str,
    given_names: str = "",
    birth_date: datetime.date | None = None,
    birth_precision: str | None = None,
    **fields,
) -> Player:
    """Create a player with a fresh federation id. A birth date without a precision is a full date."""
    if birth_precision is None:
        birth_precision = Player.BirthPrecision.DAY if birth_date else Player.BirthPrecision.UNKNOWN
    player = Player(
        family_name=family_name.strip(),
        given_names=given_names.strip(),
        birth_date=birth_date,
        birth_precision=birth_precision,
        **fields,
    )
    player.full_clean(exclude=["federation_id", "name_key", "latin_key"], validate_unique=False)
    with transaction.atomic():
        player.federation_id = allocate_federation_ids(1)[0]
        player.save()
    return player


def players_bulk_create(players: list[Player], *, batch_size: int = 2000) -> list[Player]:
    """Insert many unsaved players at once (history imports, synthetic federations)."""
    if not players:
        return []
    with transaction.atomic():
        for player, federation_id in zip(players, allocate_federation_ids(len(players)), strict=True):
            player.federation_id = federation_id
            player.normalise()
        return Player.objects.bulk_create(players, batch_size=batch_size)
