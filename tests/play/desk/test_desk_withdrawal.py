"""Withdrawal (rule 8): the TD annuls all of a player's games, adjudicates the unfinished ones or
scores them as losses, after a preview of the crosstable and the Mchess ratings; the games'
records, the players' messages and the ratings follow; an appeal can reverse it."""

import datetime

import pytest
from django.urls import reverse

from play import state
from play.desk import selectors
from play.desk import services as desk
from play.models import Decision, Transmission
from ratings.models import PlayerRating, RatingChange
from tests.play.desk.helpers import START, cast_fixture  # noqa: F401
from tests.play.events.helpers import make_event, play, quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db

AT = START + datetime.timedelta(hours=1)


@pytest.fixture(name="trio")
def trio_fixture(cast):
    """Three players; the hero's first game is finished (his opponent resigned after one move
    each), his second is in progress after one move each, the third game is not his."""
    event = make_event(cast["td"], 3, code="trio", start=START, appeals_chair=cast["chair"])
    hero = event.entries.order_by("pk")[0].player
    first, second = [g for g in event.games.select_related("white", "black").order_by("pk") if g.color_of(hero.pk)]
    other = hero_opponent = first.black if first.white_id == hero.pk else first.white
    loser = "black" if first.white_id == hero.pk else "white"
    play(first, [("white", "1. e4"), ("black", "1. e4 e5"), (loser, "RESIGN")], start=START)
    play(second, [("white", "1. d4"), ("black", "1. d4 d5")], start=START)
    for player in (hero, hero_opponent, second.white if second.black_id == hero.pk else second.black):
        PlayerRating.objects.create(player=player, system="mchess", rating=10_000)
    return {"event": event, "hero": hero, "first": first, "second": second, "other": other}


def test_it_previews_then_applies_scoring_the_unfinished_games_as_losses(
    client, cast, trio, django_capture_on_commit_callbacks
):
    event, hero, first, second = trio["event"], trio["hero"], trio["first"], trio["second"]
    client.force_login(cast["td"])
    url = reverse("play:desk_withdraw", args=[event.pk])
    html = client.get(url, {"player": hero.pk, "mode": "losses", "text": "left the event"}).content.decode()
    ratings = html[html.index('id="preview-ratings"') :]
    # Spec (Mchess): equal ratings 10 000, W 250, the lower wins: LRP 0.5 → ±125.
    winner = second.black if second.white_id == hero.pk else second.white
    hero_row = ratings[ratings.index(hero.full_name) :]
    assert '<td class="num">10000</td><td class="num">-125</td><td class="num">9875</td>' in hero_row
    winner_row = ratings[ratings.index(winner.full_name) :]
    assert '<td class="num">+125</td><td class="num">10125</td>' in winner_row
    second.refresh_from_db()
    assert second.status == "open" and not Decision.objects.exists()  # a preview changes nothing
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"player": hero.pk, "mode": "losses", "text": "left the event"}, follow=True)
    assert "withdrawn; his unfinished games are scored as losses" in response.content.decode()
    second.refresh_from_db()
    first.refresh_from_db()
    expected = "0-1" if second.white_id == hero.pk else "1-0"
    assert (second.result, second.termination) == (expected, "withdrawal")
    assert first.termination == "resignation"
    assert state.rebuild(second) == state.load(second)
    assert Transmission.objects.filter(game=second, kind="decision", direction="out").count() == 2


def test_it_takes_annulled_games_out_of_the_table_and_the_ratings(cast, trio, django_capture_on_commit_callbacks):
    from ratings.services import run_requests

    event, hero, first, second = trio["event"], trio["hero"], trio["first"], trio["second"]
    run_requests()
    rated = RatingChange.objects.filter(mobile_game=first, system="mchess")
    assert rated.count() == 2
    gained = {c.player_id: (c.rating_after or 0) - (c.rating_before or 0) for c in rated}
    # Two newcomers (0), W 250: the winner (the hero: his opponent resigned) +125, the loser floored at 0.
    assert (gained[hero.pk], gained[trio["other"].pk]) == (125, 0)
    plan = desk.withdrawal_plan(event, hero, "annul")
    assert {step["game"].pk for step in plan} == {first.pk, second.pk}
    preview = selectors.withdrawal_preview(event, plan)
    change = {row["player"].pk: row["change"] for row in preview["ratings"]}
    assert change[hero.pk] == -gained[hero.pk] and change[trio["other"].pk] == -gained[trio["other"].pk]
    after = {row["player"].pk: row["after"] for row in preview["table"]}
    assert after[hero.pk].points == 0 and after[hero.pk].played == 0
    assert preview["earliest"] == first.finished_at
    with django_capture_on_commit_callbacks(execute=True):
        desk.withdraw(event=event, player=hero, mode="annul", by=cast["td"], text="never answered", at=AT)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == ("annulled", "annulled") and second.next_due is None
    run_requests()
    assert not RatingChange.objects.filter(mobile_game=first).exists()
    assert first.transmissions.filter(direction="ruling", kind="annul").exists()


def test_it_needs_a_result_for_each_unfinished_game_to_adjudicate(cast, trio):
    event, hero, second = trio["event"], trio["hero"], trio["second"]
    with pytest.raises(desk.DeskError, match=f"enter the result of #{second.code}"):
        desk.withdraw(event=event, player=hero, mode="adjudicate", by=cast["td"], text="ill", at=AT)
    with pytest.raises(desk.DeskError, match="choose: annul"):
        desk.withdraw(event=event, player=hero, mode="forfeit", by=cast["td"], text="ill", at=AT)
    assert not Decision.objects.exists()
    desk.withdraw(
        event=event, player=hero, mode="adjudicate", by=cast["td"], text="ill", at=AT, results={second.pk: "1/2-1/2"}
    )
    second.refresh_from_db()
    assert (second.result, second.termination, second.finished_at) == ("1/2-1/2", "adjudication", AT)


@pytest.mark.parametrize("who", ["chair", "other_td", "staff", "player"])
def test_it_lets_only_the_td_withdraw_a_player(client, cast, trio, who):
    client.force_login(cast[who])
    response = client.get(reverse("play:desk_withdraw", args=[trio["event"].pk]))
    assert response.status_code == 403


def test_it_shows_a_refusal_on_the_form_and_changes_nothing(client, cast, trio):
    client.force_login(cast["td"])
    response = client.post(
        reverse("play:desk_withdraw", args=[trio["event"].pk]),
        {"player": trio["hero"].pk, "mode": "adjudicate", "text": "ill"},
    )
    assert "enter the result of #" in response.content.decode()
    trio["second"].refresh_from_db()
    assert trio["second"].status == "open"


def test_it_reverses_a_withdrawal_on_appeal(cast, trio):
    event, hero, first = trio["event"], trio["hero"], trio["first"]
    decision = desk.withdraw(event=event, player=hero, mode="losses", by=cast["td"], text="gone", at=AT)
    second = trio["second"]
    color = second.color_of(hero.pk)
    from tests.play.desk.helpers import send

    second.refresh_from_db()
    send(second, color, "APPEAL I am still here", AT + datetime.timedelta(minutes=10))
    row = Transmission.objects.get(game=second, party="td", kind="appeal")
    desk.appeal_rule(
        decision=decision, message=row, reverse=True, reasons="he answered", by=cast["chair"],
        at=AT + datetime.timedelta(minutes=20),
    )  # fmt: skip
    second.refresh_from_db()
    first.refresh_from_db()
    assert (second.result, second.status) == ("*", "open") and first.termination == "resignation"


def test_it_lets_a_withdrawn_player_appeal_by_message_though_his_games_are_annulled(cast, trio):
    from play import services
    from tests.play.desk.helpers import send

    event, hero, second = trio["event"], trio["hero"], trio["second"]
    decision = desk.withdraw(event=event, player=hero, mode="annul", by=cast["td"], text="never answered", at=AT)
    # Another message than an APPEAL still skips his annulled games.
    status = services.message_receive(
        channel="console", sender=str(hero.federation_id), text="STATUS", arrival=AT + datetime.timedelta(minutes=5)
    )
    assert status.applied == "unknown game"
    receipt = services.message_receive(
        channel="console", sender=str(hero.federation_id), text="APPEAL I was in hospital",
        arrival=AT + datetime.timedelta(minutes=10),
    )  # fmt: skip
    assert receipt.applied == "appeal"
    row = Transmission.objects.get(party="td", kind="appeal")
    assert row.game.status == "annulled" and row.game.color_of(hero.pk)
    assert selectors.appeal_messages(decision) == [row]
    items = [i for i in selectors.queue(event, cast["chair"])["items"] if i["kind"] == "appeal"]
    assert [i["decision"] for i in items] == [decision]
    row.game.refresh_from_db()
    assert (row.game.status, row.game.next_due) == ("annulled", None)  # still out of play
    # With the tag of his other annulled game, it goes there.
    tagged = send(
        second, second.color_of(hero.pk), f"#{second.code} APPEAL and in this one", AT + datetime.timedelta(minutes=11)
    )
    assert tagged.applied == "appeal" and tagged.game.pk == second.pk
    desk.appeal_rule(
        decision=decision, message=row, reverse=True, reasons="he was in hospital", by=cast["chair"],
        at=AT + datetime.timedelta(minutes=20),
    )  # fmt: skip
    second.refresh_from_db()
    assert second.status == "open"


def test_it_takes_a_withdrawn_players_appeal_from_the_game_page(client, cast, trio):
    from tests.play.desk.helpers import link

    event, hero, second = trio["event"], trio["hero"], trio["second"]
    desk.withdraw(event=event, player=hero, mode="annul", by=cast["td"], text="never answered")
    link(cast["player"], hero)
    client.force_login(cast["player"])
    response = client.post(reverse("play:game_appeal", args=[second.code]), {"text": "I was ill"}, follow=True)
    assert "Your appeal reached the Appeals Commission chairman." in response.content.decode()
    row = Transmission.objects.get(party="td", kind="appeal")
    assert row.game == second and row.data["text"] == "I was ill"
