from django.db.models import Q
from django.shortcuts import get_object_or_404

from players import names
from players.models import Player


def name_search(text: str, *, prefix: str = "") -> Q | None:
    """The condition of a name search (`prefix`: the path to the player, "player__"), None when
    the text has no letters. Either script and either order: each of names.search_keys() is
    looked for inside the key of the name as written and of its Latin spelling, one trigram-indexed
    LIKE each on PostgreSQL (players 0002), all in the one query."""
    condition = None
    for key in names.search_keys(text):
        found = Q(**{f"{prefix}name_key__contains": key}) | Q(**{f"{prefix}latin_key__contains": key})
        condition = found if condition is None else condition | found
    return condition


def plays_as(user, player: Player) -> bool:
    """Whether `user` may act as `player` (play his games, send his moves): a confirmed link of
    either relation, his own record or his child's."""
    if not getattr(user, "is_authenticated", False) or player is None:
        return False
    from players.models import PlayerLink

    return PlayerLink.objects.filter(user=user, player=player, status=PlayerLink.Status.CONFIRMED).exists()


def linked_players(user) -> list[Player]:
    """The players `user` is confirmed to play as, by name."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(
        Player.objects.filter(links__user=user, links__status="confirmed")
        .select_related("club")
        .order_by("family_name", "given_names", "pk")
        .distinct()
    )


def may_see_birth_date(user, player: Player) -> bool:
    """Whether `user` sees `player`'s full birth date. Most players are children: like FIDE, the
    public (and every other account) sees the birth year only; the federation's staff, who correct
    birth dates, and the accounts confirmed as the player or his parent see the day. Following a
    player is not owning his record."""
    return user.has_perm("players.change_player") or plays_as(user, player)


def public_birth(*, player: Player, user) -> dict | None:
    """How a player's birth shows to `user`: {"label": ..., "value": ..., "full": bool}, or None."""
    from django.utils.translation import gettext as _

    if player.birth_date is None:
        return None
    if player.birth_precision == Player.BirthPrecision.DAY and may_see_birth_date(user, player):
        return {"label": _("Birth date"), "value": player.birth_date.isoformat(), "full": True}
    return {"label": _("Birth year"), "value": str(player.birth_date.year), "full": False}


def links_of(*, user) -> list:
    """An account's requests and links, newest first."""
    from players.models import PlayerLink

    return list(PlayerLink.objects.filter(user=user).select_related("player"))


def link_offer(*, user, player: Player) -> bool:
    """Whether the player page offers "This is me / my child": to a logged-in account that may ask
    and has no pending or confirmed link to this person."""
    from players.models import PlayerLink

    if not user.is_authenticated or player.is_computer or not user.has_perm("players.add_playerlink"):
        return False
    return not PlayerLink.objects.filter(user=user, player=player, status__in=["pending", "confirmed"]).exists()


def linked_accounts(*, player: Player) -> list:
    """For staff on the player page: the accounts linked or asking to be linked to him."""
    from players.models import PlayerLink

    return list(
        PlayerLink.objects.filter(player=player, status__in=["pending", "confirmed"])
        .select_related("user")
        .order_by("status", "requested_at")
    )


def pending_links() -> list:
    """The review list: pending requests, oldest first, each with the players who may be the same
    person (same name key and birth date as the requested one). Three queries, whatever the length."""
    from players import names
    from players.models import PlayerLink

    links = list(
        PlayerLink.objects.filter(status=PlayerLink.Status.PENDING)
        .select_related("user", "player")
        .order_by("requested_at", "pk")
    )
    wanted = {}
    for link in links:
        if link.player_id:
            key, born = link.player.name_key, link.player.birth_date
        else:
            key, born = names.name_key(link.new_family_name, link.new_given_names), link.new_birth_date
        wanted[link.pk] = (key, born)
    candidates: dict[tuple, list[Player]] = {}
    keys = {key for key, _born in wanted.values()}
    for player in Player.objects.filter(name_key__in=keys, merged_into__isnull=True).order_by("federation_id"):
        candidates.setdefault((player.name_key, player.birth_date), []).append(player)
    for link in links:
        link.duplicates = [p for p in candidates.get(wanted[link.pk], []) if p.pk != link.player_id]
    return links


def player_by_federation_id(federation_id: int) -> Player:
    return get_object_or_404(
        Player.objects.select_related("club", "region", "merged_into"), federation_id=federation_id
    )


def federation_ids(player_ids, *, limit: int) -> list[int]:
    """The federation ids (their pages' addresses) of at most `limit` of these players (those of the
    lowest ids: one query of bounded size), leaving out merged duplicates (their pages redirect)."""
    chosen = sorted(player_ids)[:limit]
    rows = Player.objects.filter(pk__in=chosen, merged_into__isnull=True).order_by("federation_id")
    return list(rows.values_list("federation_id", flat=True))


MAX_FOLLOWS = 500  # an account follows a club's worth of players, not the whole list


def follow_of(*, user, player: Player):
    from players.models import Follow

    if not user.is_authenticated:
        return None
    return Follow.objects.filter(user=user, player=player).first()


def may_apply_for_fide_import(*, player: Player, fide_import: dict) -> bool:
    """Whether the player page offers to apply for a FIDE-rating import: for a person (a computer
    has no FIDE rating) whose FIDE rating was not imported yet and for whom no application waits.

    A FIDE id is not asked for: many children get theirs after their first rated tournament and
    the application brings it; an adult already rated is offered it too, since the admin may
    choose to replace his ratings.
    """
    return not player.is_computer and not fide_import["approved"] and not fide_import["pending"]
