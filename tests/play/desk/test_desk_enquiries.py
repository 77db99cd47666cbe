"""Enquiries (rule 5b): the TD asks a player a question with a deadline, sent on his channel; any
message of his afterwards answers it; one unanswered at its deadline is flagged on the desk with
the way to deem him withdrawn."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import AuditEntry
from play.desk import selectors
from play.desk import services as desk
from play.models import Enquiry, Transmission
from tests.play.desk.helpers import START, cast_fixture, event_fixture, send  # noqa: F401
from tests.play.events.helpers import quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db

AT = START + datetime.timedelta(minutes=30)
DEADLINE = AT + datetime.timedelta(hours=24)


def test_it_sends_the_tds_enquiry_to_the_player_on_his_channel(client, cast, event, django_capture_on_commit_callbacks):
    game = event.games.select_related("white", "black").get()
    send(game, "white", "STATUS", START + datetime.timedelta(minutes=5))  # White's channel is the console now
    client.force_login(cast["td"])
    deadline = (timezone.now() + datetime.timedelta(days=1)).replace(microsecond=0)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play:desk_enquiry", args=[event.pk]),
            {"player": game.white_id, "text": "Are you still playing?", "deadline": f"{deadline:%Y-%m-%d %H:%M:%S}"},
            follow=True,
        )
    html = response.content.decode()
    assert "The enquiry was sent." in html and "Are you still playing?" in html and "answer by" in html
    row = Transmission.objects.get(game=game, kind="enquiry")
    assert (row.party, row.channel, row.delivery) == ("white", "console", "sent")
    assert row.text == (
        f"#{game.code} The TD asks: Are you still playing? Answer with any message (STATUS will do) by "
        f"{deadline:%d.%m %H:%M:%S}."
    )
    enquiry = Enquiry.objects.get()
    assert (enquiry.player, enquiry.deadline, enquiry.by) == (game.white, deadline, cast["td"])
    assert AuditEntry.objects.filter(action="play.enquiry").exists()


def enquiries(event, user, now):
    return {i["enquiry"].pk: i for i in selectors.queue(event, user, now=now)["items"] if i["kind"] == "enquiry"}


def test_it_queues_an_answered_a_waiting_and_an_overdue_enquiry(cast, event):
    game = event.games.select_related("white", "black").get()
    asked_white = desk.enquiry_send(event=event, player=game.white, text="Still there?", deadline=DEADLINE,
                                    by=cast["td"], at=AT)  # fmt: skip
    asked_black = desk.enquiry_send(event=event, player=game.black, text="Still there?", deadline=DEADLINE,
                                    by=cast["td"], at=AT)  # fmt: skip
    send(game, "black", "STATUS", AT + datetime.timedelta(hours=1))
    items = enquiries(event, cast["td"], AT + datetime.timedelta(hours=2))
    assert items[asked_black.pk]["answer"][1] == "STATUS" and not items[asked_white.pk]["overdue"]
    late = DEADLINE + datetime.timedelta(seconds=1)
    items = {
        i["enquiry"].pk: i for i in selectors.queue(event, cast["td"], now=late)["items"] if i["kind"] == "enquiry"
    }
    assert items[asked_white.pk]["overdue"] and items[asked_white.pk]["answer"] is None
    assert not items[asked_black.pk]["overdue"]
    desk.enquiry_close(enquiry=asked_black, by=cast["td"])
    assert [
        i["enquiry"].pk for i in selectors.queue(event, cast["td"], now=late)["items"] if i["kind"] == "enquiry"
    ] == [asked_white.pk]


def test_it_leads_from_an_overdue_enquiry_to_the_withdrawal_page(client, cast, event):
    game = event.games.select_related("white", "black").get()
    past = timezone.now() - datetime.timedelta(days=1)
    desk.enquiry_send(event=event, player=game.white, text="Still there?", deadline=past + datetime.timedelta(hours=1),
                      by=cast["td"], at=past)  # fmt: skip
    client.force_login(cast["td"])
    html = client.get(reverse("play:desk", args=[event.pk])).content.decode()
    assert "Enquiry unanswered, deadline passed" in html
    link = reverse("play:desk_withdraw", args=[event.pk]) + f"?player={game.white_id}"
    assert link in html
    page = client.get(link).content.decode()
    assert f'<option value="{game.white_id}" selected>' in page


@pytest.mark.parametrize(
    ("fields", "problem"),
    [({"text": " "}, "write the question"), ({"deadline": AT}, "a moment after now")],
)
def test_it_refuses_a_bad_enquiry(cast, event, fields, problem):
    game = event.games.get()
    data = {"text": "Still there?", "deadline": DEADLINE, **fields}
    with pytest.raises(desk.DeskError, match=problem):
        desk.enquiry_send(event=event, player=game.white, by=cast["td"], at=AT, **data)
    with pytest.raises(desk.DeskError, match="only the event's TD"):
        desk.enquiry_send(event=event, player=game.white, by=cast["chair"], at=AT, text="x", deadline=DEADLINE)
    assert not Enquiry.objects.exists() and not Transmission.objects.filter(kind="enquiry").exists()
