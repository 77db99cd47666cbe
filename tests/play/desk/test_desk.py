"""The TD's desk: the queue of an event (claims, disputes, delays, failures, appeals, oldest first
with deadlines), a game's file and the claim decisions taken from it; over the personas TD,
chairman, staff, another TD, a player and anonymous."""

import pytest
from django.urls import reverse

from accounts.models import AuditEntry
from play import state
from play.desk import selectors
from play.models import Decision, DeskMark, Transmission
from tests.base import assert_site_styled_forms
from tests.play.desk.helpers import FILED, cast_fixture, event_fixture, later, protested_fixture, send  # noqa: F401
from tests.play.events.helpers import make_event, quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db


def queue_html(client, user, event):
    client.force_login(user)
    response = client.get(reverse("play:desk", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_it_queues_the_protested_claim_the_delay_and_the_dispute_oldest_first(client, cast, event, protested):
    html = queue_html(client, cast["td"], event)
    claim = html.index(f'id="item-claim-{protested.code}-white-1"')
    delay = html.index('class="desk-item desk-delay desk-mine"')
    dispute = html.index('class="desk-item desk-dispute desk-mine"')
    assert claim < delay < dispute
    item = html[claim : html.index("</li>", claim)]
    assert "Protested time claim" in item and "my phone was dead" in item and "3:01:01 / 3:00:00" in item
    assert "Open the file and decide" in item
    assert "30 minutes" in html[delay:dispute] and "he says his phone was dead" in html[dispute:]


def test_it_styles_the_desks_forms_and_buttons_like_the_rest_of_the_site(client, cast, event, protested):
    html = queue_html(client, cast["td"], event)
    assert_site_styled_forms(html)
    assert '<button type="submit" class="secondary">Mark handled</button>' in html
    file = client.get(reverse("play:desk_file", args=[event.pk, protested.code])).content.decode()
    assert_site_styled_forms(file)
    assert '<p class="actions desk-buttons"><button type="submit" name="decision" value="upheld">' in file
    withdraw = reverse("play:desk_withdraw", args=[event.pk])
    preview = {"player": protested.white.pk, "mode": "annul", "text": "left the event"}
    page = client.get(withdraw, preview).content.decode()
    assert 'id="withdraw-confirm"' in page
    assert_site_styled_forms(page)


def test_it_shows_an_open_claims_protest_deadline(client, cast, event):
    from play import services

    game = event.games.get()
    services.games_sweep(now=later(1))
    html = queue_html(client, cast["td"], event)
    item = html[html.index(f'id="item-claim-{game.code}-white-1"') :]
    deadline = FILED + __import__("datetime").timedelta(seconds=60 + 86_400)
    assert "Open time claim" in item[:300] and f"protest until {deadline:%Y-%m-%d %H:%M:%S}" in item


def test_it_reads_the_queue_in_a_fixed_number_of_queries(client, cast, event, protested, django_assert_max_num_queries):
    client.force_login(cast["td"])
    url = reverse("play:desk", args=[event.pk])
    client.get(url)
    # session and user, the event, the staff test, the TD's players, the claim games, the
    # decisions, the notices, the open enquiries, the players for the forms, the channel
    # outages (and their games when there are any), the menu's two permission reads.
    with django_assert_max_num_queries(14):
        assert client.get(url).status_code == 200
    bigger = make_event(cast["td"], 5, code="big", start=event.start, appeals_chair=cast["chair"])
    from play import services

    services.games_sweep(now=later(2))
    for game in bigger.games.select_related("white", "black"):
        send(game, "white", "PROTEST no", later(100))
        send(game, "black", "DISPUTE yes", later(200))
    with django_assert_max_num_queries(14):
        html = client.get(reverse("play:desk", args=[bigger.pk])).content.decode()
    assert html.count('class="desk-item desk-claim') == 10 and html.count("desk-dispute") == 10


@pytest.mark.parametrize(
    ("who", "status"),
    [("td", 200), ("chair", 200), ("staff", 200), ("other_td", 403), ("player", 403), ("anonymous", 302)],
)
def test_it_shows_the_desk_to_whom_it_concerns(client, cast, event, protested, who, status):
    if who != "anonymous":
        client.force_login(cast[who])
    for url in (
        reverse("play:desk", args=[event.pk]),
        reverse("play:desk_file", args=[event.pk, protested.code]),
    ):
        assert client.get(url).status_code == status
    listing = client.get(reverse("play:desk_list"))
    if who in ("td", "chair", "staff"):
        assert event.name in listing.content.decode()
    elif who == "anonymous":
        assert listing.status_code == 302
    else:
        assert listing.status_code == 403


def test_it_lets_staff_see_but_not_act_beyond_time_claims(client, cast, event, protested):
    # Staff rule on time claims, as they could on the TD's list before the desk
    # (test_desk_challenges); any other decision is the TD's.
    html = queue_html(client, cast["staff"], event)
    assert "federation staff" in html and "Open the file and decide" not in html and "Mark handled" not in html
    response = client.post(
        reverse("play:desk_decide", args=[event.pk]),
        {"kind": "score", "game": protested.code, "result": "1-0", "text": "no"},
        follow=True,
    )
    assert "only the event&#x27;s TD decides" in response.content.decode()
    protested.refresh_from_db()
    assert protested.result == "*" and not Decision.objects.exists()


def test_it_shows_the_whole_timeline_with_clock_figures_in_the_file(client, cast, event):
    from play import services

    game = event.games.select_related("white", "black").get()
    start = event.start
    import datetime

    send(game, "white", "1. e4", start + datetime.timedelta(seconds=330))
    send(game, "black", "1. e4 c5", start + datetime.timedelta(seconds=990))
    client.force_login(cast["td"])
    html = client.get(reverse("play:desk_file", args=[event.pk, game.code])).content.decode()
    table = html[html.index('id="file-timeline"') :]
    rows = table.split("<tr")[2:]
    first = next(r for r in rows if "1. e4</td>" in r or ">1. e4<" in r)
    # Spec worked example: receipt 10:01:00, arrival 10:05:30, u = 270.
    assert f"{start + datetime.timedelta(seconds=60):%H:%M:%S}" in first and "0:04:30" in first and "3:00:00" in first
    assert "acknowledgement" in table and "console" in table
    assert "White 0:04:30 · Black 0:10:00" in html
    assert services  # the game was played through the message service


def test_it_lets_the_td_uphold_a_protested_claim_from_the_file(
    client, cast, event, protested, django_capture_on_commit_callbacks
):
    from ratings.models import RatingRequest

    client.force_login(cast["td"])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("play:desk_claim", args=[event.pk, protested.code]),
            {"against": "white", "ply": 1, "decision": "upheld", "text": "no evidence of a failure"},
            follow=True,
        )
    html = response.content.decode()
    assert "Decision recorded: time claim against white at ply 1 upheld. The result is 0-1." in html
    protested.refresh_from_db()
    assert (protested.result, protested.termination, protested.status) == ("0-1", "time", "finished")
    decision = Decision.objects.get()
    assert (decision.kind, decision.result, decision.by, decision.text) == (
        "claim", "upheld", cast["td"], "no evidence of a failure",
    )  # fmt: skip
    # Appealable until its receipt (at + N) + one day (rule 10c).
    assert (decision.appealable_until - decision.at).total_seconds() == 60 + 86_400
    # Both players told through their channel (the console), the decision with its appeal window.
    told = Transmission.objects.filter(game=protested, direction="out", kind="decision")
    assert sorted(told.values_list("party", "channel", "delivery")) == [
        ("black", "console", "sent"),
        ("white", "console", "sent"),
    ]
    assert "TD decision: time claim against white at ply 1 upheld. Why: no evidence of a failure." in told[0].text
    assert "You may appeal (APPEAL text) until" in told[0].text
    assert AuditEntry.objects.filter(action="play.claim_decision", object_id=str(decision.pk)).exists()
    assert RatingRequest.objects.filter(reason="mobile", since_at=decision.at).exists()
    assert state.rebuild(protested) == state.load(protested)
    # The claim left the queue; refusing a second decision changes nothing.
    assert f"item-claim-{protested.code}" not in queue_html(client, cast["td"], event)
    again = client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "dismissed", "text": "changed my mind"},
        follow=True,
    )
    assert "already upheld" in again.content.decode() and Decision.objects.count() == 1


def test_it_lets_the_td_dismiss_with_no_further_claim_in_the_period(client, cast, event, protested):
    client.force_login(cast["td"])
    client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "dismissed", "no_further": "on", "text": "the network was down"},
    )
    protested.refresh_from_db()
    value = state.load(protested)
    assert value.claims[0].status == "dismissed" and ("white", 0) in value.clock.closed
    assert protested.result == "*" and Decision.objects.get().result == "dismissed"


def test_it_refuses_a_decision_without_a_reason(client, cast, event, protested):
    client.force_login(cast["td"])
    response = client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "upheld", "text": ""},
        follow=True,
    )
    assert "say why" in response.content.decode()
    protested.refresh_from_db()
    assert protested.result == "*"


def test_it_lets_the_td_mark_a_delay_handled_and_it_leaves_the_queue(client, cast, event, protested):
    delay = Transmission.objects.get(game=protested, party="td", kind="delay")
    client.force_login(cast["other_td"])
    assert client.post(reverse("play:desk_handled", args=[event.pk]), {"message": delay.pk}).status_code == 403
    client.force_login(cast["td"])
    client.post(reverse("play:desk_handled", args=[event.pk]), {"message": delay.pk, "note": "no credit: late"})
    mark = DeskMark.objects.get()
    assert (mark.message, mark.by, mark.note) == (delay, cast["td"], "no credit: late")
    html = queue_html(client, cast["td"], event)
    assert "desk-delay" not in html and "desk-dispute" in html
    again = client.post(reverse("play:desk_handled", args=[event.pk]), {"message": delay.pk}, follow=True)
    assert "already handled" in again.content.decode()


def test_it_leaves_the_games_of_a_td_who_plays_in_his_event_to_the_chairman(client, cast, event, protested):
    from tests.play.desk.helpers import link

    link(cast["td"], protested.black)
    html = queue_html(client, cast["td"], event)
    item = html[html.index(f'id="item-claim-{protested.code}-white-1"') :]
    assert "You play in this game: the Appeals Commission chairman rules on it." in item[: item.index("</li>")]
    response = client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "upheld", "text": "mine"},
    )
    assert response.status_code == 403
    assert "You play in this game: the Appeals Commission chairman rules on it." in response.content.decode()
    assert "Open the file and decide" in queue_html(client, cast["chair"], event)
    client.post(
        reverse("play:desk_claim", args=[event.pk, protested.code]),
        {"against": "white", "ply": 1, "decision": "upheld", "text": "the chairman decides"},
    )
    protested.refresh_from_db()
    assert protested.result == "0-1" and Decision.objects.get().by == cast["chair"]


def test_it_lists_the_events_directed_or_chaired(cast, event):
    other = make_event(cast["other_td"], 2, code="autumn", name="Autumn", start=event.start)
    assert list(selectors.events_for(cast["td"])) == [event]
    assert list(selectors.events_for(cast["chair"])) == [event]
    assert set(selectors.events_for(cast["staff"])) == {event, other}


def test_it_lets_a_player_report_a_dispute_from_the_game_page(client, cast, event):
    from tests.play.desk.helpers import link

    game = event.games.select_related("white", "black").get()
    link(cast["player"], game.black)
    client.force_login(cast["player"])
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="dispute-form"' in page and 'id="appeal-form"' not in page
    response = client.post(
        reverse("play:game_dispute", args=[game.code]), {"text": "his move\narrived twice"}, follow=True
    )
    assert "Your dispute reached the TD." in response.content.decode()
    inbound = Transmission.objects.get(game=game, direction="in")
    assert (inbound.channel, inbound.kind, inbound.text) == ("web", "dispute", "DISPUTE his move arrived twice")
    html = queue_html(client, cast["td"], event)
    assert "desk-dispute" in html and "his move arrived twice" in html
    client.force_login(cast["other_td"])
    assert client.post(reverse("play:game_dispute", args=[game.code]), {"text": "x"}).status_code == 403


def test_it_queues_a_failure_report_and_a_protest_without_a_claim(client, cast, event):
    game = event.games.select_related("white", "black").get()
    assert send(game, "white", "FAILURE my phone broke", later(-7200)).applied == "failure"
    assert send(game, "black", "PROTEST he is slow", later(-3600)).applied == "no claim"
    html = queue_html(client, cast["td"], event)
    failure = html.index("desk-item desk-failure")
    protest = html.index("desk-item desk-protest")
    assert failure < protest
    assert "Failure report" in html[failure:protest] and "my phone broke" in html[failure:protest]
    assert "Protest without a claim" in html[protest:] and "he is slow" in html[protest:]


def test_it_warns_when_no_chairman_is_named(client, cast):
    lonely = make_event(cast["td"], 2, code="lonely", name="Lonely")
    assert 'id="no-chair"' in queue_html(client, cast["td"], lonely)
