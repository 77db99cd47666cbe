"""The desk as the TD's one place (the old TD's list, /play/td/, redirects to it): the challenge
games' desk lists the undecided time claims and PROTEST / DELAY / FAILURE messages of the
challenge games for the duty TD and staff, who decide there through play.rulings.claim_decide;
an event's claims are on its desk, where staff may rule too; over the personas anonymous,
player, TD, another TD, the duty TD and admin."""

import datetime

import pytest
from django.urls import reverse

from play import services, state
from play.events import selectors as event_selectors
from play.models import MobileGame
from tests.base import PASSWORD, assert_site_styled_forms, federation_admin
from tests.play.events.helpers import START, make_event, quiet_console  # noqa: F401
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
def challenge(users, settings):
    """A challenge game, its claim against White protested and a DELAY of Black; other_td is the
    federation's duty TD."""
    settings.PLAY_DUTY_TD_USERNAME = "other_td"
    return claimed(services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START))


@pytest.fixture
def desk(users):
    event = make_event(users["td"], 2, code="spring")
    # Another TD's event, starting later: the sweep at FILED files no claim in it.
    make_event(users["other_td"], 2, code="autumn", name="Autumn", start=START + datetime.timedelta(days=1))
    game = claimed(event.games.get())
    return event, game


def test_it_redirects_the_old_tds_list_to_the_desk_for_good(client, users, desk):
    client.force_login(users["td"])
    response = client.get("/play/td/")
    assert response.status_code == 301 and response["Location"] == reverse("play:desk_list")


def test_it_lists_the_challenge_games_claims_and_notices(client, users, challenge):
    client.force_login(users["other_td"])
    html = client.get(reverse("play:desk_challenges")).content.decode()
    row = html[html.index(f'id="claim-{challenge.code}-white-1"') :]
    row = row[: row.index("</tr>")]
    assert challenge.white.full_name in row and "1." in row and "no reply in time" in row
    assert "2026-05-01 13:02:01" in row  # filed
    assert "2026-05-02 13:03:01" in row  # the protest window ends at filed + N + 1 day
    # T as of the filing instant, A + 1 + N (Decisions), and A(1) = B.
    assert '<td class="num">3:01:01</td><td class="num">3:00:00</td>' in row
    assert "protested" in row and 'name="csrfmiddlewaretoken"' in row
    notices = html[html.index('id="td-notices"') :]
    assert "PROTEST" in notices and "my phone was dead" in notices
    assert "DELAY" in notices and "30 minutes" in notices
    assert challenge.get_absolute_url() in notices
    assert_site_styled_forms(html)


def test_it_loads_only_challenge_games_with_something_for_the_td(users, desk, challenge):
    _, game = desk
    quiet = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START + datetime.timedelta(days=1))
    assert quiet.pk and game.pk
    assert [g.pk for g in event_selectors.td_games(users["other_td"], now=FILED)] == [challenge.pk]
    assert list(event_selectors.td_games(users["td"], now=FILED)) == []  # no duty TD: nothing


def test_it_shows_another_td_only_his_own_events(client, users, desk):
    event, _game = desk
    client.force_login(users["other_td"])
    response = client.get(reverse("play:desk_list"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Autumn" in html and event.name not in html and 'id="desk-challenges"' not in html
    assert client.get(reverse("play:desk", args=[event.pk])).status_code == 403
    assert client.get(reverse("play:desk_challenges")).status_code == 403


def test_it_shows_staff_every_game_including_challenge_games(client, users, desk):
    event, game = desk
    challenge = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=START)
    claimed(challenge, protest=False)
    for who in ("staff", "admin"):
        client.force_login(users[who])
        assert 'id="desk-challenges"' in client.get(reverse("play:desk_list")).content.decode()
        html = client.get(reverse("play:desk", args=[event.pk])).content.decode()
        assert f"item-claim-{game.code}-white-1" in html
        assert f"claim-{challenge.code}-white-1" in client.get(reverse("play:desk_challenges")).content.decode()
    client.force_login(users["td"])
    assert 'id="desk-challenges"' not in client.get(reverse("play:desk_list")).content.decode()
    assert client.get(reverse("play:desk_challenges")).status_code == 403


def test_it_lets_the_duty_td_direct_the_challenge_games(client, users, challenge):
    client.force_login(users["other_td"])
    html = client.get(reverse("play:desk_list")).content.decode()
    assert 'id="desk-challenges"' in html
    decide(client, challenge, "upheld")
    challenge.refresh_from_db()
    assert challenge.result == "0-1"


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_it_refuses_who_directs_nothing(client, users, desk, who):
    if who == "player":
        client.force_login(users["player"])
    for url in (reverse("play:desk_list"), reverse("play:desk_challenges")):
        response = client.get(url)
        if who == "anonymous":
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        else:
            assert response.status_code == 403


def decide(client, game, decision, **extra):
    data = {"game": game.code, "against": "white", "ply": "1", "decision": decision, **extra}
    return client.post(reverse("play:desk_challenge_claim"), data, follow=True)


def test_it_lets_the_duty_td_uphold_a_claim_and_the_result_follows(client, users, challenge):
    game = challenge
    client.force_login(users["other_td"])
    response = decide(client, game, "upheld", reason="no evidence of a failure")
    assert f"Claim upheld in game #{game.code}: the result is 0-1." in response.content.decode()
    game.refresh_from_db()
    assert (game.status, game.result, game.termination) == ("finished", "0-1", "time")
    ruling = game.transmissions.get(direction="ruling")
    assert ruling.data["upheld"] is True and ruling.data["by"] == users["other_td"].pk
    assert ruling.text == "no evidence of a failure"
    assert f"claim-{game.code}-white-1" not in response.content.decode()
    # Decided: a second decision is refused with the reason, and nothing changes.
    again = decide(client, game, "dismissed")
    assert "The claim was already upheld; nothing changed." in again.content.decode()
    game.refresh_from_db()
    assert game.result == "0-1" and game.transmissions.filter(direction="ruling").count() == 1


def test_it_lets_the_duty_td_dismiss_with_no_further_claim_in_the_period(client, users, challenge):
    game = challenge
    client.force_login(users["other_td"])
    response = decide(client, game, "dismissed", no_further="on")
    assert f"Claim dismissed in game #{game.code}: play goes on." in response.content.decode()
    game.refresh_from_db()
    assert (game.status, game.result) == ("open", "*")
    value = state.load(game)
    assert value.claims[0].status == "dismissed"
    assert ("white", 0) in value.clock.closed  # no further claim against White in period 0
    assert game.transmissions.get(direction="ruling").data["no_further"] is True


@pytest.mark.parametrize("who", ["td", "player"])
def test_it_lets_only_the_duty_td_or_staff_decide_a_challenge_claim(client, users, challenge, who):
    game = challenge
    client.force_login(users[who])
    response = client.post(
        reverse("play:desk_challenge_claim"), {"game": game.code, "against": "white", "ply": "1", "decision": "upheld"}
    )
    assert response.status_code == 403
    game.refresh_from_db()
    assert game.result == "*" and not game.transmissions.filter(direction="ruling").exists()
    client.force_login(users["staff"])
    decide(client, game, "upheld")
    game.refresh_from_db()
    assert game.result == "0-1"


def test_it_lets_staff_rule_on_an_event_games_claim_from_its_desk(client, users, desk):
    event, game = desk
    url = reverse("play:desk_claim", args=[event.pk, game.code])
    data = {"against": "white", "ply": "1", "decision": "upheld", "text": "no evidence of a failure"}
    client.force_login(users["other_td"])
    assert client.post(url, data).status_code == 403
    client.force_login(users["staff"])
    assert (
        'name="decision" value="upheld"'
        in client.get(reverse("play:desk_file", args=[event.pk, game.code])).content.decode()
    )
    client.post(url, data)
    game.refresh_from_db()
    assert game.result == "0-1"
    assert event.decisions.get().by == users["staff"]  # an appealable decision, as the TD's would be


def test_it_sends_an_event_games_claim_to_its_desk(client, users, desk):
    event, game = desk
    client.force_login(users["staff"])
    response = decide(client, game, "upheld")
    assert response.redirect_chain[-1][0] == reverse("play:desk_file", args=[event.pk, game.code])
    game.refresh_from_db()
    assert game.result == "*"


def test_it_refuses_a_decision_on_no_such_claim_with_the_reason(client, users, challenge):
    game = challenge
    client.force_login(users["other_td"])
    response = decide(client, game, "upheld", ply="3")
    assert f"No such claim in game #{game.code}." in response.content.decode()
    response = client.post(reverse("play:desk_challenge_claim"), {"game": game.code}, follow=True)
    assert "the form was incomplete" in response.content.decode()
    assert MobileGame.objects.get(pk=game.pk).result == "*"


def test_it_needs_a_post_with_csrf_for_a_decision(users, challenge):
    from django.test import Client

    game = challenge
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["other_td"])
    assert client.get(reverse("play:desk_challenge_claim")).status_code == 405
    data = {"game": game.code, "against": "white", "ply": "1", "decision": "upheld"}
    assert client.post(reverse("play:desk_challenge_claim"), data).status_code == 403
    game.refresh_from_db()
    assert game.result == "*"
