"""The phone simulator (DEBUG only, staff only): two phones of a game's players sending through the
console channel, each showing what its player sent and received."""

import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from play import services
from play.models import MobileGame, Transmission
from tests.play.channels.simulator_urls import debug_on
from tests.players.factories import PlayerFactory

URL = "/play/simulator/"


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


@pytest.fixture
def debug_urls(settings):
    yield from debug_on(settings)


@pytest.fixture
def staff(client, db):
    user = get_user_model().objects.create_user("sim", "sim@example.org", "pw-pw-pw-pw", is_staff=True)
    client.force_login(user)
    return user


@pytest.fixture
def game(db):
    white, black = PlayerFactory(family_name="Белов"), PlayerFactory(family_name="Чернова")
    return services.game_create(white=white, black=black, start=timezone.now() - datetime.timedelta(minutes=5))


def send(client, game, color, text, **headers):
    return client.post(f"{URL}{game.code}/{color}/send/", {"text": text}, **headers)


@pytest.mark.django_db
class TestOnlyInDebug:
    def test_it_is_not_there_when_debug_is_off(self, client, staff, game, settings):
        assert settings.DEBUG is False
        assert client.get(URL).status_code == 404
        assert send(client, game, "white", "1. e4").status_code == 404
        assert MobileGame.objects.get().plies == 0

    def test_it_answers_404_when_debug_is_turned_off_after_start(self, client, staff, game, debug_urls, settings):
        settings.DEBUG = False
        assert client.get(URL).status_code == 404
        assert send(client, game, "white", "1. e4").status_code == 404
        assert not Transmission.objects.exists()

    def test_it_answers_a_visitor_404_too_when_debug_is_off(self, client, game, debug_urls, settings):
        settings.DEBUG = False
        assert client.get(URL).status_code == 404  # not a login page: nothing says it exists

    def test_it_sends_a_visitor_to_log_in(self, client, game, debug_urls):
        response = client.get(URL)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    def test_it_refuses_an_account_that_is_not_staff(self, client, game, debug_urls):
        user = get_user_model().objects.create_user("player", "p@example.org", "pw-pw-pw-pw")
        client.force_login(user)
        assert client.get(URL).status_code == 403
        assert send(client, game, "white", "1. e4").status_code == 403
        assert MobileGame.objects.get().plies == 0


@pytest.mark.django_db
class TestPhones:
    def test_it_lists_the_open_games(self, client, staff, game, debug_urls):
        finished = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=timezone.now())
        MobileGame.objects.filter(pk=finished.pk).update(status="finished")
        page = client.get(URL).content.decode()
        assert f'value="{game.code}"' in page and f'value="{finished.code}"' not in page
        assert 'id="phone-white"' not in page  # no game chosen yet

    def test_it_shows_two_phones_of_the_chosen_game(self, client, staff, game, debug_urls):
        page = client.get(URL, {"game": game.code}).content.decode()
        assert 'id="phone-white"' in page and 'id="phone-black"' in page
        assert "Белов" in page and "Чернова" in page
        assert f"{URL}{game.code}/white/send/" in page

    def test_it_sends_as_the_player_by_the_console_and_shows_each_side_its_messages(
        self, client, staff, game, debug_urls
    ):
        response = send(client, game, "white", "1. e4", HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        fragment = response.content.decode()
        assert 'id="phone-white-messages"' in fragment
        assert "1. e4" in fragment and f"#{game.code} Received 1. e4." in fragment
        game.refresh_from_db()
        assert (game.plies, game.white_channel) == (1, "console")
        inbound = Transmission.objects.get(direction="in")
        assert (inbound.channel, inbound.address, inbound.party) == ("console", str(game.white.federation_id), "white")
        black = client.get(f"{URL}{game.code}/black/").content.decode()
        assert f"#{game.code} Your opponent played 1. e4." in black
        assert "Received" not in black  # White's acknowledgement is White's alone
        # Cyrillic, from Black's phone: the knight as К.
        assert send(client, game, "black", "1. e4 Кf6", HTTP_HX_REQUEST="true").status_code == 200
        game.refresh_from_db()
        assert game.plies == 2
        white = client.get(f"{URL}{game.code}/white/").content.decode()
        assert white.index("Received 1. e4.") < white.index("Your opponent played 1... Nf6.")

    def test_it_redirects_back_to_the_game_without_htmx(self, client, staff, game, debug_urls):
        response = send(client, game, "white", "1. e4")
        assert response.status_code == 302 and response["Location"] == f"{URL}?game={game.code}"
        assert MobileGame.objects.get().plies == 1

    def test_it_sends_nothing_for_an_empty_message(self, client, staff, game, debug_urls):
        assert send(client, game, "white", "   ", HTTP_HX_REQUEST="true").status_code == 400
        assert not Transmission.objects.exists()

    def test_it_knows_only_white_and_black(self, client, staff, game, debug_urls):
        assert send(client, game, "td", "1. e4").status_code == 404
        assert client.get(f"{URL}{game.code}/grey/").status_code == 404
        assert client.get(f"{URL}NOSUCH/white/").status_code == 404
        assert not Transmission.objects.exists()


@pytest.mark.django_db
class TestPracticeGame:
    def test_it_creates_a_game_between_two_players(self, client, staff, debug_urls):
        white, black = PlayerFactory(), PlayerFactory()
        response = client.post(f"{URL}new/", {"white": white.federation_id, "black": black.federation_id})
        game = MobileGame.objects.get()
        assert response.status_code == 302 and response["Location"] == f"{URL}?game={game.code}"
        assert (game.white, game.black, game.status) == (white, black, "open")

    @pytest.mark.parametrize("unknown", ["white", "black"])
    def test_it_names_an_unknown_federation_id_and_creates_nothing(self, client, staff, debug_urls, unknown):
        fields = {"white": PlayerFactory().federation_id, "black": PlayerFactory().federation_id, unknown: 999999}
        response = client.post(f"{URL}new/", fields)
        assert response.status_code == 400
        assert "No player has the federation id 999999." in response.content.decode()
        assert not MobileGame.objects.exists()

    def test_it_refuses_a_player_against_himself(self, client, staff, debug_urls):
        player = PlayerFactory()
        response = client.post(f"{URL}new/", {"white": player.federation_id, "black": player.federation_id})
        assert response.status_code == 400
        assert "cannot play himself" in response.content.decode()
        assert not MobileGame.objects.exists()

    def test_it_offers_the_demo_accounts_players(self, client, staff, debug_urls):
        from play.demo import ACCOUNTS
        from players import services as player_services

        players = [PlayerFactory(), PlayerFactory()]
        for username, player in zip(ACCOUNTS, players, strict=True):
            user = get_user_model().objects.create_user(username, f"{username}@example.org", "pw-pw-pw-pw")
            link = player_services.link_request(user=user, relation="self", player=player)
            player_services.link_decide(link=link, admin=staff, confirm=True)
        page = client.get(URL).content.decode()
        assert f'name="white" value="{players[0].federation_id}"' in page
        assert f'name="black" value="{players[1].federation_id}"' in page
