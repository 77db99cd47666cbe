"""Each player chooses the language of his game messages on "My phones and chats": the federation's
(PLAY_MESSAGE_LANGUAGE, English on SMS), Russian or English. The choice holds on every channel:
the machine's messages, HELP, the Telegram link answers, PLAY COMPUTER answers and the SMS
verification code; Russian SMS are counted and cut as UCS-2 (70 characters, 67 in a part)."""

import datetime
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from play import services
from play.channels import linking
from play.channels import telegram as tg
from play.models import ChannelAddress, Transmission
from play.rules.segments import UCS2, encoding, segment_count
from players.models import Player, PlayerLink
from tests.base import PASSWORD
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.django_db

NOW = datetime.datetime(2026, 11, 24, 9, 0, tzinfo=datetime.UTC)
WHITE_NUMBER, BLACK_CHAT = "+79123456789", "555000111"


@pytest.fixture(autouse=True)
def _console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.TELEGRAM_BOT_USERNAME = ""


@pytest.fixture
def player_account(django_user_model):
    """An account linked to its player (Anna Petrova), as staff confirm it."""
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    user = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    player = PlayerFactory(family_name="Petrova", given_names="Anna")
    PlayerLink.objects.create(
        user=user, player=player, relation="self", status="confirmed", decided_by=admin, decided_at=NOW
    )
    return user, player


@pytest.fixture
def phone_game():
    """White plays by SMS, Black in Telegram (their verified addresses choose the game's channels)."""
    white, black = PlayerFactory(family_name="Belov"), PlayerFactory(family_name="Chernova")
    ChannelAddress.objects.create(player=white, channel="sms", address=WHITE_NUMBER, verified_at=NOW)
    ChannelAddress.objects.create(player=black, channel="telegram", address=BLACK_CHAT, verified_at=NOW)
    game = services.game_create(white=white, black=black, start=NOW, control="10800/30+1200/10", norm=300)
    assert (game.white_channel, game.black_channel) == ("sms", "telegram")
    return game


def choose(player, language):
    player.message_language = language
    player.save(update_fields=["message_language"])


def white_moves(game, text="1. e4", minutes=5):
    return services.message_receive(
        channel="sms",
        sender=WHITE_NUMBER,
        text=f"#{game.code} {text}",
        arrival=NOW + datetime.timedelta(minutes=minutes),
    )


def out(game, kind, channel):
    return list(
        game.transmissions.filter(direction="out", kind=kind, channel=channel)
        .order_by("pk")
        .values_list("text", flat=True)
    )


def test_it_sends_russian_game_messages_by_sms_and_telegram_to_players_who_chose_russian(phone_game):
    choose(phone_game.white, "ru")
    choose(phone_game.black, "ru")
    assert white_moves(phone_game).applied == "move"
    sms = out(phone_game, "acknowledgement", "sms")
    # Cyrillic: UCS-2 parts of one SMS each, numbered, nothing cut.
    assert len(sms) > 1 and all(encoding(part) == UCS2 and segment_count(part) == 1 for part in sms)
    assert sms[0].startswith(f"#{phone_game.code} (1/{len(sms)}) Получен ход 1. e4. Отпр. 24.11 09:05:00")
    whole = " ".join(part.split(") ", 1)[1] for part in sms)
    assert "Затр./ост.: Б 0:00:00/3:00:00, Ч 0:00:00/3:00:00." in whole
    [telegram] = out(phone_game, "move", "telegram")
    assert telegram.startswith(f"#{phone_game.code} Соперник сыграл 1. e4. Отправлен 24.11 09:05:00")


def test_it_answers_help_by_sms_in_russian_to_a_player_who_chose_it(phone_game):
    choose(phone_game.white, "ru")
    white_moves(phone_game, "HELP")
    assert " ".join(out(phone_game, "help", "sms")).count("Присылайте ход вместе с последним ходом соперника") == 1


def test_it_keeps_the_default_compact_english_sms_and_the_federations_language_elsewhere(phone_game, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    white_moves(phone_game)
    [sms] = out(phone_game, "acknowledgement", "sms")
    assert sms.startswith(f"#{phone_game.code} OK 1. e4 sent 24.11 09:05:00") and encoding(sms) == "GSM-7"
    [telegram] = out(phone_game, "move", "telegram")
    assert telegram.startswith(f"#{phone_game.code} Соперник сыграл 1. e4.")


def test_it_sends_english_to_a_player_who_chose_it_whatever_the_federations_language(phone_game, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    choose(phone_game.black, "en")
    white_moves(phone_game)
    [telegram] = out(phone_game, "move", "telegram")
    assert telegram.startswith(f"#{phone_game.code} Your opponent played 1. e4. Sent 24.11 09:05:00")


def test_it_sends_the_verification_sms_in_the_players_language(player_account, settings):
    settings.SITE_NAME = "Mchess"
    user, player = player_account
    linking.sms_code_request(user=user, player=player, number=WHITE_NUMBER, now=NOW)
    english = Transmission.objects.filter(kind="verification").latest("pk").text
    assert english.startswith("Mchess: your code is ") and english.endswith(
        "It confirms this number for Petrova, Anna and is valid for 10 minutes."
    )
    assert encoding(english) == "GSM-7"
    choose(player, "ru")
    linking.sms_code_request(user=user, player=player, number="+79130001122", now=NOW)
    russian = Transmission.objects.filter(kind="verification").latest("pk").text
    assert russian.startswith("Mchess: ваш код ") and russian.endswith(
        "Он подтверждает этот номер для игрока Petrova, Anna и действует 10 минут."
    )


def test_it_answers_a_linked_chat_in_its_players_language(player_account, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "en"
    user, player = player_account
    choose(player, "ru")
    made = linking.telegram_code_create(user=user, player=player, now=NOW)
    body = {
        "update_id": 1,
        "message": {
            "message_id": 101, "date": int(NOW.timestamp()), "chat": {"id": int(BLACK_CHAT), "type": "private"},
            "from": {"id": int(BLACK_CHAT), "is_bot": False, "first_name": "Anna"}, "text": f"/start {made.code}",
        },
    }  # fmt: skip
    assert tg.update_receive(body, now=NOW + datetime.timedelta(minutes=1)) == "linked"
    reply = Transmission.objects.filter(direction="out", kind="link").latest("pk").text
    assert reply.startswith("Чат привязан к игроку Petrova, Anna.")


def test_it_answers_play_computer_in_the_players_language(settings):
    settings.PLAY_MESSAGE_LANGUAGE = "en"
    person = PlayerFactory()
    choose(person, "ru")
    refused = services.message_receive(
        channel="console", sender=str(person.federation_id), text="PLAY COMPUTER 9", arrival=timezone.now()
    )
    assert refused.replies[0].text.startswith("Компьютерного уровня 9 нет")


# --- the choice on "My phones and chats" --------------------------------------------------------------


def test_it_lets_the_player_choose_russian_on_the_page_and_tells_the_cost_of_cyrillic_sms(client, player_account):
    user, player = player_account
    client.force_login(user)
    page = client.get(reverse("play:channels")).content.decode()
    assert f'action="{reverse("play:channels_language", args=[player.pk])}"' in page
    assert re.search(r'<input type="radio" name="language" value="default"[^>]* checked>', page)
    assert "holds 70 characters instead of 160" in page and "about 2.3 times as many SMS" in page
    response = client.post(reverse("play:channels_language", args=[player.pk]), {"language": "ru"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.message_language == Player.MessageLanguage.RUSSIAN
    assert "will be in: Russian" in client.get(reverse("play:channels")).content.decode()


def test_it_refuses_the_choice_for_another_accounts_player_and_an_unknown_language(
    client, player_account, django_user_model
):
    user, player = player_account
    stranger = django_user_model.objects.create_user("boris", "boris@example.org", PASSWORD)
    client.force_login(stranger)
    assert client.post(reverse("play:channels_language", args=[player.pk]), {"language": "ru"}).status_code == 403
    client.force_login(user)
    client.post(reverse("play:channels_language", args=[player.pk]), {"language": "de"})
    player.refresh_from_db()
    assert player.message_language == Player.MessageLanguage.DEFAULT
    with pytest.raises(linking.LinkError):
        linking.message_language_set(user=user, player=player, language="de")
