"""Nobody rules in his own case (issue 24): a TD, the duty TD, a member of staff or the chairman
who plays in the game, filed the appeal or made the decision under appeal is refused (403, the
reason and who rules instead, nothing changed); the case passes to the next in line, the
chairman, or for the chairman's own case another member of staff, and the desk says so."""

import datetime
import html

import pytest
from django.urls import reverse
from django.utils import timezone

from play import services
from play.desk import services as desk
from play.models import Appeal, Decision, MobileGame, Transmission
from tests.base import federation_admin
from tests.play.desk.helpers import (  # noqa: F401
    FILED,
    START,
    cast_fixture,
    event_fixture,
    later,
    link,
    protested_fixture,
    send,
)
from tests.play.events.helpers import quiet_console  # noqa: F401
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db

STAFF_RULES = "another member of the federation staff rules on it."
CLAIM = {"against": "white", "ply": 1, "decision": "upheld"}


def _unchanged(game):
    game.refresh_from_db()
    return game.status == MobileGame.Status.OPEN and not Decision.objects.exists()


@pytest.fixture(name="challenge")
def challenge_fixture(cast, settings):
    """A challenge game whose claim against White is protested; the duty TD plays Black."""
    settings.PLAY_DUTY_TD_USERNAME = "other_td"
    game = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START)
    services.games_sweep(now=FILED + datetime.timedelta(seconds=1))
    assert send(game, "white", "PROTEST my phone was dead", later(3600)).applied == "protest"
    link(cast["other_td"], game.black)
    return game


def test_it_refuses_the_duty_td_the_claim_against_his_own_opponent(client, cast, challenge):
    client.force_login(cast["other_td"])
    page = client.get(reverse("play:desk_challenges")).content.decode()
    row = page[page.index(f'id="claim-{challenge.code}-white-1"') :]
    assert f"You play in this game: {STAFF_RULES}" in row[: row.index("</tr>")]
    response = client.post(reverse("play:desk_challenge_claim"), {"game": challenge.code, **CLAIM, "reason": "mine"})
    assert response.status_code == 403 and STAFF_RULES in response.content.decode()
    challenge.refresh_from_db()
    assert challenge.status == MobileGame.Status.OPEN and challenge.result == "*"
    client.force_login(cast["staff"])
    client.post(reverse("play:desk_challenge_claim"), {"game": challenge.code, **CLAIM, "reason": "no reply"})
    challenge.refresh_from_db()
    assert challenge.result == "0-1"


def test_it_refuses_a_federation_admin_the_claim_in_his_own_event_game(client, cast, event, protested):
    link(cast["staff"], protested.black)
    client.force_login(cast["staff"])
    url = reverse("play:desk_claim", args=[event.pk, protested.code])
    response = client.post(url, {**CLAIM, "text": "my opponent was late"})
    assert response.status_code == 403
    assert "You play in this game: the event's TD rules on it." in html.unescape(response.content.decode())
    assert _unchanged(protested)
    page = client.get(reverse("play:desk_file", args=[event.pk, protested.code])).content.decode()
    assert 'id="file-passed"' in page and 'name="decision" value="upheld"' not in page
    client.force_login(cast["td"])
    assert client.post(url, {**CLAIM, "text": "no reply in time"}).status_code == 302
    assert Decision.objects.get().by == cast["td"]


def test_it_refuses_the_chairman_a_ruling_on_his_own_appeal(client, cast, event, protested):
    decision = desk.claim_rule(
        event=event, game=protested, against="white", ply=1, upheld=True, by=cast["td"], text="late", at=later(10_000)
    )
    link(cast["chair"], protested.white)
    assert send(protested, "white", "APPEAL my phone was dead", later(20_000)).applied == "appeal"
    row = Transmission.objects.get(game=protested, party="td", kind="appeal")
    client.force_login(cast["chair"])
    page = client.get(reverse("play:desk_decision", args=[decision.pk])).content.decode()
    assert f"You filed this appeal: {STAFF_RULES}" in page and "Reverse it" not in page
    url = reverse("play:desk_appeal_rule", args=[decision.pk])
    response = client.post(url, {"message": row.pk, "ruling": "reversed", "reasons": "I was right"})
    assert response.status_code == 403 and STAFF_RULES in response.content.decode()
    protested.refresh_from_db()
    assert protested.result == "0-1" and not Appeal.objects.exists()
    client.force_login(cast["staff"])
    assert "Rule on the appeal" in client.get(reverse("play:desk", args=[event.pk])).content.decode()
    client.post(url, {"message": row.pk, "ruling": "upheld", "reasons": "no evidence"})
    assert Appeal.objects.get().by == cast["staff"]


def test_it_passes_an_appeal_of_the_chairmans_own_decision_to_another_staff_member(cast, event, protested):
    # The TD plays Black: the chairman decides the claim, so its appeal is not his to rule on.
    link(cast["td"], protested.black)
    decision = desk.claim_rule(
        event=event, game=protested, against="white", ply=1, upheld=True, by=cast["chair"], text="late",
        at=later(10_000),
    )  # fmt: skip
    send(protested, "white", "APPEAL my phone was dead", later(20_000))
    row = Transmission.objects.get(game=protested, party="td", kind="appeal")
    with pytest.raises(desk.conflict.Conflict, match=f"You made the decision under appeal: {STAFF_RULES}"):
        desk.appeal_rule(decision=decision, message=row, reverse=True, reasons="x", by=cast["chair"])
    other = federation_admin("other_staff")
    link(other, PlayerFactory())  # a player elsewhere is no conflict
    appeal = desk.appeal_rule(decision=decision, message=row, reverse=False, reasons="stands", by=other)
    assert appeal.by == other


def test_it_passes_a_game_of_the_td_and_the_chairman_to_staff(client, cast, event, protested):
    link(cast["td"], protested.black)
    link(cast["chair"], protested.white)
    for who in ("td", "chair"):
        with pytest.raises(desk.conflict.Conflict, match=f"You play in this game: {STAFF_RULES}"):
            desk.decision_make(event=event, kind="score", game=protested, result="1-0", text="x", by=cast[who])
    decision = desk.decision_make(event=event, kind="score", game=protested, result="1-0", text="x", by=cast["staff"])
    assert decision.by == cast["staff"]


def test_it_says_in_russian_who_rules_instead(client, cast, challenge):
    client.force_login(cast["other_td"])
    response = client.post(
        reverse("play:desk_challenge_claim"),
        {"game": challenge.code, **CLAIM, "reason": "mine"},
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert response.status_code == 403
    assert "Вы играете в этой партии: решение по ней принимает другой сотрудник федерации." in response.content.decode()


def test_it_passes_the_tds_own_leave_to_the_chairman(client, cast, event, protested):
    from play.desk import leave as leaves
    from play.models import Leave

    link(cast["td"], protested.white)
    event.leave_days = 5
    event.save(update_fields=["leave_days"])
    today = timezone.now().date()
    leave = leaves.leave_request(
        event=event, player=protested.white, first_day=today + datetime.timedelta(days=2),
        last_day=today + datetime.timedelta(days=3),
    )  # fmt: skip
    client.force_login(cast["td"])
    page = client.get(reverse("play:desk", args=[event.pk])).content.decode()
    item = page[page.index(f'id="leave-{leave.pk}"') :]
    assert "You play in this game: the Appeals Commission chairman rules on it." in item[: item.index("</li>")]
    url = reverse("play:desk_leave", args=[event.pk, leave.pk])
    assert client.post(url, {"decision": "grant"}).status_code == 403
    assert Leave.objects.get().status == Leave.Status.REQUESTED
    client.force_login(cast["chair"])
    client.post(url, {"decision": "grant"})
    assert Leave.objects.get().status == Leave.Status.GRANTED
