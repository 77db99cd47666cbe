"""The API answers what it answered before it moved to django-ninja: every URL of the API's
urlconf, filled with the fixture federation's ids and with what clients get wrong, compared with
the answers recorded on the old code (tests/api/golden/answers.json): the same status, the same
headers (the rate limit's, the page cache's, CORS, Vary, the security headers), the same JSON
parsed (field order aside; values and their types exactly).

The file keeps each distinct body once (`bodies`, by a digest of its normalised JSON) and each
answer names its body; `RECORD_API_GOLDEN=1` writes it again from the code as it is (review the diff).
"""

import datetime
import hashlib
import json
import os
from pathlib import Path

import pytest
import time_machine

from tests.api.golden_requests import Normaliser, ask, provisional, record, requests
from tests.sitewide.federation import build_federation

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden" / "answers.json"
# The day the answers were recorded. The fixture's tournaments are dated relative to today and its
# players' birth dates are fixed, so the ORR ages (Yavg, Ki, Kt) would move a little every day: the
# whole module runs on this day, the clock ticking from this moment.
RECORDED_AT = datetime.datetime(2026, 11, 26, 12, 0, 0, tzinfo=datetime.UTC)


@pytest.fixture(scope="module")
def fed(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock(), time_machine.travel(RECORDED_AT, tick=True):
        from django.db import transaction

        with transaction.atomic():
            built = build_federation()
            provisional(built)
            yield built
            transaction.set_rollback(True)


@pytest.fixture(scope="module")
def answers(fed):
    """label -> {"request", "status", "headers", and "json", "html_main_sha256" or "empty"}."""
    normaliser = Normaliser(fed)
    found = {}
    for request in requests(fed):
        label = normaliser.text(request.label)
        found[label] = {"request": f"{request.method.upper()} {normaliser.text(request.path)}"}
        found[label].update(record(ask(fed, request), normaliser))
    if os.environ.get("RECORD_API_GOLDEN"):
        GOLDEN.write_text(json.dumps(_stored(found), ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return found


def _digest(data) -> str:
    return hashlib.sha256(json.dumps(data, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


def _stored(found: dict) -> dict:
    bodies, kept = {}, {}
    for label, entry in found.items():
        entry = dict(entry)
        if "json" in entry:
            digest = _digest(entry["json"])
            bodies[digest] = entry.pop("json")
            entry["json_body"] = digest
        kept[label] = entry
    return {"answers": kept, "bodies": bodies}


def _golden() -> dict:
    """The recorded answers, each with its JSON body in place."""
    stored = json.loads(GOLDEN.read_text())
    answers = {}
    for label, entry in stored["answers"].items():
        entry = dict(entry)
        if "json_body" in entry:
            entry["json"] = stored["bodies"][entry.pop("json_body")]
        answers[label] = entry
    return answers


def test_it_asks_what_was_recorded(answers):
    golden = _golden()
    assert sorted(answers) == sorted(golden)
    assert all(answers[label]["request"] == golden[label]["request"] for label in golden)


@pytest.mark.parametrize("part", ["status", "headers", "body"])
def test_it_answers_as_recorded(answers, part):
    differences = {}
    for label, expected in _golden().items():
        got = answers.get(label)
        if got is None:
            continue
        if part == "body":
            keys = ("json", "html_main_sha256", "empty")
            expected = {k: expected[k] for k in keys if k in expected}
            got = {k: got[k] for k in keys if k in got}
        else:
            expected, got = expected[part], got[part]
        if _typed(expected) != _typed(got):
            differences[label] = {"recorded": expected, "now": got}
    assert not differences, json.dumps(differences, ensure_ascii=False, indent=1)[:20000]


def _typed(value):
    """JSON equality that tells 1 from 1.0 and from True (Python's == does not)."""
    if isinstance(value, dict):
        return {k: _typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_typed(v) for v in value]
    return (type(value).__name__, value)
