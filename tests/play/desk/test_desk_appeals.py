"""Appeals (rule 10c): a player appeals a TD decision by `APPEAL text` or from the game page,
until the decision's receipt + 86 400 s; the event's Appeals Commission chairman upholds or
reverses it with reasons, finally; both players are told; a reversal that changes the result
re-rates."""

import datetime

import pytest
from django.urls import reverse

from accounts.models import AuditEntry
from play import state
from play.desk import services as desk
from play.models import Appeal, Transmission
from tests.base import assert_site_styled_forms
from tests.play.desk.helpers import (  # noqa: F401
    cast_fixture,
    event_fixture,
    later,
    link,
    protested_fixture,
    send,
)
from tests.play.events.helpers import quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture(name="upheld")
def upheld_fixture(cast, event, protested):
    decision = desk.claim_rule(
        event=event, game=protested, against="white", ply=1, upheld=True, by=cast["td"],
        text="no evidence of a failure", at=later(10_000),
    )  # fmt: skip
    protested.refresh_from_db()
    assert protested.result == "0-1"
    return decision


def appeal_row(game):
    return Transmission.objects.get(game=game, party="td", kind="appeal")


def test_it_puts_an_appeal_by_message_before_the_chairman_on_the_desk(client, cast, event, protested, upheld):
    receipt = send(protested, "white", "APPEAL the network was down all day", later(20_000))
    assert receipt.applied == "appeal"
    assert [r.kind for r in receipt.replies] == ["appeal", "appeal received"]
    client.force_login(cast["chair"])
    html = client.get(reverse("play:desk", args=[event.pk])).content.decode()
    item = html[html.index("desk-item desk-appeal") :]
    item = item[: item.index("</li>")]
    assert "the network was down all day" in item and "Rule on the appeal" in item
    assert reverse("play:desk_decision", args=[upheld.pk]) in item
    client.force_login(cast["td"])
    html = client.get(reverse("play:desk", args=[event.pk])).content.decode()
    assert "For the Appeals Commission chairman." in html and "Rule on the appeal" not in html


def test_it_lets_the_chairman_reverse_an_upheld_claim_and_re_rates_the_game(
    client, cast, event, protested, upheld, django_capture_on_commit_callbacks
):
    from ratings.models import RatingRequest

    send(protested, "white", "APPEAL the network was down all day", later(20_000))
    row = appeal_row(protested)
    client.force_login(cast["chair"])
    page = client.get(reverse("play:desk_decision", args=[upheld.pk])).content.decode()
    assert "the network was down all day" in page and "Reverse it" in page and "time claim against white" in page
    assert_site_styled_forms(page)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play:desk_appeal_rule", args=[upheld.pk]),
            {"message": row.pk, "ruling": "reversed", "reasons": "the operator confirmed the outage"},
            follow=True,
        )
    html = response.content.decode()
    assert "The decision is reversed. The players were told." in html
    assert "the operator confirmed the outage" in html and "(final)" in html
    protested.refresh_from_db()
    assert (protested.result, protested.status) == ("*", "open")
    assert state.load(protested).claims[0].status == "dismissed"
    appeal = Appeal.objects.get()
    assert (appeal.decision, appeal.message, appeal.player, appeal.reversed) == (upheld, row, protested.white, True)
    told = Transmission.objects.filter(game=protested, kind="appeal ruling").order_by("party")
    assert [(t.party, t.channel, t.delivery) for t in told] == [
        ("black", "console", "sent"),
        ("white", "console", "sent"),
    ]
    assert "is reversed. Reasons: the operator confirmed the outage. This ruling is final." in told[0].text
    # Re-rated from the earlier of the old finishing moment (the decision) and the new (none).
    assert RatingRequest.objects.filter(reason="mobile", since_at=upheld.at).exists()
    assert AuditEntry.objects.filter(action="play.appeal_ruling", object_id=str(appeal.pk)).exists()
    assert state.rebuild(protested) == state.load(protested)
    # Final: a second ruling on the same appeal is refused, nothing changes.
    again = client.post(
        reverse("play:desk_appeal_rule", args=[upheld.pk]),
        {"message": row.pk, "ruling": "upheld", "reasons": "second thoughts"},
        follow=True,
    )
    assert "already ruled on; the ruling is final" in again.content.decode()
    assert Appeal.objects.count() == 1


def test_it_lets_the_chairman_uphold_and_the_result_stands(cast, protested, upheld):
    send(protested, "white", "APPEAL unfair", later(20_000))
    appeal = desk.appeal_rule(
        decision=upheld, message=appeal_row(protested), reverse=False, reasons="no evidence", by=cast["chair"]
    )
    protested.refresh_from_db()
    assert not appeal.reversed and protested.result == "0-1"
    assert Transmission.objects.filter(game=protested, kind="appeal ruling").count() == 2


def test_it_lets_only_the_chairman_rule_and_refuses_a_late_appeal(client, cast, protested, upheld):
    send(protested, "white", "APPEAL too late", upheld.appealable_until + datetime.timedelta(seconds=1))
    row = appeal_row(protested)
    for who in ("td", "staff", "other_td"):
        with pytest.raises(desk.DeskError, match="only the event's Appeals Commission chairman"):
            desk.appeal_rule(decision=upheld, message=row, reverse=True, reasons="x", by=cast[who])
    with pytest.raises(desk.DeskError, match="did not arrive within the window"):
        desk.appeal_rule(decision=upheld, message=row, reverse=True, reasons="x", by=cast["chair"])
    client.force_login(cast["chair"])
    html = client.get(reverse("play:desk", args=[upheld.event_id])).content.decode()
    assert "No decision open to appeal when it arrived." in html
    protested.refresh_from_db()
    assert protested.result == "0-1" and not Appeal.objects.exists()
    # Out of time: the chairman marks it handled, and it leaves the queue.
    desk.mark_handled(message=row, by=cast["chair"], note="out of time")
    assert "desk-appeal" not in client.get(reverse("play:desk", args=[upheld.event_id])).content.decode()


def test_it_gives_the_time_back_when_a_charge_is_reversed(cast, event):
    game = event.games.select_related("white", "black").get()
    at = event.start + datetime.timedelta(minutes=10)
    decision = desk.decision_make(
        event=event, kind="charge", by=cast["td"], game=game, player=game.white, seconds=900, text="late", at=at
    )
    send(game, "white", "APPEAL I was not late", at + datetime.timedelta(minutes=5))
    desk.appeal_rule(
        decision=decision, message=appeal_row(game), reverse=True, reasons="he was not", by=cast["chair"],
        at=at + datetime.timedelta(minutes=20),
    )  # fmt: skip
    game.refresh_from_db()
    value = state.load(game)
    assert value.clock.total("white") == 0
    assert state.rebuild(game, until=at + datetime.timedelta(minutes=20)) == value


def test_it_restores_the_game_when_a_score_is_reversed(cast, event):
    game = event.games.select_related("white", "black").get()
    at = event.start + datetime.timedelta(minutes=10)
    decision = desk.decision_make(
        event=event, kind="score", by=cast["td"], game=game, result="1/2-1/2", text="agreed by phone", at=at
    )
    game.refresh_from_db()
    assert game.result == "1/2-1/2"
    send(game, "black", "APPEAL there was no agreement", at + datetime.timedelta(minutes=5))
    desk.appeal_rule(
        decision=decision, message=appeal_row(game), reverse=True, reasons="no agreement", by=cast["chair"],
        at=at + datetime.timedelta(minutes=20),
    )  # fmt: skip
    game.refresh_from_db()
    assert (game.result, game.status) == ("*", "open")
    assert state.rebuild(game, until=at + datetime.timedelta(minutes=20)) == state.load(game)


def test_it_lets_a_player_appeal_from_the_game_page(client, cast, event, protested, django_capture_on_commit_callbacks):
    player = cast["player"]
    link(player, protested.white)
    client.force_login(cast["td"])
    client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "upheld", "text": "no evidence"},
    )
    client.force_login(player)
    page = client.get(protested.get_absolute_url()).content.decode()
    assert 'id="appeal-form"' in page and "no evidence" in page
    response = client.post(
        reverse("play:game_appeal", args=[protested.code]), {"text": "my phone was dead, here is the bill"}, follow=True
    )
    assert "Your appeal reached the Appeals Commission chairman." in response.content.decode()
    row = appeal_row(protested)
    assert row.data["from"] == "white" and row.data["text"] == "my phone was dead, here is the bill"
    inbound = Transmission.objects.get(game=protested, direction="in", kind="appeal")
    assert (inbound.channel, inbound.text) == ("web", "APPEAL my phone was dead, here is the bill")
    # Someone who does not play in the game cannot appeal.
    client.force_login(cast["other_td"])
    assert client.post(reverse("play:game_appeal", args=[protested.code]), {"text": "x"}).status_code == 403


def test_it_refuses_an_appeal_on_the_game_page_when_no_decision_is_open(client, cast, protested):
    link(cast["player"], protested.white)
    client.force_login(cast["player"])
    assert 'id="appeal-form"' not in client.get(protested.get_absolute_url()).content.decode()
    response = client.post(reverse("play:game_appeal", args=[protested.code]), {"text": "unfair"}, follow=True)
    assert "No decision on this game can be appealed any more" in response.content.decode()
    assert not Transmission.objects.filter(game=protested, kind="appeal").exists()


def test_it_mails_the_decision_and_the_ruling_to_the_linked_accounts(
    cast, event, protested, mailoutbox, django_capture_on_commit_callbacks
):
    link(cast["player"], protested.white)
    with django_capture_on_commit_callbacks(execute=True):
        decision = desk.claim_rule(
            event=event, game=protested, against="white", ply=1, upheld=True, by=cast["td"], text="no evidence",
            at=later(10_000),
        )  # fmt: skip
    assert [m.to for m in mailoutbox] == [["parent@example.org"]]
    assert mailoutbox[0].subject == "TD decision: time claim against white at ply 1 upheld"
    assert "Why: no evidence" in mailoutbox[0].body and "You may appeal until" in mailoutbox[0].body
    send(protested, "white", "APPEAL the network was down", later(20_000))
    with django_capture_on_commit_callbacks(execute=True):
        desk.appeal_rule(
            decision=decision, message=appeal_row(protested), reverse=False, reasons="no proof", by=cast["chair"]
        )
    assert mailoutbox[1].subject == "Appeal ruled: the TD decision is upheld"
    assert "Reasons: no proof" in mailoutbox[1].body and "final" in mailoutbox[1].body


def test_it_refuses_an_appeal_from_another_game(cast, event, protested, upheld):
    from tests.play.events.helpers import make_event

    other = make_event(cast["other_td"], 2, code="other", name="Other", start=event.start, appeals_chair=cast["chair"])
    game = other.games.select_related("white", "black").get()
    send(game, "white", "APPEAL not mine", later(20_000))
    with pytest.raises(desk.DeskError, match="from another game"):
        desk.appeal_rule(decision=upheld, message=appeal_row(game), reverse=True, reasons="x", by=cast["chair"])
    protested.refresh_from_db()
    assert protested.result == "0-1" and not Appeal.objects.exists()
