"""Public pages and API answers kept in the cache until the data behind them changes.

Everything the public reads (lists, player pages, tournament reports, the API) changes only when
ratings are run, a penalty or a decision is applied, a list is published, or staff and arbiters
change something. So an anonymous visitor's page is stored under its path, its sorted query, its
language and the *data version*, and served from there until the version moves.

The data version is two parts, both read from the shared cache in one round trip per request:

- a counter that every writer bumps after its transaction commits (rating runs, penalties,
  published lists and GCR in the Celery workers; any successful write of staff or arbiters in the
  web processes, through `accounts.middleware.BumpOnWriteMiddleware`). With the Redis cache every
  gunicorn and Celery process sees the bump at once.
- the database's own stamp (settings.PAGE_CACHE_STAMP, `ratings.selectors.ratings_version`: one
  query over the latest rating run, edit, penalty, decision, published list and GCR run), re-read at most every
  `PAGE_CACHE_DB_SECONDS`. It catches what no bump announced (a process-local cache in a
  set-up with several processes, a change made from a shell) within those seconds.

Only anonymous GET/HEAD requests without a session are served from or stored in the cache, and only
200 answers without cookies of their own: a logged-in user's header and forms are his. The CSRF
token of the language form is the one per-visitor part of a public page: it is taken out of the
stored copy and each visitor gets his own when the page is served.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import secrets
from urllib.parse import parse_qsl, urlencode

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

logger = logging.getLogger(__name__)

COUNTER_KEY = "pagecache:counter"
DATABASE_KEY = "pagecache:database"
PAGE_PREFIX = "page"

# The stored copy has this instead of a visitor's CSRF token; each visitor gets his own.
CSRF_INPUT = re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]*(")')
CSRF_MARK = b"\x00csrf\x00"
# Headers that belong to one response, never to a stored copy.
NOT_STORED = {"set-cookie", "vary", "content-length", "date"}
VARY = ("Cookie", "Accept-Language")


def _counter() -> int:
    """A fresh counter starts at a random value: after an eviction it never repeats an old one."""
    cache.add(COUNTER_KEY, secrets.randbits(48), timeout=None)
    value = cache.get(COUNTER_KEY)
    return value if value is not None else 0


def version() -> str:
    """The current data version: changes after every write that the public pages show."""
    values = cache.get_many([COUNTER_KEY, DATABASE_KEY])
    counter = values.get(COUNTER_KEY)
    if counter is None:
        counter = _counter()
    stamp = values.get(DATABASE_KEY)
    if stamp is None:
        from django.utils.module_loading import import_string

        # The stamp's reader is wired in the settings: this utility imports no app.
        stamp = hashlib.sha256(import_string(settings.PAGE_CACHE_STAMP)().encode()).hexdigest()[:16]
        cache.set(DATABASE_KEY, stamp, timeout=settings.PAGE_CACHE_DB_SECONDS)
    return f"{counter}.{stamp}"


def bump() -> None:
    """The data changed: every stored page is out of date (called after commit)."""
    try:
        cache.incr(COUNTER_KEY)
    except ValueError:  # no counter yet (or evicted): a new random one is as good as a bump
        _counter()
    cache.delete(DATABASE_KEY)


def bump_on_commit() -> None:
    """Bump once the current transaction commits (at once outside one): a page rendered from the
    old data in between is stored under the old version, never under the new one."""
    # robust: a cache that is down must not turn a committed rating run into an error.
    transaction.on_commit(bump, robust=True)


def _cacheable_request(request) -> bool:
    if request.method not in ("GET", "HEAD"):
        return False
    # No session (so no user and no pending messages) and no cookie-stored messages.
    cookies = request.COOKIES
    return settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def page_key(request, data_version: str, *, per_language: bool = True) -> str:
    query = urlencode(sorted(parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)))
    language = get_language() if per_language else "-"
    # The scheme and host are in the API's absolute links; the day in "active in the last 12 months",
    # the age groups and a download's file name.
    identity = (
        f"{request.scheme}://{request.get_host()}|{request.path}|{query}|{language}|"
        f"{timezone.localdate()}|{data_version}"
    )
    return f"{PAGE_PREFIX}:{hashlib.sha256(identity.encode()).hexdigest()}"


def _stored(response) -> dict | None:
    """What is kept of a response, or None if it must not be kept."""
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    if getattr(response, "_no_page_cache", False):
        return None
    content = response.content
    if len(content) > settings.PAGE_CACHE_MAX_BYTES:
        return None
    return {
        "content": CSRF_INPUT.sub(rb"\1" + CSRF_MARK + rb"\2", content),
        "headers": [(name, value) for name, value in response.headers.items() if name.lower() not in NOT_STORED],
    }


def _served(request, stored: dict) -> HttpResponse:
    content = stored["content"]
    if CSRF_MARK in content:
        # This visitor's own token; CsrfViewMiddleware sets his cookie to match.
        content = content.replace(CSRF_MARK, get_token(request).encode())
    response = HttpResponse(content)
    for name, value in stored["headers"]:
        response[name] = value
    response["X-Page-Cache"] = "hit"
    return response


def cache_public_page(view=None, *, per_language: bool = True):
    """Serve anonymous visitors the stored page while the data version stands (see the module).

    per_language=False for answers without translated text (the API's JSON): one entry serves
    every language. A view that adds translated text to its answer must drop it.
    """
    if view is None:
        return functools.partial(cache_public_page, per_language=per_language)

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        key = None
        if settings.PAGE_CACHE_SECONDS and _cacheable_request(request):
            try:
                key = page_key(request, version(), per_language=per_language)
                stored = cache.get(key)
            except Exception:  # the cache is down: the page is served fresh, the site stays up
                logger.warning("page cache unavailable", exc_info=True)
                key = stored = None
            if stored is not None:
                response = _served(request, stored)
                patch_vary_headers(response, VARY)
                return response
        response = view(request, *args, **kwargs)
        if key is not None and not (getattr(request, "session", None) and request.session.modified):
            kept = _stored(response)
            if kept is not None:
                try:
                    cache.set(key, kept, timeout=settings.PAGE_CACHE_SECONDS)
                    response["X-Page-Cache"] = "miss"
                except Exception:
                    logger.warning("page cache unavailable", exc_info=True)
        # The same address answers differently with a session or in another language.
        patch_vary_headers(response, VARY)
        return response

    return wrapper
