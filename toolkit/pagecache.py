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

A rating run publishes with `bump_on_commit(warm=True, changed=...)`, saying what it changed:
after its commit the pages it changed (settings.PAGE_CACHE_WARM turns the changes into pages; the
project wires it) that visitors open first are rendered into the cache under the version that
comes next, and only then is the counter bumped, so the first visitors after a run find them warm
instead of all missing at once; the rest of its pages and the entries visitors asked most follow
right after the switch. A rating run and the GCR run it sets off switch once (`one_switch`). A
failure to warm is logged and recorded (`last_warming()`); the bump happens anyway and the run is
never failed.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import io
import logging
import re
import secrets
import threading
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIRequest
from django.db import connections, transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from toolkit import popularity

logger = logging.getLogger(__name__)

COUNTER_KEY = "pagecache:counter"
DATABASE_KEY = "pagecache:database"
WARMING_KEY = "pagecache:warming"
# While pages are warmed: the version they are stored under (the one visitors get after the bump).
_warming_version: contextvars.ContextVar[str | None] = contextvars.ContextVar("warming_version", default=None)
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
    warming = _warming_version.get()
    if warming is not None:
        return warming
    values = cache.get_many([COUNTER_KEY, DATABASE_KEY])
    counter = values.get(COUNTER_KEY)
    if counter is None:
        counter = _counter()
    stamp = values.get(DATABASE_KEY)
    if stamp is None:
        stamp = _database_stamp()
        cache.set(DATABASE_KEY, stamp, timeout=settings.PAGE_CACHE_DB_SECONDS)
    return f"{counter}.{stamp}"


def _database_stamp() -> str:
    from django.utils.module_loading import import_string

    # The stamp's reader is wired in the settings: this utility imports no app.
    return hashlib.sha256(import_string(settings.PAGE_CACHE_STAMP)().encode()).hexdigest()[:16]


def bump() -> None:
    """The data changed: every stored page is out of date (called after commit)."""
    try:
        cache.incr(COUNTER_KEY)
    except ValueError:  # no counter yet (or evicted): a new random one is as good as a bump
        _counter()
    cache.delete(DATABASE_KEY)


def bump_on_commit(*, warm: bool = False, changed=None) -> None:
    """Bump once the current transaction commits (at once outside one): a page rendered from the
    old data in between is stored under the old version, never under the new one. warm=True (a
    rating run publishing): the pages it changed are rendered under the next version first;
    `changed` says what it changed, for settings.PAGE_CACHE_WARM (None: nothing in particular, the
    most visited pages)."""
    # robust: a cache that is down must not turn a committed rating run into an error.
    transaction.on_commit(functools.partial(_publish, changed) if warm else bump, robust=True)


# Inside one_switch(): the changes of the writes that committed, warmed and switched to at its end.
_held: contextvars.ContextVar[list | None] = contextvars.ContextVar("held_switch", default=None)
_after_switch: contextvars.ContextVar[list | None] = contextvars.ContextVar("after_switch", default=None)


def _publish(changed) -> None:
    held = _held.get()
    if held is None:
        warm_and_bump([changed])
    else:
        held.append(changed)


@contextlib.contextmanager
def one_switch():
    """One warming and one bump for every warmed write that commits inside (a rating run and the GCR
    run it sets off where tasks run eagerly): each write's bump would make the pages warmed for the
    one before useless. At the end, even after an error, the pages that all of them changed are
    warmed and visitors switched to the data, then the callbacks given to after_switch() run."""
    if _held.get() is not None:  # within an outer one: it switches
        yield
        return
    held, later = [], []
    tokens = _held.set(held), _after_switch.set(later)
    try:
        yield
    finally:
        _held.reset(tokens[0])
        _after_switch.reset(tokens[1])
        try:
            if held:
                warm_and_bump(held)
        except Exception:  # a cache that is down: as robust as the commit's own callback would be
            logger.exception("page cache switch after the run failed")
        finally:
            for callback in later:
                callback()


def after_switch(callback) -> None:
    """Run `callback` once visitors see the new data: at once, or at the end of the one_switch() around."""
    later = _after_switch.get()
    if later is None:
        callback()
    else:
        later.append(callback)


_unread: contextvars.ContextVar[bool] = contextvars.ContextVar("unread_cache", default=False)


@contextlib.contextmanager
def in_a_command():
    """Around a management command's writes (the demo's loading): where the cache is this process's
    own memory (development without CACHE_URL), the warmed bumps inside only bump, since no visitor
    will ever read what a warming stores there; with a shared cache (Redis, files) they warm."""
    from django.core.cache import DEFAULT_CACHE_ALIAS, caches
    from django.core.cache.backends.locmem import LocMemCache

    token = _unread.set(isinstance(caches[DEFAULT_CACHE_ALIAS], LocMemCache))
    try:
        yield
    finally:
        _unread.reset(token)


def warm_and_bump(changed: list | None = None) -> None:
    """Warm the pages that the writes changed, switch visitors to the new data with a bump, then warm
    the rest. `changed`: what each write said it changed (bump_on_commit's `changed`; None for
    nothing in particular: the most visited pages); by default one such None.

    settings.PAGE_CACHE_WARM(changed) names the pages as two lists: those rendered under the next
    version before the bump (the pages visitors open first after a run: they switch to the new
    data warm), and those rendered after it under the version now served (the long tail: they do
    not hold back the switch); the most asked entries (toolkit.popularity) follow those. Never
    raises for the warming: a failure is logged and recorded, and the bump still happens."""
    stamp = warming = None
    try:
        if settings.PAGE_CACHE_SECONDS and settings.PAGE_CACHE_WARM and not _unread.get():
            counter = _counter()
            stamp = _database_stamp()  # read after the commit: the new data's
            warming = _Warming(f"{counter + 1}.{stamp}", [None] if changed is None else changed)
            warming.before()
    except Exception as error:
        logger.exception("page cache warming failed")
        _record({"at": timezone.now().isoformat(), "pages": 0, "failed": [], "error": repr(error)})
        warming = None
    bump()
    if stamp is not None:
        # The stamp the pages were stored under, so the first visitor does not read it again (a writer
        # in between bumps the counter: then the warmed pages are merely unused).
        cache.set(DATABASE_KEY, stamp, timeout=settings.PAGE_CACHE_DB_SECONDS)
    if warming is not None:
        try:
            warming.after()
        except Exception as error:
            logger.exception("page cache warming failed after the switch")
            warming.error = repr(error)
        warming.record()


def last_warming() -> dict | None:
    """What the last warming did (when, pages stored, pages failed, an error), for staff and metrics."""
    return cache.get(WARMING_KEY)


def current() -> bool:
    """Whether visitors are now served pages of the data as it stands in the database: False from a
    writer's commit until its bump (a rating run's pages being warmed), when they still get the
    stored pages of the data before it. One query (the database's stamp); nothing is stored."""
    if not settings.PAGE_CACHE_SECONDS:
        return True
    try:
        stamp = cache.get(DATABASE_KEY)
    except Exception:  # the cache is down: nothing stored is served either
        logger.warning("page cache unavailable", exc_info=True)
        return True
    # No stamp stored: the next visitor reads the database's own, so he gets the data as it stands.
    return stamp is None or stamp == _database_stamp()


def _record(result: dict) -> None:
    try:
        cache.set(WARMING_KEY, result, timeout=None)
    except Exception:
        logger.warning("page cache unavailable", exc_info=True)


class _Warming:
    """One warming: the pages before the switch, then those after it, under one time limit
    (PAGE_CACHE_WARM_SECONDS), giving way to a newer rating run (PAGE_CACHE_WARM_STOP)."""

    def __init__(self, next_version: str, changed: list):
        from django.core.handlers.base import BaseHandler
        from django.utils.module_loading import import_string

        self.version = next_version
        first, then = import_string(settings.PAGE_CACHE_WARM)(changed)
        self.first = _jobs(first)
        seen = set(self.first)
        self.then = [job for job in _jobs(then) if job not in seen]
        seen.update(self.then)
        self.then += [job for job in _popular() if job not in seen]
        # A newer run waiting makes this version's pages short-lived, and the warming would hold up the
        # worker that is to rate it: stop, bump, let it run.
        stop = settings.PAGE_CACHE_WARM_STOP
        self.waiting = import_string(stop) if stop else None
        self.site = urlsplit(settings.SITE_URL)
        self.handler = BaseHandler()
        self.handler.load_middleware()  # no request_started/finished: those would close the task's connection
        self.began = time.monotonic()
        self.switched = None
        self.stored = 0
        self.failed: list[str] = []
        self.stopped = self.out_of_time = False
        self.error = ""

    def before(self) -> None:
        self._render(self.first)
        self.switched = round(time.monotonic() - self.began, 3)

    def after(self) -> None:
        if self.switched is None:
            self.switched = round(time.monotonic() - self.began, 3)
        self._render(self.then)

    def _render(self, jobs: list[tuple[str, str]]) -> None:
        lock = threading.Lock()
        jobs_left = iter(jobs)
        state = {"path": None}

        def next_job():
            with lock:
                if self.stopped or self.out_of_time:
                    return None
                if time.monotonic() - self.began >= settings.PAGE_CACHE_WARM_SECONDS:
                    self.out_of_time = True
                    return None
                job = next(jobs_left, None)
                # Asked before each page (its languages go together): one indexed query, against a
                # render's tens of milliseconds.
                if job is not None and job[0] != state["path"] and self.waiting is not None and self.waiting():
                    self.stopped = True
                    return None
                state["path"] = job and job[0]
                return job

        def work():
            while (job := next_job()) is not None:
                path, language = job
                try:
                    environ = _environ(self.site, path, language)
                    response = self.handler.get_response(WSGIRequest(environ))
                except Exception:
                    logger.exception("page cache warming: %s (%s) failed", path, language)
                    with lock:
                        self.failed.append(f"{path} ({language})")
                    continue
                with lock:
                    served = response.get("X-Page-Cache")
                    if served == "miss":
                        self.stored += 1
                    elif served != "hit":  # after the switch a visitor may have stored it first
                        self.failed.append(f"{path} ({language}): {response.status_code}")

        def thread_work(context):
            try:
                context.run(work)
            finally:
                connections.close_all()  # this thread's own connections; the task keeps its own

        token = _warming_version.set(self.version)
        # Each page activates its language; the caller (a web request publishing a month) keeps its own.
        callers = translation.override(translation.get_language())
        callers.__enter__()
        try:
            threads = settings.PAGE_CACHE_WARM_THREADS
            if threads <= 1:
                work()
            else:
                # Renders wait on PostgreSQL and Redis about as long as they compute: a few threads
                # overlap those waits (each with its own database connection, closed when done).
                contexts = [contextvars.copy_context() for _ in range(threads)]
                workers = [threading.Thread(target=thread_work, args=(context,)) for context in contexts]
                for worker in workers:
                    worker.start()
                for worker in workers:
                    worker.join()
        finally:
            callers.__exit__(None, None, None)
            _warming_version.reset(token)

    def record(self) -> None:
        seconds = round(time.monotonic() - self.began, 3)
        planned = len(self.first) + len(self.then)
        if self.failed:
            logger.error("page cache warming: %s pages not stored: %s", len(self.failed), ", ".join(self.failed[:10]))
        elif self.stopped:
            logger.info("page cache warming: stopped after %s pages in %s s, a newer run waits", self.stored, seconds)
        else:
            logger.info(
                "page cache warming: %s of %s pages stored in %s s, %s before the switch (%s s)",
                self.stored,
                planned,
                seconds,
                len(self.first),
                self.switched,
            )
        _record(
            {
                "at": timezone.now().isoformat(),
                "pages": self.stored,
                "failed": self.failed,
                "error": self.error,
                "seconds": seconds,
                "switched": self.switched,
                "stopped": self.stopped,
                "planned": planned,
                "before_switch": len(self.first),
                "out_of_time": self.out_of_time,
            }
        )


def _jobs(paths: list[str]) -> list[tuple[str, str]]:
    """(path, language) to render, in order: each page in every language."""
    return [(path, language) for path in paths for language, _name in settings.LANGUAGES]


def _popular() -> list[tuple[str, str]]:
    """What the visitors asked most (toolkit.popularity), each in the language they asked it in ("-":
    an answer without translated text, one entry for every language, rendered once)."""
    return [
        (path, settings.LANGUAGE_CODE if language == "-" else language)
        for language, path in popularity.most_asked(settings.PAGE_CACHE_WARM_POPULAR)
    ]


def _environ(site, path: str, language: str) -> dict:
    """An anonymous visitor's GET of the site's own address (SITE_URL's host: it is in the key)."""
    path, _sep, query = path.partition("?")
    https = site.scheme == "https"
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SCRIPT_NAME": "",
        "SERVER_NAME": site.hostname or "localhost",
        "SERVER_PORT": str(site.port or (443 if https else 80)),
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": site.netloc,
        "HTTP_ACCEPT_LANGUAGE": language,
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": site.scheme,
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    proxy = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if https and proxy:
        environ[proxy[0]] = proxy[1]
    return environ


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


def _note(request, per_language: bool) -> None:
    """Counted for the warming (toolkit.popularity), under what page_key() tells apart but the version."""
    if _warming_version.get() is not None:
        return  # the warming's own requests are not visitors
    query = urlencode(sorted(parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)))
    popularity.note(get_language() if per_language else "-", request.path + (f"?{query}" if query else ""))


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
                _note(request, per_language)
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
                    _note(request, per_language)
                except Exception:
                    logger.warning("page cache unavailable", exc_info=True)
        # The same address answers differently with a session or in another language.
        patch_vary_headers(response, VARY)
        return response

    return wrapper
