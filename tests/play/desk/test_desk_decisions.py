"""The TD's decisions (rule 10a, 10b): time credited or charged in one game or all, a penalty, a
game scored, a player disqualified, another ruling; each in the games' records (rebuilt equal),
sent to both players on their channel, audited, and re-rated when a result changes."""

import datetime

import pytest
from django.urls import reverse

from accounts.models import AuditEntry
from play import state
from play.desk import services as desk
from play.models import Decision, Transmission
from tests.play.desk.helpers import START, cast_fixture, event_fixture, protested_fixture  # noqa: F401
from tests.play.events.helpers import make_event, play, quiet_console  # noqa: F401

pytestmark = pytest.mark.django_db

AT = START + datetime.timedelta(minutes=30)


def games_of(event, player):
    return [g for g in event.games.select_related("white", "black").order_by("pk") if g.color_of(player.pk)]


@pytest.fixture(name="three")
def three_fixture(cast):
    return make_event(cast["td"], 3, code="trio", start=START, appeals_chair=cast["chair"])


def test_it_credits_time_in_all_his_unfinished_games(cast, three, django_capture_on_commit_callbacks):
    hero = three.entries.order_by("pk")[0].player
    mine = games_of(three, hero)
    assert len(mine) == 2
    with django_capture_on_commit_callbacks(execute=True):
        decision = desk.decision_make(
            event=three, kind="credit", by=cast["td"], player=hero, seconds=600, all_games=True,
            text="declared DELAY 10 accepted", at=AT,
        )  # fmt: skip
    for game in mine:
        game.refresh_from_db()
        color = game.color_of(hero.pk)
        value = state.load(game)
        assert value.clock.total(color) == -600  # T lowered by the credit (Clocks: "Accumulated")
        assert state.rebuild(game, until=AT) == value
        ruling = game.transmissions.get(direction="ruling", kind="adjust")
        assert ruling.data == {"action": "adjust", "color": color, "seconds": -600, "by": cast["td"].pk}
        told = game.transmissions.filter(direction="out", kind="decision").order_by("party")
        assert [(t.party, t.channel, t.delivery) for t in told] == [("black", "web", "sent"), ("white", "web", "sent")]
        until = AT + datetime.timedelta(seconds=60 + 86_400)  # the decision's receipt + 1 day
        assert told[0].text == (
            f"#{game.code} TD decision: {hero.full_name} credited 0:10:00 in all his games. "
            f"Why: declared DELAY 10 accepted. You may appeal (APPEAL text) until {until:%d.%m %H:%M:%S}."
        )
    assert decision.effects == [{"game": g.pk, "color": g.color_of(hero.pk), "seconds": -600} for g in mine]
    entry = AuditEntry.objects.get(action="play.decision")
    assert entry.actor == cast["td"] and entry.reason == "declared DELAY 10 accepted"


def test_it_charges_a_penalty_in_one_game_and_the_flag_moves(cast, three):
    game = three.games.select_related("white", "black").order_by("pk")[0]
    before = state.load(game).clock.filing_at
    desk.decision_make(
        event=three, kind="penalty", by=cast["td"], game=game, player=game.white, seconds=3600,
        text="abusive messages", at=AT,
    )  # fmt: skip
    game.refresh_from_db()
    value = state.load(game)
    assert value.clock.total("white") == 3600
    assert value.clock.filing_at == before - datetime.timedelta(seconds=3600)
    assert game.next_due == value.clock.next_due


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"kind": "credit", "seconds": 60}, "to a player"),
        ({"kind": "charge", "player": "white"}, "positive number of seconds"),
        ({"kind": "credit", "player": "white", "seconds": 60, "game": None}, "choose the game"),
        ({"kind": "score", "result": "2-0"}, "scored 1-0, 0-1 or 1/2-1/2"),
        ({"kind": "disqualify", "game": None}, "choose the player"),
        ({"kind": "other", "text": "  "}, "a decision says why"),
        ({"kind": "claim"}, "unknown decision"),
    ],
)
def test_it_refuses_a_decision_that_does_not_fit_and_changes_nothing(cast, three, fields, problem):
    game = three.games.select_related("white", "black").order_by("pk")[0]
    data = {"kind": "other", "text": "why", "game": game, **fields}
    if data.get("player") == "white":
        data["player"] = game.white
    with pytest.raises(desk.DeskError, match=problem):
        desk.decision_make(event=three, by=cast["td"], at=AT, **data)
    assert not Decision.objects.exists() and not Transmission.objects.filter(direction="ruling").exists()


def test_it_lets_only_the_td_decide(cast, three):
    game = three.games.order_by("pk")[0]
    for who in ("chair", "other_td", "staff", "player"):
        with pytest.raises(desk.DeskError, match="only the event's TD decides"):
            desk.decision_make(event=three, kind="other", by=cast[who], game=game, text="x", at=AT)


def test_it_re_rates_a_scored_game_from_its_new_finishing_moment(cast, event, django_capture_on_commit_callbacks):
    from ratings.models import RatingChange, RatingRequest
    from ratings.services import run_requests

    game = play(event.games.get(), [("white", "1. e4"), ("black", "1. e4 e5")], start=START)
    with django_capture_on_commit_callbacks(execute=True):
        desk.decision_make(
            event=event, kind="score", by=cast["td"], game=game, result="1-0", text="Black abandoned the game", at=AT
        )
    game.refresh_from_db()
    assert (game.result, game.termination, game.status, game.finished_at) == ("1-0", "TD decision", "finished", AT)
    assert state.rebuild(game, until=AT) == state.load(game)
    assert RatingRequest.objects.filter(reason="mobile", since_at=AT).exists()
    run_requests()
    changes = {c.player_id: c for c in RatingChange.objects.filter(mobile_game=game, system="mchess")}
    assert changes[game.white_id].rating_after > changes[game.white_id].rating_before


def test_it_scores_a_disqualified_players_unfinished_games_as_losses(cast, three):
    hero = three.entries.order_by("pk")[0].player
    first, second = games_of(three, hero)
    play(first, [("white", "RESIGN")], start=START)  # finished before: it stands
    decision = desk.decision_make(
        event=three, kind="disqualify", by=cast["td"], player=hero, text="two forfeits in a row", at=AT
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.termination == "resignation"
    expected = "0-1" if second.color_of(hero.pk) == "white" else "1-0"
    assert (second.result, second.termination) == (expected, "disqualification")
    assert decision.effects == [{"game": second.pk, "before": None, "after": [expected, "disqualification"]}]


def test_it_lets_the_td_decide_on_a_delay_from_the_desk_form_and_handles_the_item(client, cast, event, protested):
    delay = Transmission.objects.get(game=protested, party="td", kind="delay")
    client.force_login(cast["td"])
    page = client.get(reverse("play:desk_file", args=[event.pk, protested.code]) + f"?answers={delay.pk}")
    assert f'name="answers" value="{delay.pk}"' in page.content.decode()
    response = client.post(
        reverse("play:desk_decide", args=[event.pk]),
        {"kind": "credit", "game": protested.code, "player": protested.black_id, "minutes": 30,
         "text": "the DELAY is credited", "answers": delay.pk},
        follow=True,
    )  # fmt: skip
    html = response.content.decode()
    assert f"Decision recorded: {protested.black.full_name} credited 0:30:00 in #{protested.code}." in html
    assert "desk-delay" not in html and "desk-dispute" in html
    protested.refresh_from_db()
    assert state.load(protested).clock.total("black") == -1800
    refused = client.post(
        reverse("play:desk_decide", args=[event.pk]),
        {"kind": "score", "game": "NOPE", "result": "1-0", "text": "x"},
        follow=True,
    )
    assert "No game #NOPE in this event." in refused.content.decode()


def test_it_names_time_losses_and_disqualifications_on_the_sanction_list(client, cast, three, event, protested):
    hero = three.entries.order_by("pk")[0].player
    desk.decision_make(event=three, kind="disqualify", by=cast["td"], player=hero, text="abandoned", at=AT)
    desk.claim_rule(event=event, game=protested, against="white", ply=1, upheld=True, by=cast["td"], text="no evidence")
    for who, status in (("player", 403), ("other_td", 403), ("td", 200), ("staff", 200)):
        client.force_login(cast[who])
        response = client.get(reverse("play:desk_sanctions"))
        assert response.status_code == status
    html = response.content.decode()
    table = html[html.index('id="sanctions"') :]
    assert protested.white.full_name in table and "lost on time" in table
    assert hero.full_name in table and "disqualified" in table and "abandoned" in table
    assert protested.black.full_name not in table


def test_it_shows_a_decision_on_a_player_in_all_his_games_on_the_game_page(client, cast, three):
    from tests.play.desk.helpers import link

    hero = three.entries.order_by("pk")[0].player
    link(cast["player"], hero)
    desk.decision_make(
        event=three, kind="charge", by=cast["td"], player=hero, seconds=60, all_games=True, text="rude messages"
    )
    client.force_login(cast["player"])
    for game in games_of(three, hero):
        html = client.get(game.get_absolute_url()).content.decode()
        assert f"{hero.full_name} charged 0:01:00 in all his games" in html and 'id="appeal-form"' in html
