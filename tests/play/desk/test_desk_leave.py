"""Leave (beyond the draft, as ICCF offers it): an event allows leave days per player; a player
asks from the game page; the TD grants or refuses on his desk. Granted, every unfinished game of
the player in the event stands still for the period (both clocks), recorded as a 'pause' ruling
that the rebuild from the record reproduces; the sweeper files no claim for it; both players of
each game are told. Control 259200/30+1200/10 (three days), norm 60 s, exact seconds."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import AuditEntry
from play import services, state
from play.desk import leave as leaves
from play.desk.services import DeskError
from play.models import Leave, Transmission
from tests.play.desk.helpers import cast_fixture, link  # noqa: F401
from tests.play.events.helpers import make_event, quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db


def at(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


START = at("2026-05-01T12:00:00Z")  # every receipt of a first move: 12:01:00
ASKED = at("2026-05-01T13:00:00Z")
GRANTED = at("2026-05-01T14:00:00Z")
DAY = datetime.date


@pytest.fixture
def trio(cast):
    """Three players, three games, all unplayed; three leave days each."""
    event = make_event(cast["td"], 3, code="leave", start=START, control="259200/30+1200/10", leave_days=3,
                       appeals_chair=cast["chair"])  # fmt: skip
    return event


def on_leave(event):
    return event.entries.order_by("pk").first().player


def test_it_refuses_a_request_that_does_not_fit_and_changes_nothing(cast, trio):
    player = on_leave(trio)
    cases = [
        ({"first_day": DAY(2026, 5, 1), "last_day": DAY(2026, 5, 2)}, r"tomorrow \(UTC\) at the earliest"),
        ({"first_day": DAY(2026, 5, 4), "last_day": DAY(2026, 5, 3)}, "comes before the first"),
        ({"first_day": DAY(2026, 5, 3), "last_day": DAY(2026, 5, 6)}, "4 days asked, 3 of the event.s 3 left"),
    ]
    for fields, problem in cases:
        with pytest.raises(DeskError, match=problem):
            leaves.leave_request(event=trio, player=player, at=ASKED, **fields)
    leaves.leave_request(event=trio, player=player, first_day=DAY(2026, 5, 3), last_day=DAY(2026, 5, 4), at=ASKED)
    with pytest.raises(DeskError, match="2 days asked, 1 of the event's 3 left"):
        leaves.leave_request(event=trio, player=player, first_day=DAY(2026, 5, 8), last_day=DAY(2026, 5, 9), at=ASKED)
    trio.leave_days = 0
    with pytest.raises(DeskError, match="allows no leave"):
        leaves.leave_request(event=trio, player=player, first_day=DAY(2026, 5, 8), last_day=DAY(2026, 5, 8), at=ASKED)
    assert Leave.objects.count() == 1


def test_it_pauses_every_game_of_the_player_and_files_no_claim_for_the_leave(
    cast, trio, django_capture_on_commit_callbacks
):
    player = on_leave(trio)
    leave = leaves.leave_request(
        event=trio, player=player, first_day=DAY(2026, 5, 3), last_day=DAY(2026, 5, 4), text="a wedding", at=ASKED
    )
    with django_capture_on_commit_callbacks(execute=True):
        leaves.leave_decide(leave=leave, grant=True, by=cast["td"], reason="enjoy it", at=GRANTED)
    mine = list(trio.games.filter(white=player) | trio.games.filter(black=player))
    other = trio.games.exclude(pk__in=[g.pk for g in mine]).get()
    assert len(mine) == 2
    for game in mine:
        game.refresh_from_db()
        ruling = game.transmissions.get(direction="ruling")
        assert ruling.data["action"] == "pause"
        assert (ruling.data["begin"], ruling.data["end"]) == ("2026-05-03T00:00:00Z", "2026-05-05T00:00:00Z")
        # White on move since 12:01:00 (his own clock, or the opponent's when he is Black): 129 540 s
        # run before the leave. Reminder after ceil(4 * 259 200 / 5) = 207 360 s: 2026-05-05 21:37:00;
        # the filing after 259 261 s: 2026-05-06 12:02:01 (without the leave, 2026-05-04 12:02:01).
        assert game.next_due == at("2026-05-05T21:37:00Z")
        assert state.load(game).clock.filing_at == at("2026-05-06T12:02:01Z")
        told = Transmission.objects.filter(game=game, direction="out", kind="decision")
        assert sorted(told.values_list("party", flat=True)) == ["black", "white"]
        assert "both clocks of this game stop from" in told.first().text
    other.refresh_from_db()
    assert other.next_due == at("2026-05-03T21:37:00Z")  # untouched: 12:01:00 + 207 360 s
    services.games_sweep(now=at("2026-05-04T12:03:00Z"))
    for game in mine:
        game.refresh_from_db()
        assert not game.transmissions.filter(kind="claim").exists() and game.result == "*"
        assert state.rebuild(game, until=at("2026-05-04T12:03:00Z")) == state.load(game)
    assert other.transmissions.filter(kind="claim", party="td").exists()  # its flag fell on 05-04 12:02:01
    assert AuditEntry.objects.filter(action="play.leave_grant").exists()
    leave.refresh_from_db()
    assert (leave.status, leave.decided_by, leave.reason) == ("granted", cast["td"], "enjoy it")


def test_it_takes_a_moves_time_used_out_of_the_leave(cast, trio):
    player = on_leave(trio)
    game = trio.games.filter(white=player).first() or trio.games.filter(black=player).first()
    leave = leaves.leave_request(
        event=trio, player=player, first_day=DAY(2026, 5, 3), last_day=DAY(2026, 5, 3), at=ASKED
    )
    leaves.leave_decide(leave=leave, grant=True, by=cast["td"], at=GRANTED)
    receipt = services.message_receive(
        channel="console", sender=str(game.white.federation_id), text="e4", arrival=at("2026-05-04T06:00:00Z"),
        game_code=game.code,
    )  # fmt: skip
    assert receipt.applied == "move"
    game.refresh_from_db()
    # 12:01:00 on 05-01 to 06:00:00 on 05-04 is 237 540 s, of which 86 400 on leave.
    assert state.load(game).moves[0].timing.used == 151_140
    assert state.rebuild(game, until=at("2026-05-04T06:00:00Z")) == state.load(game)


def test_it_lets_only_the_td_grant_and_refuses_a_late_or_second_decision(cast, trio):
    leave = leaves.leave_request(
        event=trio, player=on_leave(trio), first_day=DAY(2026, 5, 3), last_day=DAY(2026, 5, 3), at=ASKED
    )
    for who in ("chair", "staff", "other_td"):
        with pytest.raises(DeskError, match="only the event's TD grants leave"):
            leaves.leave_decide(leave=leave, grant=True, by=cast[who], at=GRANTED)
    with pytest.raises(DeskError, match="already begun"):
        leaves.leave_decide(leave=leave, grant=True, by=cast["td"], at=at("2026-05-03T00:00:00Z"))
    assert not Transmission.objects.filter(direction="ruling").exists()
    leaves.leave_decide(leave=leave, grant=False, by=cast["td"], reason="not now", at=GRANTED)
    with pytest.raises(DeskError, match="already refused"):
        leaves.leave_decide(leave=leave, grant=True, by=cast["td"], at=GRANTED)
    assert not Transmission.objects.filter(direction="ruling").exists()
    # A refused leave gives its days back.
    assert leaves.days_left(trio, leave.player) == 3


def test_it_takes_a_request_from_the_game_page_to_the_tds_desk(client, cast, trio):
    player = on_leave(trio)
    game = trio.games.filter(white=player).first() or trio.games.filter(black=player).first()
    link(cast["player"], player)
    client.force_login(cast["player"])
    html = client.get(game.get_absolute_url()).content.decode()
    assert 'id="leave-form"' in html and "3 days of leave per player" in html
    tomorrow = timezone.now().date() + datetime.timedelta(days=1)
    response = client.post(
        reverse("play:game_leave", args=[game.code]),
        {"first_day": tomorrow.isoformat(), "last_day": (tomorrow + datetime.timedelta(days=1)).isoformat(),
         "text": "a wedding"},
        follow=True,
    )  # fmt: skip
    assert "Your leave request reached the TD." in response.content.decode()
    leave = Leave.objects.get()
    assert (leave.player, leave.days, leave.status) == (player, 2, "requested")
    bad = client.post(reverse("play:game_leave", args=[game.code]), {"first_day": "x"}, follow=True)
    assert "give the first and the last day" in bad.content.decode() and Leave.objects.count() == 1
    client.force_login(cast["td"])
    html = client.get(reverse("play:desk", args=[trio.pk])).content.decode()
    assert f'id="leave-{leave.pk}"' in html and "a wedding" in html
    response = client.post(reverse("play:desk_leave", args=[trio.pk, leave.pk]), {"decision": "grant"}, follow=True)
    assert "Leave granted" in response.content.decode()
    assert Transmission.objects.filter(direction="ruling", kind="pause").count() == 2
    client.force_login(cast["player"])
    assert f'id="my-leave-{leave.pk}"' in client.get(game.get_absolute_url()).content.decode()


def test_it_refuses_the_request_form_to_who_does_not_play(client, cast, trio):
    game = trio.games.first()
    client.force_login(cast["player"])
    response = client.post(reverse("play:game_leave", args=[game.code]), {"first_day": "2030-01-01"})
    assert response.status_code == 403 and not Leave.objects.exists()


def test_it_takes_a_request_from_my_games(client, cast, trio):
    player = on_leave(trio)
    link(cast["player"], player)
    client.force_login(cast["player"])
    html = client.get(reverse("play:mine")).content.decode()
    assert f'id="my-leave-{trio.pk}-{player.pk}"' in html and "3 days of leave per player" in html
    game = min(trio.games.filter(white=player) | trio.games.filter(black=player), key=lambda g: g.pk)
    start = html.index(f'id="my-leave-{trio.pk}-{player.pk}"')
    assert reverse("play:game_leave", args=[game.code]) in html[start:]
    tomorrow = timezone.now().date() + datetime.timedelta(days=1)
    response = client.post(
        reverse("play:game_leave", args=[game.code]),
        {"color": game.color_of(player.pk), "first_day": tomorrow.isoformat(), "last_day": tomorrow.isoformat(),
         "back": reverse("play:mine")},
    )  # fmt: skip
    assert response.status_code == 302 and response["Location"] == reverse("play:mine")
    leave = Leave.objects.get()
    assert (leave.player, leave.days) == (player, 1)
    assert "requested" in client.get(reverse("play:mine")).content.decode()
    trio.leave_days = 0
    trio.save(update_fields=["leave_days"])
    assert 'id="my-leave' not in client.get(reverse("play:mine")).content.decode()
