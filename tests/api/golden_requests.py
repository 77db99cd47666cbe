"""The requests of the API's golden test (tests/api/test_golden.py) and the normaliser of their
answers.

Every pattern of the API's URL configuration (taken from the resolver, namespace "api") is asked
for with real ids of the fixture federation (tests/sitewide/federation.py) and with the ids and
filters a client gets wrong; the answers are normalised (the fixture's ids and dates depend on the
test run and the day, see `Normaliser`) and compared, parsed, with tests/api/golden/answers.json.

    RECORD_API_GOLDEN=1 pytest tests/api/test_golden.py   # writes the file again (review the diff!)
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
from dataclasses import dataclass, field
from unittest import mock

from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import timezone

from ratings.models import RatingList, System
from tests.sitewide.pages import url_patterns

# The patterns served since the switch to django-ninja (tests/api/test_schema.py checks them).
# Endpoints added after the switch are tested where they are made (api:gcr: tests/ratings/test_gcr_filter.py;
# api:accuracy: tests/ratings/accuracy/).
NEW_PATTERNS = {"api:openapi-json", "api:openapi-view", "api:gcr", "api:accuracy"}
# Headers whose value belongs to one answer, not to what the API answers.
VOLATILE_HEADERS = {"content-length", "date", "set-cookie", "expires", "last-modified"}
# The clock of the rate limit's windows: 7 s into a window of a minute (1_000_020 = 16667 × 60).
CLOCK = 1_000_027.0
UNKNOWN_ID = 987654


@dataclass
class Request:
    label: str
    path: str
    method: str = "get"
    persona: str = "anonymous"
    headers: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    fresh: bool = True  # an empty cache first: no earlier request counted, no page stored
    csrf: bool = False  # the CSRF check as a browser meets it (the test client skips it)
    clock: float = CLOCK


def provisional(fed) -> None:
    """One player's ORR and PlayChess ratings made provisional again: the player's answer then says
    what is left until they are established (fed.players[5])."""
    from ratings.models import PlayerRating

    PlayerRating.objects.filter(player=fed.players[5], system__in=("orr", "playchess")).update(provisional=True)


def api_patterns() -> list:
    return [p for p in url_patterns() if p.name.startswith("api:")]


def requests(fed) -> list[Request]:
    """The requests, in order. Every old pattern of namespace "api" is filled (a new one fails)."""
    players = fed.players
    tournaments = fed.tournaments
    published = RatingList.objects.order_by("month").values_list("month", flat=True).first()
    month = published.strftime("%Y-%m")
    by_pattern = {
        "api:index": ["/api/"],
        "api:list": [f"/api/lists/{system}/" for system in System.values],
        "api:player": [f"/api/players/{player.federation_id}/" for player in players],
        "api:tournament": [f"/api/tournaments/{tournament.pk}/" for tournament in tournaments],
    }
    names = {p.name for p in api_patterns()}
    unfilled = names - set(by_pattern) - NEW_PATTERNS
    assert not unfilled, f"API patterns the golden test does not ask for: {unfilled}"
    found = [Request(f"{name} {path}", path) for name, paths in by_pattern.items() for path in paths]
    cached = {"PAGE_CACHE_SECONDS": 3600}
    russian = {"HTTP_ACCEPT_LANGUAGE": "ru"}
    club = fed.players[0].club
    orr = "/api/lists/orr/"
    filters = [
        "sex=F&sort=name",
        "sex=M",
        f"name={fed.players[3].family_name[:6]}",
        "name=Ivant",
        "age_group=u18",
        "age_group=adults",
        "birth_year=2010",
        f"club={club.pk}",
        "active=on",
        "provisional=yes",
        "provisional=no",
        f"month={month}",
        f"month={month}&sex=F",
        "page=1",
        "name=nobody&page=1",
        # What a client gets wrong: each says which parameter and why.
        "month=1999-01",
        "month=2020-13",
        "month=abc",
        "page=0",
        "page=2",
        "page=abc",
        "page=" + "9" * 30,
        "sex=X",
        "age_group=u99",
        "birth_year=abc",
        "club=abc",
        f"club={UNKNOWN_ID}",
        "region=abc",
        "active=maybe",
        "provisional=perhaps",
        "sort=zzz",
        "sex=X&month=2020-13&page=0",
    ]
    found += [Request(f"filter {query}", f"{orr}?{query}") for query in filters]
    found += [Request(f"filter mchess {query}", f"/api/lists/mchess/?{query}") for query in ("sex=F", f"month={month}")]
    found += [
        Request("unknown system", "/api/lists/xyz/"),
        Request("unknown system, long", "/api/lists/" + "x" * 40 + "/"),
        Request("unknown system, month", "/api/lists/xyz/?month=2020-01"),
        Request("unknown player", f"/api/players/{UNKNOWN_ID}/"),
        Request("unknown tournament", f"/api/tournaments/{UNKNOWN_ID}/"),
        Request("not an id", "/api/players/abc/"),
        Request("unknown path", "/api/nothing/"),
        Request("no slash", "/api/lists/orr"),
        # Methods: GET and HEAD only.
        Request("POST list", orr, method="post"),
        Request("POST player", f"/api/players/{fed.players[0].federation_id}/", method="post"),
        Request("PUT tournament", f"/api/tournaments/{tournaments[0].pk}/", method="put"),
        Request("DELETE tournament", f"/api/tournaments/{tournaments[0].pk}/", method="delete"),
        Request("OPTIONS list", orr, method="options"),
        Request("HEAD list", orr, method="head"),
        Request("HEAD player", f"/api/players/{fed.players[0].federation_id}/", method="head"),
        Request("POST index", "/api/", method="post"),
        Request("POST list, CSRF checked", orr, method="post", csrf=True),
        Request("POST player, CSRF checked", f"/api/players/{fed.players[0].federation_id}/", method="post", csrf=True),
        Request("GET list, CSRF checked", orr, csrf=True),
        # The birth date for the staff and for the player's own linked account only.
        *(
            Request(f"{persona} player {n}", f"/api/players/{fed.players[n].federation_id}/", persona=persona)
            for persona in ("player", "staff", "arbiter")
            for n in (0, 1)
        ),
        Request("staff list", orr, persona="staff"),
        # Translated error messages; the JSON is otherwise the same in every language.
        Request("ru unknown system", "/api/lists/xyz/", headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("ru bad month", f"{orr}?month=2020-13", headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("ru no list", f"{orr}?month=1999-01", headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("ru page", f"{orr}?page=5", headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("ru player", f"/api/players/{fed.players[0].federation_id}/", headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("ru index", "/api/", headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("ru provisional player", f"/api/players/{fed.players[5].federation_id}/", headers=russian),
        Request("page cache, provisional player", f"/api/players/{fed.players[5].federation_id}/", settings=cached),
        Request(
            "page cache, provisional player, ru",
            f"/api/players/{fed.players[5].federation_id}/",
            settings=cached,
            fresh=False,
            headers=russian,
        ),
        Request("other host", orr, headers={"HTTP_HOST": "ratings.example.org", "wsgi.url_scheme": "https"}),
    ]
    # The page cache: stored on the first answer, served on the second (counted all the same).
    for path in (orr, f"/api/players/{fed.players[0].federation_id}/", f"/api/tournaments/{tournaments[1].pk}/"):
        found += [
            Request(f"page cache, first {path}", path, settings=cached),
            Request(f"page cache, again {path}", path, settings=cached, fresh=False),
            Request(f"page cache, ru {path}", path, settings=cached, fresh=False, headers=russian),
            Request(f"page cache, staff {path}", path, settings=cached, fresh=False, persona="staff"),
        ]
    found += [
        Request("page cache, error", "/api/lists/xyz/", settings=cached),
        Request("page cache, error again", "/api/lists/xyz/", settings=cached, fresh=False),
    ]
    # The rate limit: three a minute, every endpoint counted, the fourth refused.
    limited = {"API_RATE_LIMIT": "3/minute", "TRUSTED_PROXY_HEADER": ""}
    player = f"/api/players/{fed.players[0].federation_id}/"
    sequence = [player, orr, f"/api/tournaments/{tournaments[0].pk}/", player, orr, "/api/lists/xyz/", "/api/"]
    found += [
        Request(f"limit 3/minute #{n} {path}", path, settings=limited, fresh=n == 0) for n, path in enumerate(sequence)
    ]
    found += [
        Request("limit ru", player, settings=limited, fresh=False, headers={"HTTP_ACCEPT_LANGUAGE": "ru"}),
        Request("limit, another client", player, settings=limited, fresh=False, headers={"REMOTE_ADDR": "192.0.2.7"}),
        Request("limit, cached", player, settings={**limited, **cached}, fresh=False),
        Request("limit, late in the window", player, settings=limited, clock=1_000_020.0 + 59.5),
        Request("limit 1/second", player, settings={"API_RATE_LIMIT": "1/second"}),
        Request("limit 1/second again", player, settings={"API_RATE_LIMIT": "1/second"}, fresh=False),
        Request("limit 1000/day", player, settings={"API_RATE_LIMIT": "1000/day"}),
        Request("limit 50/hour", orr, settings={"API_RATE_LIMIT": "50/hour"}),
        Request("limit off", player, settings={"API_RATE_LIMIT": "off"}),
        Request("limit off, index", "/api/", settings={"API_RATE_LIMIT": "off"}),
    ]
    # A forwarded client behind the proxy: counted by the header when it is trusted.
    proxy = {"API_RATE_LIMIT": "1/minute", "TRUSTED_PROXY_HEADER": "X-Forwarded-For"}
    found += [
        Request("proxy, first", player, settings=proxy, headers={"HTTP_X_FORWARDED_FOR": "203.0.113.5"}),
        Request("proxy, again", player, settings=proxy, fresh=False, headers={"HTTP_X_FORWARDED_FOR": "203.0.113.5"}),
        Request("proxy, other", player, settings=proxy, fresh=False, headers={"HTTP_X_FORWARDED_FOR": "203.0.113.6"}),
        Request("ipv6 /64", player, settings=proxy, headers={"REMOTE_ADDR": "2001:db8::1"}),
        Request("ipv6 /64, same", player, settings=proxy, fresh=False, headers={"REMOTE_ADDR": "2001:db8::2"}),
    ]
    labels = [r.label for r in found]
    assert len(labels) == len(set(labels)), [label for label in labels if labels.count(label) > 1]
    return found


def ask(fed, request: Request):
    """The answer to one request, as the test client gets it."""
    if request.fresh:
        cache.clear()
    client = Client(enforce_csrf_checks=request.csrf)
    user = fed.users[request.persona]
    if user is not None:
        client.force_login(user)
    with override_settings(**request.settings), mock.patch("time.time", return_value=request.clock):
        return getattr(client, request.method)(request.path, **request.headers)


def record(response, normaliser: Normaliser) -> dict:
    """What is compared: the status, the headers (but the volatile ones), the parsed JSON (or, for
    HTML, a digest of its <main>), everything normalised."""
    headers = {
        name: normaliser.text(value)
        for name, value in sorted(response.headers.items())
        if name.lower() not in VOLATILE_HEADERS
    }
    content = response.content.decode()
    entry = {"status": response.status_code, "headers": headers}
    if response["Content-Type"].startswith("application/json"):
        entry["json"] = normaliser.value(json.loads(content))
    elif content:
        start, end = content.find("<main"), content.rfind("</main>")
        main = content[start:end] if 0 <= start < end else content
        entry["html_main_sha256"] = hashlib.sha256(normaliser.text(main).encode()).hexdigest()
    else:
        entry["empty"] = True
    return entry


class Normaliser:
    """The fixture's ids (database sequences, factory counters) and dates (relative to today)
    differ from run to run: they are written as symbols. A federation id is F<n> (the fixture's
    n-th player), a tournament T<n>, a date within 400 days of today "today±N", a month of the
    last year "month±N"; birth dates and other dates stay as they are."""

    def __init__(self, fed):
        self.today = timezone.localdate()
        self.players = {p.federation_id: f"F{n}" for n, p in enumerate(fed.players)}
        self.player_pks = {p.pk: f"P{n}" for n, p in enumerate(fed.players)}
        self.tournaments = {t.pk: f"T{n}" for n, t in enumerate(fed.tournaments)}
        self.club = fed.players[0].club.pk

    def value(self, data, key: str = ""):
        if isinstance(data, dict):
            return {k: self.value(v, k) for k, v in data.items()}
        if isinstance(data, list):
            return [self.value(v, key) for v in data]
        if isinstance(data, bool) or data is None:
            return data
        if isinstance(data, int):
            if key in ("federation_id", "opponent", "merged_into") and data in self.players:
                return self.players[data]
            if key == "id" and data in self.tournaments:
                return self.tournaments[data]
            return data
        if isinstance(data, str):
            return self.text(data)
        return data

    def text(self, text: str) -> str:
        text = re.sub(r"/players/(\d+)/", lambda m: f"/players/{self._player(int(m[1]))}/", text)
        text = re.sub(r"/tournaments/(\d+)/", lambda m: f"/tournaments/{self._tournament(int(m[1]))}/", text)
        text = re.sub(r"club=(\d+)", lambda m: "club=CLUB" if int(m[1]) == self.club else m[0], text)
        text = re.sub(r"\b(\d{4})-(\d{2})-(\d{2})\b", self._date, text)
        text = re.sub(r"\b(\d{4})-(\d{2})\b(?!-)", self._month, text)
        return text

    def _player(self, number: int) -> str:
        return self.players.get(number, str(number))

    def _tournament(self, number: int) -> str:
        return self.tournaments.get(number, str(number))

    def _date(self, match) -> str:
        try:
            date = datetime.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return match[0]
        offset = (date - self.today).days
        return f"today{offset:+d}d" if abs(offset) <= 400 else match[0]

    def _month(self, match) -> str:
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12:
            return match[0]
        offset = (year - self.today.year) * 12 + month - self.today.month
        return f"month{offset:+d}" if abs(offset) <= 12 else match[0]
