from django.shortcuts import get_object_or_404

from players.models import Player


def player_by_federation_id(federation_id: int) -> Player:
    return get_object_or_404(
        Player.objects.select_related("club", "region", "merged_into"), federation_id=federation_id
    )
