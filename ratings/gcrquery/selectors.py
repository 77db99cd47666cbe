"""Reads of the GCR filter: the games that pass, read by each source in one query as plain tuples,
and GCR over them, cached by the normalised filter until the next GCR recomputation (a rating run
asks for one: ratings.tasks.request_gcr)."""

from __future__ import annotations

import json

from django.core.cache import cache

from players.models import Player
from ratings.gcrquery.query import GcrQuery, outcome
from ratings.models import GcrRun
from ratings.timeline import sources

CACHE_SECONDS = 24 * 3600  # a new GCR recomputation changes the key before that


def version() -> str:
    """The current GCR recomputation: a new one makes every cached filter stale."""
    computed = GcrRun.objects.filter(pk=1).values_list("computed_at", flat=True).first()
    return computed.isoformat() if computed else "none"


def filtered_games(query: GcrQuery) -> list[tuple[int, int, int]]:
    """(a, b, a's half points) of every game that passes: over the board, then mobile."""
    games = sources.tournaments().gcr_filtered_games(query)
    games += sources.source("mobile").gcr_filtered_games(query)
    return games


def people(ids) -> dict[int, tuple[int, str]]:
    """Each player id's (federation id, name), in one query."""
    rows = Player.objects.filter(pk__in=list(ids)).values_list("pk", "federation_id", "family_name", "given_names")
    return {pk: (fid, f"{family}, {given}" if given else family) for pk, fid, family, given in rows}


def gcr_over_json(query: GcrQuery) -> str:
    """{"games", "accuracy", "results"} as JSON text: GCR of the games that pass, as computed alone
    on them. Cached as text: the API sends it as it is (10,000 rows through a schema took longer
    than reading them), and decoding it for the page is a few milliseconds."""
    key = f"gcrquery:json:{version()}:{query.key()}"
    found = cache.get(key)
    if found is not None:
        return found
    games = filtered_games(query)
    ids = {a for a, _, _ in games} | {b for _, b, _ in games}
    text = json.dumps(outcome(games, people(ids)), ensure_ascii=False, separators=(",", ":"))
    cache.set(key, text, CACHE_SECONDS)
    return text


def gcr_over(query: GcrQuery) -> dict:
    """The same answer, decoded."""
    return json.loads(gcr_over_json(query))
