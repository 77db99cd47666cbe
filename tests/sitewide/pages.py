"""Every URL pattern of the site, taken from the URL configuration itself, filled with objects of
the fixture federation (tests/sitewide/federation.py).

    patterns = url_patterns()              # [Pattern(name="play:game", route="play/games/<str:code>/", ...)]
    urls, unfilled = page_urls(fed)        # {"play:game": ["/play/games/AB12CD/", ...]}, ["new:pattern"]

A pattern added later is either a page (filled here: FILL by its name, else KWARGS by its
arguments' names) or named in SKIP with the reason it is no page. One that is neither comes back
in `unfilled`, and the tests that use this module fail with its name.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

POST_ONLY = "takes a POST only (a form's action); the form's page is checked"
FRAGMENT = "an htmx fragment swapped into a page that is checked whole"
FILE = "a file download, not an HTML page"
API = "the JSON API: no HTML page"
HOOK = "a webhook of a messaging provider"

# Patterns that are no page, each with its reason. Whole namespaces end with ":*".
SKIP = {
    "admin:*": "Django's admin (its own layout, staff on a desktop)",
    "operations:*": "/health/ (JSON) and /metrics (Prometheus's text) for machines (tests/operations)",
    "api:*": API,
    "api:openapi-json": "the API's OpenAPI schema, JSON (tests/api/test_schema.py)",
    "api:openapi-view": "the API's interactive docs: Swagger UI's own layout (tests/browser/test_api_docs.py)",
    "set_language": POST_ONLY,
    "logout": POST_ONLY,
    "players:follow": POST_ONLY,
    "players:link_revoke": POST_ONLY,
    "players:link_decide": POST_ONLY,
    "arbiter:reading_progress": FRAGMENT,
    "arbiter:tournament_file": FILE,
    "play:mine_live": FRAGMENT,
    "play:live": FRAGMENT,
    "play:board": FRAGMENT,
    "play:event_live": FRAGMENT,
    "play:send": POST_ONLY,
    "play:conditional": POST_ONLY,
    "play:event_pgn": FILE,
    "play:game_pgn": FILE,
    "play:challenge_answer": POST_ONLY,
    "play:challenge_withdraw": POST_ONLY,
    "play:channels_digest": POST_ONLY,
    "play:channels_sms": POST_ONLY,
    "play:channels_sms_confirm": POST_ONLY,
    "play:channels_telegram": POST_ONLY,
    "play:channels_remove": POST_ONLY,
    "play:channels_language": POST_ONLY,
    "play:hook_sms": HOOK,
    "play:hook_telegram": HOOK,
    "play:hook_twilio": HOOK,
    "play:hook_twilio_status": HOOK,
    "play:desk_challenge_claim": POST_ONLY,
    "play:desk_claim": POST_ONLY,
    "play:desk_decide": POST_ONLY,
    "play:desk_handled": POST_ONLY,
    "play:desk_enquiry": POST_ONLY,
    "play:desk_enquiry_close": POST_ONLY,
    "play:desk_appeal_rule": POST_ONLY,
    "play:desk_leave": POST_ONLY,
    "play:game_appeal": POST_ONLY,
    "play:game_leave": POST_ONLY,
    "play:game_dispute": POST_ONLY,
    "play:simulator_send": POST_ONLY,
    "play:simulator_new": POST_ONLY,
    "staff:rating_retry": POST_ONLY,
    "staff:evidence": FILE,
}


@dataclass(frozen=True)
class Pattern:
    name: str  # "namespace:name", or the route itself when the pattern has no name
    route: str  # the whole route, from the root
    arguments: tuple[str, ...]


def url_patterns(resolver: URLResolver | None = None, prefix: str = "", namespace: str = "") -> list[Pattern]:
    """Every pattern of the URL configuration, recursively, with its namespaced name."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = f"{namespace}:{entry.namespace}" if namespace and entry.namespace else entry.namespace or namespace
            found += url_patterns(entry, route, inner)
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name or route}" if namespace else entry.name or route
            found.append(Pattern(name=name, route=route, arguments=tuple(_arguments(route))))
    return found


def _arguments(route: str) -> list[str]:
    return [a or b for a, b in re.findall(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>", route)]


def skip_reason(name: str) -> str | None:
    if name in SKIP:
        return SKIP[name]
    namespace = name.split(":", 1)[0]
    return SKIP.get(f"{namespace}:*") if ":" in name else None


def fill_table(fed) -> tuple[dict, dict]:
    """(by pattern name, by argument name): the kwargs to reverse each pattern with, a list of
    several where each is a page of its own (a game in each state, each rating system). A "?" entry
    is the query string of a page that a form's GET opens (a withdrawal's preview, open filters)."""
    event, games = fed.event, fed.games
    every_game = [*games.values(), fed.computer_game]
    newcomer = fed.newcomer  # an account no persona logs in as: its tokens stay as they are
    by_name = {
        "confirm": [{"token": fed.used_confirmation}],
        "password_reset_confirm": [
            {
                "uidb64": urlsafe_base64_encode(force_bytes(newcomer.pk)),
                "token": default_token_generator.make_token(newcomer),
            }
        ],
        "players:review": [{"pk": fed.application.pk}],
        "arbiter:preview": [{"pk": fed.upload.pk}],
        "arbiter:upload_progress": [{"pk": u.pk} for u in fed.confirmed_uploads],
        "arbiter:tournament": [{"pk": t.pk} for t in fed.tournaments],
        "tournaments:detail": [{"pk": t.pk} for t in fed.tournaments],
        "tournaments:player_calculation": [{"pk": fed.tournaments[-1].pk, "player_id": fed.players[0].pk}],
        "ratings:list": [
            *({"system": s} for s in ("orr", "mchess", "playchess", "gcr")),
            {"system": "orr", "?": "sex=F&sort=name"},
        ],
        "play:game": [{"code": g.code} for g in every_game],
        "play:record": [{"code": g.code} for g in every_game],
        "play:event": [{"code": event.code}],
        "play:desk": [{"event_id": event.pk}],
        "play:desk_file": [{"event_id": event.pk, "code": g.code} for g in games.values()],
        "play:desk_decision": [{"pk": fed.decision.pk}, {"pk": fed.ruled_decision.pk}, {"pk": fed.withdrawal.pk}],
        "play:desk_withdraw": [
            {"event_id": event.pk},
            {"event_id": event.pk, "?": f"player={fed.withdrawal.player_id}&mode=losses"},
            {"event_id": event.pk, "?": f"player={games['in_progress'].white_id}&mode=adjudicate"},
        ],
        "play:simulator_phone": [{"code": games["in_progress"].code, "color": "white"}],
        "staff:withdraw": [{"pk": fed.tournaments[-1].pk}],
        "staff:game": [{"pk": fed.tournaments[-1].games.order_by("pk").first().pk}],
        "guides:guide": [{"slug": "arbiters"}, {"slug": "mobile-chess"}],
    }
    by_argument = {
        "federation_id": [fed.players[0].federation_id, fed.players[6].federation_id],
    }
    return by_name, by_argument


def page_urls(fed) -> tuple[dict[str, list[str]], list[str]]:
    """Every page's URLs, by pattern name, and the names of the patterns nothing fills (neither
    a page filled here nor skipped with a reason)."""
    by_name, by_argument = fill_table(fed)
    urls: dict[str, list[str]] = {}
    unfilled = []
    for pattern in url_patterns():
        if skip_reason(pattern.name):
            continue
        if not pattern.arguments:
            urls[pattern.name] = [reverse(pattern.name)]
        elif pattern.name in by_name:
            urls[pattern.name] = [_reverse(pattern.name, kwargs) for kwargs in by_name[pattern.name]]
        elif len(pattern.arguments) == 1 and pattern.arguments[0] in by_argument:
            argument = pattern.arguments[0]
            urls[pattern.name] = [reverse(pattern.name, kwargs={argument: v}) for v in by_argument[argument]]
        else:
            unfilled.append(pattern.name)
    return urls, unfilled


def _reverse(name: str, kwargs: dict) -> str:
    kwargs = dict(kwargs)
    query = kwargs.pop("?", "")
    return reverse(name, kwargs=kwargs) + (f"?{query}" if query else "")


def stale_skips() -> list[str]:
    """SKIP entries that name no pattern any more (a renamed view must not stay skipped)."""
    names = {p.name for p in url_patterns()}
    namespaces = {n.split(":", 1)[0] for n in names if ":" in n}
    optional = {"play:simulator_send", "play:simulator_new"}  # present only with DEBUG on
    return [
        key
        for key in SKIP
        if key not in optional and (key[:-2] not in namespaces if key.endswith(":*") else key not in names)
    ]


# A page shown with another status than 200 on purpose: the used confirmation link says so.
SHOWN_WITH = {"confirm": 410}


def visible_pages(fed, urls: dict[str, list[str]]) -> dict[str, dict[tuple[str, str], str]]:
    """For each persona, every page shown to him (a redirect followed to anything but the login
    page counts as shown), in the Django test client: (pattern name, URL) -> a digest of the page's
    <main> as he sees it (CSRF tokens left out), so that a test may open once what several personas
    see alike."""
    from django.test import Client

    login = reverse("login")
    shown: dict[str, dict[tuple[str, str], str]] = {}
    for persona, user in fed.users.items():
        client = Client()
        if user is not None:
            client.force_login(user)
        shown[persona] = {}
        for name, addresses in urls.items():
            for url in addresses:
                response = client.get(url, follow=True)
                to_login = bool(response.redirect_chain) and response.redirect_chain[-1][0].startswith(login)
                if response.status_code == SHOWN_WITH.get(name, 200) and not to_login:
                    html = response.content.decode()
                    shown[persona][(name, url)] = _main_digest(html)
                    if response["Content-Type"].startswith("text/html"):
                        title = re.search(r"<title>(.*?)</title>", html, re.S)
                        # A block left open in a template swallows the page into its <title>.
                        assert title is None or "<" not in title.group(1), f"{url}: markup in its <title>"
        # A page that logs a visitor in (a confirmation link) would make every later page his.
        assert (user is None) == ("_auth_user_id" not in client.session), f"{persona} changed accounts"
    return shown


def _main_digest(html: str) -> str:
    start, end = html.find("<main"), html.rfind("</main>")
    main = html[start:end] if 0 <= start < end else html
    main = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", main)
    return hashlib.sha256(main.encode()).hexdigest()
