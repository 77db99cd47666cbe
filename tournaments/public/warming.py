"""The pages warmed after a write of rating data (settings.PAGE_CACHE_WARM, toolkit/pagecache.py): those
it changed. Here, in the public room of the highest app they belong to (the ratings' pages, the
tournaments' and the players')."""

from django.urls import reverse

from players import selectors as player_selectors
from ratings.models import System
from tournaments import selectors as tournament_selectors

# A run rates one upload; a re-rating a few more, whose reports come first, the rest after the switch.
JUST_RATED = 10
# Players' pages after the switch: more than the warming's time limit lets it render anyway.
PLAYERS = 1000


def changed_pages(changed: list) -> tuple[list[str], list[str]]:
    """The pages to warm for these changes (each a replay's or GCR's `ratings.replay.Summary`, or None
    for a change of nothing in particular), as (before the switch, after it); toolkit.pagecache
    renders each in every language.

    Before the switch, what visitors open first after a run: the reports of the tournaments rated,
    the home page, the tournaments' list when a tournament was rated and the first page of each list
    whose rows moved. After it, the pages of the players whose ratings changed. A change of nothing
    in particular (a published month): the most visited pages, all before the switch."""
    home, tournaments = reverse("home"), reverse("tournaments:list")
    first: list[str] = [home]
    systems: set[str] = set()
    rated: list[int] = []
    players: set[int] = set()
    for change in changed:
        if change is None:
            first += [reverse("ratings:index"), tournaments]
            systems.update(System.values)
            rated += tournament_selectors.just_rated_tournaments(limit=JUST_RATED)
            continue
        systems.update(change.systems)
        rated += change.tournaments
        players |= change.players
    rated = list(dict.fromkeys(rated))
    reports = [reverse("tournaments:detail", args=[pk]) for pk in rated]
    first = reports[:JUST_RATED] + first + ([tournaments] if rated else [])
    first += [reverse("ratings:list", args=[system]) for system in System.values if system in systems]
    then = reports[JUST_RATED:]
    then += [
        reverse("players:detail", args=[federation_id])
        for federation_id in player_selectors.federation_ids(players, limit=PLAYERS)
    ]
    return list(dict.fromkeys(first)), then
