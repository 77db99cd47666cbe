"""The TD's list: undecided time claims and PROTEST / DELAY / FAILURE messages of the games he
directs (staff: every game), and his decisions through play.services.claim_decide; over the
personas anonymous, player, TD, another TD and admin."""

import datetime

import pytest
from django.urls import reverse

from play import event_selectors, services, state
from play.models import MobileGame
from tests.base import PASSWORD, federation_admin
from tests.play.events_helpers import START, make_event, quiet_console  # noqa: F401
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db

# White never moves: the failure-to-reply claim is filed at receipt + A + 1 + N = 13:02:01.
FILED = START + datetime.timedelta(seconds=60 + 10_800 + 1 + 60)


def send(game, color, text, at):
    player = game.white if color == "white" else game.black
    return services.message_receive(
        channel="console", sender=str(player.federation_id), text=text, arrival=at, game_code=game.code
    )


def claimed(game, *, protest=True):
    """File the claim against White by a sweep; White protests it and Black declares a delay."""
    services.games_sweep(now=FILED + datetime.timedelta(seconds=1))
    if protest:
        assert (
            send(game, "white", "PROTEST my phone was dead", FILED + datetime.timedelta(hours=1)).applied == "protest"
        )
    assert send(game, "black", "DELAY 30", FILED + datetime.timedelta(hours=2)).applied == "delay"
    game.refresh_from_db()
    return game


@pytest.fixture
def users(django_user_model, personas):
    td = django_user_model.objects.create_user("director", "td@example.org", PASSWORD)
    other = django_user_model.objects.create_user("other_td", "other@example.org", PASSWORD)
    return {**personas, "td": td, "other_td": other, "staff": federation_admin()}


@pytest.fixture
def desk(users):
    event = make_event(users["td"], 2, code="spring")
    # Another TD's event, starting later: the sweep at FILED files no claim in it.
    make_event(users["other_td"], 2, code="autumn", name="Autumn", start=START + datetime.timedelta(days=1))
    game = claimed(event.games.get())
    return event, game


def test_it_lists_the_tds_claims_and_notices(client, users, desk):
    _, game = desk
    client.force_login(users["td"])
    html = client.get(reverse("play:td")).content.decode()
    row = html[html.index(f'id="claim-{game.code}-white-1"') :]
    row = row[: row.index("</tr>")]
    assert game.white.full_name in row and "1." in row and "no reply in time" in row
    assert "2026-05-01 13:02:01" in row  # filed
    assert "2026-05-02 13:03:01" in row  # the protest window ends at filed + N + 1 day
    # T as of the filing instant, A + 1 + N (Decisions), and A(1) = B.
    assert '<td class="num">3:01:01</td><td class="num">3:00:00</td>' in row
    assert "protested" in row and 'name="csrfmiddlewaretoken"' in row
    notices = html[html.index('id="td-notices"') :]
    assert "PROTEST" in notices and "my phone was dead" in notices
    assert "DELAY" in notices and "30 minutes" in notices
    assert game.get_absolute_url() in notices


def test_the_list_loads_only_games_with_something_for_the_td(users, desk):
    _, game = desk
    quiet = make_event(users["td"], 4, code="quiet")
    assert quiet.games.count() == 6
    assert [g.pk for g in event_selectors.td_games(users["td"], now=FILED)] == [game.pk]


def test_another_td_sees_only_his_own_events(client, users, desk):
    _, game = desk
    client.force_login(users["other_td"])
    response = client.get(reverse("play:td"))
    assert response.status_code == 200
    html = response.content.decode()
    assert game.code not in html
    assert "No time claim waits" in html and "No message for the TD." in html


def test_staff_see_every_game_including_challenge_games(client, users, desk):
    _, game = desk
    challenge = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START)
    claimed(challenge, protest=False)
    for who in ("staff", "admin"):
        client.force_login(users[who])
        html = client.get(reverse("play:td")).content.decode()
        assert f"claim-{game.code}-white-1" in html and f"claim-{challenge.code}-white-1" in html
    client.force_login(users["td"])
    assert challenge.code not in client.get(reverse("play:td")).content.decode()


def test_the_duty_td_directs_the_challenge_games(client, users, settings):
    settings.PLAY_DUTY_TD_USERNAME = "other_td"
    challenge = claimed(services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START))
    client.force_login(users["other_td"])
    assert f"claim-{challenge.code}-white-1" in client.get(reverse("play:td")).content.decode()
    decide(client, challenge, "upheld")
    challenge.refresh_from_db()
    assert challenge.result == "0-1"


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_who_directs_nothing_is_refused(client, users, desk, who):
    if who == "player":
        client.force_login(users["player"])
    response = client.get(reverse("play:td"))
    if who == "anonymous":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == 403


def decide(client, game, decision, **extra):
    data = {"game": game.code, "against": "white", "ply": "1", "decision": decision, **extra}
    return client.post(reverse("play:td_decide"), data, follow=True)


def test_the_td_upholds_a_claim_and_the_result_follows(client, users, desk):
    _, game = desk
    client.force_login(users["td"])
    response = decide(client, game, "upheld", reason="no evidence of a failure")
    assert f"Claim upheld in game #{game.code}: the result is 0-1." in response.content.decode()
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "time")
    ruling = game.transmissions.get(direction="ruling")
    assert ruling.data["upheld"] is True and ruling.data["by"] == users["td"].pk
    assert ruling.text == "no evidence of a failure"
    assert f"claim-{game.code}-white-1" not in response.content.decode()
    # Decided: a second decision is refused with the reason, and nothing changes.
    again = decide(client, game, "dismissed")
    assert "The claim was already upheld; nothing changed." in again.content.decode()
    game.refresh_from_db()
    assert game.result == "0-1" and game.transmissions.filter(direction="ruling").count() == 1


def test_the_td_dismisses_a_claim_with_no_further_claim_in_the_period(client, users, desk):
    _, game = desk
    client.force_login(users["td"])
    response = decide(client, game, "dismissed", no_further="on")
    assert f"Claim dismissed in game #{game.code}: play goes on." in response.content.decode()
    game.refresh_from_db()
    assert (game.status, game.result) == ("open", "*")
    value = state.load(game)
    assert value.claims[0].status == "dismissed"
    assert ("white", 0) in value.clock.closed  # no further claim against White in period 0
    assert game.transmissions.get(direction="ruling").data["no_further"] is True


@pytest.mark.parametrize("who", ["other_td", "player"])
def test_only_the_events_td_or_staff_may_decide(client, users, desk, who):
    _, game = desk
    client.force_login(users[who])
    response = client.post(
        reverse("play:td_decide"), {"game": game.code, "against": "white", "ply": "1", "decision": "upheld"}
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.result == "*" and not game.transmissions.filter(direction="ruling").exists()
    client.force_login(users["staff"])
    decide(client, game, "upheld")
    game.refresh_from_db()
    assert game.result == "0-1"


def test_a_decision_on_no_such_claim_is_refused_with_the_reason(client, users, desk):
    _, game = desk
    client.force_login(users["td"])
    response = decide(client, game, "upheld", ply="3")
    assert f"No such claim in game #{game.code}." in response.content.decode()
    response = client.post(reverse("play:td_decide"), {"game": game.code}, follow=True)
    assert "the form was incomplete" in response.content.decode()
    assert MobileGame.objects.get(pk=game.pk).result == "*"


def test_the_decision_needs_a_post_with_csrf(users, desk):
    from django.test import Client

    _, game = desk
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["td"])
    assert client.get(reverse("play:td_decide")).status_code == 405
    data = {"game": game.code, "against": "white", "ply": "1", "decision": "upheld"}
    assert client.post(reverse("play:td_decide"), data).status_code == 403
    game.refresh_from_db()
    assert game.result == "*"
