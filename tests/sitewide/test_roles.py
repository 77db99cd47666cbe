"""Roles (issue 24, 1c): every URL that accepts POST, from the URL resolver, has one row in TABLE
saying what each persona gets, on his own object and on another's; a new POST URL without a row,
or a row for a URL that is gone, fails. The matrix is then executed against real objects
(roles_fixture.build): each answer is checked, and a refused request must change nothing.

Which URLs accept POST, decided from the view itself, not by trying it:
- a class-based view: a `post` method among its http_method_names;
- a function view restricted by require_POST / require_http_methods: POST among the methods
  found in the decorator's closure (the `__wrapped__` chain);
- an unrestricted function view: when its source reads `request.POST` or `request.method`
  (one that reads neither answers a POST as a GET, so it writes nothing a GET does not).
The Django admin (namespace `admin`) is one rule, not rows: every admin URL but its login page
answers a non-staff user's POST with the admin's login page, and nothing changes.

Outcomes: LOGIN (redirected to log in), FORBIDDEN (403), NOT_FOUND (404, the object is not shown
to exist or the page exists only with DEBUG), REFUSED (the view said no in a message or a form,
200/302/400), DONE (the action happened: the database changed), ALLOWED (past the gate: the
form's answer, changed or not, where the row sends no complete form), MOVED (a permanent
redirect), SIGNED (a webhook: the signature decides, not the session; unsigned is 403).
"""

from __future__ import annotations

import datetime
import functools
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.apps import apps
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import connection, transaction
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tests.play.events.helpers import quiet_console  # noqa: F401
from tests.sitewide.roles_fixture import DUTY_TD, PERSONAS, build

pytestmark = pytest.mark.django_db

LOGIN, FORBIDDEN, NOT_FOUND, REFUSED, DONE, ALLOWED, MOVED, SIGNED = (
    "login",
    "403",
    "404",
    "refused",
    "done",
    "allowed",
    "moved",
    "signed",
)


def expect(default: str, anonymous: str = LOGIN, **persona: str) -> dict[str, str]:
    """One persona's answer each: `default` for those not named (anonymous: the login page)."""
    unknown = set(persona) - set(PERSONAS)
    assert not unknown, unknown
    return {"anonymous": anonymous, **dict.fromkeys(PERSONAS[1:], default), **persona}


def everyone(outcome: str) -> dict[str, str]:
    return dict.fromkeys(PERSONAS, outcome)


@dataclass
class Case:
    """One object a POST URL acts on, the URL's arguments and form for it, and each persona's answer."""

    target: str
    expected: dict[str, str]
    args: Callable[[dict], list] = lambda w: []
    data: Callable[[dict], dict] = lambda w: {}


def _today(days: int) -> str:
    return (timezone.now().date() + datetime.timedelta(days=days)).isoformat()


CLAIM = {"against": "white", "ply": 1, "decision": "upheld"}
DESK = expect(FORBIDDEN)  # the desk of an event: its TD, its chairman and staff only
WEBHOOK = everyone(SIGNED)
STAFF_ONLY = expect(FORBIDDEN, anonymous=FORBIDDEN, staff=ALLOWED)  # permission_required(raise_exception)
PLAYERS = {"player": ALLOWED, "other_player": ALLOWED, "stranger": ALLOWED, "staff": ALLOWED}
SIDES = {"player": DONE, "other_player": DONE}  # the two players of the game

TABLE: dict[str, list[Case]] = {
    # --- accounts: public forms; a wrong password, an unknown address change nothing ----------
    "set_language": [Case("the session's language", everyone(ALLOWED), data=lambda w: {"language": "ru"})],
    "login": [Case("wrong password", everyone(REFUSED), data=lambda w: {"username": "player", "password": "no"})],
    "signup": [Case("empty form", everyone(REFUSED))],
    "resend_confirmation": [Case("empty form", everyone(REFUSED))],
    "logout": [Case("his session", everyone(ALLOWED))],
    "password_reset": [Case("unknown address", everyone(REFUSED), data=lambda w: {"email": "nobody@example.org"})],
    "password_reset_confirm": [Case("bad token", everyone(REFUSED), args=lambda w: ["MQ", "bad-token"])],
    # --- players: the Players role's own requests; staff reviews -------------------------------
    "players:apply": [Case("empty application", expect(FORBIDDEN, **PLAYERS))],
    "players:link_request": [Case("empty request", expect(FORBIDDEN, **PLAYERS))],
    "players:link_revoke": [
        Case(
            "the player's pending link",
            expect(NOT_FOUND, player=DONE, staff=DONE),
            args=lambda w: [w["link_pending"].pk],
        )
    ],
    "players:link_decide": [Case("the player's pending link", STAFF_ONLY, args=lambda w: [w["link_pending"].pk])],
    "players:follow": [Case("White", expect(FORBIDDEN, **PLAYERS), args=lambda w: [w["white"].federation_id])],
    "players:review": [Case("the player's application", STAFF_ONLY, args=lambda w: [w["application"].pk])],
    # --- arbiters: their own uploads and tournaments ----------------------------------------------
    "arbiter:upload": [Case("no file", expect(FORBIDDEN, arbiter=REFUSED, staff=REFUSED))],
    "arbiter:preview": [
        Case(
            "the arbiter's failed upload: its problems",
            expect(FORBIDDEN, arbiter=ALLOWED, staff=ALLOWED),
            args=lambda w: [w["upload"].pk],
            data=lambda w: {"action": "cancel"},
        )
    ],
    "arbiter:tournament": [
        Case(
            "the arbiter's tournament",
            expect(NOT_FOUND, arbiter=ALLOWED, staff=ALLOWED),
            args=lambda w: [w["tournament"].pk],
        )
    ],
    # --- the game page: only the game's players act in it --------------------------------------
    "play:send": [
        Case("the game", expect(FORBIDDEN, **SIDES), args=lambda w: [w["game"].code], data=lambda w: {"text": "1. e4"})
    ],
    "play:conditional": [
        Case(
            "the game",
            expect(FORBIDDEN, **SIDES),
            args=lambda w: [w["game"].code],
            data=lambda w: {"lines": "1. e4 e5 2. Nf3"},
        )
    ],
    "play:game_appeal": [
        # The decision on the game is no longer appealable (a day after it reached them).
        Case(
            "the game",
            expect(FORBIDDEN, player=REFUSED, other_player=REFUSED),
            args=lambda w: [w["game"].code],
            data=lambda w: {"text": "I appeal"},
        )
    ],
    "play:game_dispute": [
        Case("the game", expect(FORBIDDEN, **SIDES), args=lambda w: [w["game"].code], data=lambda w: {"text": "no"})
    ],
    "play:game_leave": [
        Case(
            "the game",
            expect(FORBIDDEN, **SIDES),
            args=lambda w: [w["game"].code],
            data=lambda w: {"first_day": _today(10), "last_day": _today(10)},
        )
    ],
    # --- play: events, challenges, channels, the computer -------------------------------------
    "play:event_new": [Case("empty form", expect(FORBIDDEN, staff=REFUSED))],
    "play:td": [Case("the old TD's list", everyone(MOVED))],
    "play:challenges": [Case("empty offer", expect(REFUSED))],
    "play:challenge_answer": [
        Case(
            "the player's offer to the other player",
            expect(REFUSED, other_player=DONE),
            args=lambda w: [w["offer"].pk],
            data=lambda w: {"answer": "accept"},
        )
    ],
    "play:challenge_withdraw": [
        Case("the player's offer", expect(REFUSED, player=DONE), args=lambda w: [w["offer"].pk])
    ],
    "play:channels_digest": [Case("his own digest turned off", expect(DONE))],
    "play:channels_sms": [Case("White's channels", expect(FORBIDDEN, player=REFUSED), args=lambda w: [w["white"].pk])],
    "play:channels_sms_confirm": [
        Case("White's channels", expect(FORBIDDEN, player=REFUSED), args=lambda w: [w["white"].pk])
    ],
    "play:channels_telegram": [
        Case("White's channels", expect(FORBIDDEN, player=DONE), args=lambda w: [w["white"].pk])
    ],
    "play:channels_language": [
        Case(
            "White's message language",
            expect(FORBIDDEN, player=DONE),
            args=lambda w: [w["white"].pk],
            data=lambda w: {"language": "ru"},
        )
    ],
    "play:channels_remove": [
        Case("White's SMS number", expect(FORBIDDEN, player=REFUSED), args=lambda w: [w["white"].pk, "sms"])
    ],
    "play:computer": [Case("empty form", expect(REFUSED))],
    # --- webhooks: the signature decides, not the session ------------------------------------
    "play:hook_sms": [Case("unsigned", WEBHOOK)],
    "play:hook_telegram": [Case("unsigned", WEBHOOK)],
    "play:hook_twilio": [Case("unsigned", WEBHOOK)],
    "play:hook_twilio_status": [Case("unsigned", WEBHOOK)],
    # --- the desk: the TD decides, the chairman rules on appeals, staff rule on claims; nobody
    # in his own case ------------------------------------------------------------------------
    "play:desk_challenge_claim": [
        Case(
            "a challenge game",
            expect(FORBIDDEN, duty_td=DONE, staff=DONE),
            data=lambda w: {"game": w["challenge"].code, **CLAIM, "reason": "late"},
        ),
        Case(
            "the duty TD's own challenge game",
            expect(FORBIDDEN, staff=DONE),
            data=lambda w: {"game": w["duty_game"].code, **CLAIM, "reason": "late"},
        ),
    ],
    "play:desk_claim": [
        Case(
            "the TD's event's game",
            {**DESK, "td": DONE, "staff": DONE, "chairman": REFUSED},
            args=lambda w: [w["spring"].pk, w["game"].code],
            data=lambda w: {**CLAIM, "text": "late"},
        ),
        Case(
            "staff's own game",
            {**DESK, "td": DONE, "chairman": REFUSED, "staff": FORBIDDEN},
            args=lambda w: [w["spring"].pk, w["staff_game"].code],
            data=lambda w: {**CLAIM, "text": "late"},
        ),
        Case(
            "another TD's event's game",
            {**DESK, "other_td": DONE, "staff": DONE},
            args=lambda w: [w["autumn"].pk, w["autumn_game"].code],
            data=lambda w: {**CLAIM, "text": "late"},
        ),
    ],
    "play:desk_decide": [
        Case(
            "the TD's event's game",
            {**DESK, "td": DONE, "staff": REFUSED, "chairman": REFUSED},
            args=lambda w: [w["spring"].pk],
            data=lambda w: {"kind": "score", "game": w["game"].code, "result": "1-0", "text": "scored"},
        ),
        Case(
            "staff's own game",
            {**DESK, "td": DONE, "chairman": REFUSED, "staff": REFUSED},
            args=lambda w: [w["spring"].pk],
            data=lambda w: {"kind": "score", "game": w["staff_game"].code, "result": "1-0", "text": "scored"},
        ),
    ],
    "play:desk_withdraw": [
        Case(
            "White of the TD's event",
            {**DESK, "td": DONE},
            args=lambda w: [w["spring"].pk],
            data=lambda w: {"player": w["white"].pk, "mode": "annul", "text": "gone"},
        )
    ],
    "play:desk_enquiry": [
        Case(
            "White of the TD's event",
            {**DESK, "td": DONE, "chairman": REFUSED, "staff": REFUSED},
            args=lambda w: [w["spring"].pk],
            data=lambda w: {"player": w["white"].pk, "text": "where?", "deadline": _today(5) + " 12:00"},
        )
    ],
    "play:desk_enquiry_close": [
        Case(
            "the TD's enquiry",
            {**DESK, "td": DONE, "chairman": REFUSED, "staff": REFUSED},
            args=lambda w: [w["spring"].pk, w["enquiry"].pk],
        )
    ],
    "play:desk_handled": [
        Case(
            "Black's DELAY",
            {**DESK, "td": DONE, "chairman": REFUSED, "staff": REFUSED},
            args=lambda w: [w["spring"].pk],
            data=lambda w: {"message": w["delay"].pk},
        )
    ],
    "play:desk_leave": [
        Case(
            "White's leave",
            {**DESK, "td": DONE, "chairman": REFUSED, "staff": REFUSED},
            args=lambda w: [w["spring"].pk, w["leave"].pk],
            data=lambda w: {"decision": "grant"},
        )
    ],
    "play:desk_appeal_rule": [
        Case(
            "White's appeal",
            {**DESK, "chairman": DONE, "td": REFUSED, "staff": REFUSED},
            args=lambda w: [w["decision"].pk],
            data=lambda w: {"message": w["appeal"].pk, "ruling": "upheld", "reasons": "stands"},
        ),
        Case(
            "the chairman's own appeal",
            {**DESK, "chairman": FORBIDDEN, "td": REFUSED, "staff": DONE},
            args=lambda w: [w["chair_decision"].pk],
            data=lambda w: {"message": w["chair_appeal"].pk, "ruling": "reversed", "reasons": "mine"},
        ),
    ],
    # --- staff pages (rating corrections): the permission, not the login, decides -------------
    "staff:withdraw": [Case("a tournament", STAFF_ONLY, args=lambda w: [w["tournament"].pk])],
    "staff:rating_retry": [Case("a tournament", STAFF_ONLY, args=lambda w: [w["tournament"].pk])],
    "staff:game": [Case("a rated game", STAFF_ONLY, args=lambda w: [w["otb_game"].pk])],
    "staff:merge": [Case("empty form", STAFF_ONLY)],
    "opening:list": [Case("empty form", STAFF_ONLY)],
    "staff:birth_date": [Case("White", STAFF_ONLY, args=lambda w: [w["white"].federation_id])],
}


# --- the URL list ---------------------------------------------------------------------------------


def _patterns(resolver=None, namespace: str | None = None):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _patterns(pattern, inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else pattern.name
            yield name or f"{namespace or ''}:{pattern.pattern}", pattern.callback


def _admin_urls() -> list[str]:
    """Every named admin URL, filled with an id of 1 (an app list with its first app)."""
    urls = []
    for pattern in get_resolver().url_patterns:
        if isinstance(pattern, URLResolver) and pattern.namespace == "admin":
            urls.extend(_filled("admin", pattern))
    return urls


def _filled(namespace: str, resolver: URLResolver) -> list[str]:
    urls = []
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            urls.extend(_filled(namespace, pattern))
        elif pattern.name and pattern.name not in ("login", "logout"):
            regex = pattern.pattern.regex
            kwargs = dict.fromkeys(regex.groupindex, "1")
            app = re.search(r"\(\?P<app_label>([a-z_]+)", regex.pattern)
            if app:
                kwargs["app_label"] = app.group(1)
            urls.append(reverse(f"{namespace}:{pattern.name}", kwargs=kwargs))
    return urls


def _methods(view) -> set[str] | None:
    """The HTTP methods the view answers, when it says (a class's handlers, a method decorator)."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return {m for m in view_class.http_method_names if hasattr(view_class, m)}
    while view is not None:
        for cell in view.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, (list, tuple, set)) and value and all(str(m).isupper() for m in value):
                return {m.lower() for m in value}
        view = getattr(view, "__wrapped__", None)
    return None


def _reads_post(view) -> bool:
    while getattr(view, "__wrapped__", None) is not None:
        view = view.__wrapped__
    source = inspect.getsource(view)
    return "request.POST" in source or "request.method" in source


def post_urls() -> dict[str, object]:
    """Every named URL whose view accepts POST, the admin's aside, by name."""
    found = {}
    for name, view in _patterns():
        if name.startswith("admin:"):
            continue
        methods = _methods(view)
        if (methods is not None and "post" in methods) or (methods is None and _reads_post(view)):
            found[name] = view
    return found


# The phone simulator's POST URLs (staff only) exist only with DEBUG on, never in a test run.
DEBUG_ONLY = {"play:simulator_new", "play:simulator_send"}


def test_it_has_one_row_for_every_url_that_accepts_post():
    urls = set(post_urls())
    for name in DEBUG_ONLY:
        with pytest.raises(NoReverseMatch):
            reverse(name)
    assert sorted(urls - set(TABLE)) == [], "POST URLs without a row in TABLE"
    assert sorted(set(TABLE) - urls) == [], "rows for URLs that no longer accept POST"


# --- executing the matrix ---------------------------------------------------------------------------

SKIPPED_MODELS = {Session}


@functools.cache
def _snapshot_queries() -> tuple[tuple[str, str], ...]:
    """(model label, SELECT of its rows) for every table snapshot() reads, written once a run."""
    queries = []
    for model in apps.get_models():
        if model in SKIPPED_MODELS or model._meta.proxy:
            continue
        meta = model._meta
        columns = ", ".join(
            connection.ops.quote_name(f.column) for f in meta.concrete_fields if f.column != "last_login"
        )
        table = connection.ops.quote_name(meta.db_table)
        order = connection.ops.quote_name(meta.pk.column)
        queries.append((meta.label, f"SELECT {columns} FROM {table} ORDER BY {order}"))  # noqa: S608 - quoted names
    return tuple(queries)


def snapshot() -> dict:
    """Every row of every table (sessions aside, and the users' last login, which logging in
    sets): what a refused request must leave as it was. Raw rows, read without the ORM's
    conversions, since it runs after every request of the matrix."""
    rows = {}
    with connection.cursor() as cursor:
        for label, query in _snapshot_queries():
            cursor.execute(query)
            rows[label] = cursor.fetchall()
    return rows


class Before:
    """The snapshot a request of the matrix is compared with, read once per persona, not before
    every request: each request runs in a savepoint rolled back after it, and logging in writes
    only what snapshot() leaves out (a session, the last login), so the rows before the next
    request are these same rows. (Were logging in to write a row of its own, the first request
    after a second login would show a change and fail: never a change hidden.)"""

    def __init__(self):
        self.rows: dict[str, dict] = {}

    def of(self, persona: str) -> dict:
        if persona not in self.rows:
            self.rows[persona] = snapshot()
        return self.rows[persona]


def attempt(client, url: str, data: dict, before: dict | None):
    """The POST in a savepoint rolled back after it: (the response, or the error it raised as
    text; whether any row changed, None when there is no `before` to compare with)."""
    with transaction.atomic():
        try:
            response = client.post(url, data)
        except Exception as error:
            transaction.set_rollback(True)
            return f"{type(error).__name__}: {error}", True
        changed = None if before is None else snapshot() != before
        transaction.set_rollback(True)
    return response, changed


def outcome(response) -> str:
    status = response.status_code
    location = response.get("Location", "")
    if status == 302 and "/accounts/login/" in location:
        return LOGIN
    return {301: MOVED, 403: FORBIDDEN, 404: NOT_FOUND, 405: "405"}.get(status, str(status))


def judge(response, changed: bool | None, wanted: str) -> str | None:
    """None when the answer is the one wanted, else what it was."""
    got = outcome(response)
    if wanted in (LOGIN, FORBIDDEN, NOT_FOUND, MOVED):
        ok = got == wanted and not changed
    elif wanted == SIGNED:
        ok = got == FORBIDDEN and not changed
    elif wanted == REFUSED:
        ok = got in ("200", "302", "400") and not changed
    elif wanted == DONE:
        ok = got in ("200", "302") and changed
    else:  # ALLOWED
        ok = got in ("200", "302", "400")
    return None if ok else f"{got}{' (changed)' if changed else ''}"


@pytest.fixture
def world(settings):
    settings.PLAY_DUTY_TD_USERNAME = DUTY_TD
    settings.SMS_WEBHOOK_SIGNING_KEY = "sms-key"
    settings.TELEGRAM_WEBHOOK_SECRET = "telegram-secret"
    settings.TWILIO_AUTH_TOKEN = "twilio-token"
    return build()


def run(client, world, name: str, case: Case, persona: str, before: Before) -> str | None:
    """The persona's POST in a savepoint rolled back after, so every request meets the same world."""
    cache.clear()  # the rate limits count per test, not per matrix
    client.logout()
    if persona != "anonymous":
        client.force_login(world["users"][persona])
    wanted = case.expected[persona]
    # ALLOWED is judged by the answer alone (changed or not): no snapshot to read.
    compared = None if wanted == ALLOWED else before.of(persona)
    response, changed = attempt(client, reverse(name, args=case.args(world)), case.data(world), compared)
    if isinstance(response, str):
        return response
    return judge(response, changed, wanted)


def test_it_answers_every_persona_as_its_row_says(client, world):
    wrong = []
    before = Before()
    for name, cases in TABLE.items():
        for case in cases:
            assert set(case.expected) == set(PERSONAS), (name, case.target)
            for persona in PERSONAS:
                got = run(client, world, name, case, persona, before)
                if got is not None:
                    wrong.append(f"{name} [{case.target}] {persona}: expected {case.expected[persona]}, got {got}")
    assert wrong == [], "\n".join(wrong)


def test_it_sends_every_non_staff_post_to_the_admin_to_its_login(client, world):
    """The admin's rule, for every admin URL (its login and logout pages aside, open to anyone as
    the site's own): no row per URL, since the admin's own check (is_staff) guards them all;
    nothing changes."""
    wrong = []
    urls = _admin_urls()
    assert len(urls) > 50  # every registered model's add, change, delete, history pages
    for persona in PERSONAS[:-1]:  # all but staff
        client.logout()
        if persona != "anonymous":
            client.force_login(world["users"][persona])
        before = snapshot()
        for url in urls:
            response, changed = attempt(client, url, {}, before)
            if isinstance(response, str):
                wrong.append(f"{url} {persona}: {response}")
            elif response.status_code != 302 or "/admin/login/" not in response["Location"] or changed:
                wrong.append(f"{url} {persona}: {response.status_code}")
    assert wrong == [], "\n".join(wrong)
