"""Registration and change of number (rule 5c): an SMS number verified by a one-time code sent
through the outbox (the console SMS channel here), a Telegram chat linked by `/start CODE` through
play.channels.telegram.update_receive, removal, and the notices a change gives the TD and the opponents.
Every time is explicit: codes expire after 10 minutes, die after 5 wrong tries, and at most 3 go to
one number in an hour."""

import datetime
import io
import re

import pytest
from django.urls import reverse

from play import services
from play.channels import identities, linking, outbox
from play.channels import telegram as tg
from play.models import ChannelAddress, MobileEvent, MobileGame, Transmission, VerificationCode
from players.models import PlayerLink
from tests.base import PASSWORD
from tests.players.factories import PlayerFactory

NOW = datetime.datetime(2026, 11, 24, 0, 30, tzinfo=datetime.UTC)
MINUTE = datetime.timedelta(minutes=1)
NUMBER, NEW_NUMBER = "+79123456789", "+79130001122"
CHAT, OTHER_CHAT = 555000111, 555000222


def link(user, player, admin):
    return PlayerLink.objects.create(
        user=user, player=player, relation="self", status="confirmed", decided_by=admin, decided_at=NOW
    )


@pytest.fixture(autouse=True)
def _console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    settings.TELEGRAM_BOT_USERNAME = ""


@pytest.fixture
def cast(db, django_user_model):
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    anna = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    boris = django_user_model.objects.create_user("boris", "boris@example.org", PASSWORD)
    td = django_user_model.objects.create_user("td", "td@example.org", PASSWORD)
    a = PlayerFactory(family_name="Petrova", given_names="Anna")
    b = PlayerFactory(family_name="Ivanov", given_names="Boris")
    link(anna, a, admin)
    link(boris, b, admin)
    return {"admin": admin, "anna": anna, "boris": boris, "td": td, "a": a, "b": b}


def sms_rows(number=NUMBER):
    return Transmission.objects.filter(direction="out", channel="sms", kind="verification", address=number)


def code_in(row) -> str:
    return re.search(r"\b(\d{6})\b", row.text).group(1)


def request_code(cast, number=NUMBER, at=NOW, who="a"):
    user = cast["anna"] if who == "a" else cast["boris"]
    linking.sms_code_request(user=user, player=cast[who], number=number, now=at)
    return code_in(sms_rows(linking.number_normalise(number)).latest("pk"))


def confirm(cast, code, at, who="a"):
    user = cast["anna"] if who == "a" else cast["boris"]
    return linking.sms_code_confirm(user=user, player=cast[who], code=code, now=at)


def update(text, chat=CHAT, update_id=1, at=NOW):
    return {
        "update_id": update_id,
        "message": {
            "message_id": update_id + 100,
            "date": int(at.timestamp()),
            "chat": {"id": chat, "type": "private", "first_name": "Player"},
            "from": {"id": chat, "is_bot": False, "first_name": "Player"},
            "text": text,
        },
    }


def last_reply(chat=CHAT) -> Transmission:
    return Transmission.objects.filter(direction="out", channel="telegram", address=str(chat)).latest("pk")


# --- SMS ---------------------------------------------------------------------------------------


class TestSmsCode:
    def test_it_sends_a_code_through_the_outbox_and_verifies_the_number_typed_back(self, cast, settings):
        linking.sms_code_request(user=cast["anna"], player=cast["a"], number="+7 (912) 345-67-89", now=NOW)
        row = sms_rows().get()
        assert (row.game, row.player, row.party, row.delivery) == (None, cast["a"], "", "pending")
        assert row.at == NOW and row.text.startswith("Chess Federation Ratings: your code is ")
        assert row.text.endswith(" It confirms this number for Petrova, Anna and is valid for 10 minutes.")
        code = code_in(row)
        # The console SMS channel delivers it, and the code is what the phone shows.
        assert outbox.outbound_deliver(row.pk)
        assert f"[sms ->  {NUMBER}]" in settings.PLAY_CONSOLE_STREAM.getvalue()
        assert code in settings.PLAY_CONSOLE_STREAM.getvalue()
        # Only a keyed hash is stored.
        stored = VerificationCode.objects.get()
        assert code not in stored.code_hash and len(stored.code_hash) == 64
        assert not ChannelAddress.objects.exists()

        address = confirm(cast, f" {code[:3]} {code[3:]} ", NOW + 9 * MINUTE)
        assert (address.player, address.channel, address.address) == (cast["a"], "sms", NUMBER)
        assert address.verified_at == NOW + 9 * MINUTE
        assert identities.player_for("sms", NUMBER) == cast["a"]

    def test_it_lets_the_verified_number_play(self, cast):
        confirm(cast, request_code(cast), NOW + MINUTE)
        game = services.game_create(white=cast["a"], black=cast["b"], start=NOW)
        receipt = services.message_receive(channel="sms", sender=NUMBER, text="1. e4", arrival=NOW + 5 * MINUTE)
        assert (receipt.applied, receipt.game) == ("move", game)

    @pytest.mark.parametrize(
        ("typed", "stored"),
        [
            ("+7 912 345-67-89", "+79123456789"),
            ("0044 20 7946 0958", "+442079460958"),
            ("+1 (212) 555-0123", "+12125550123"),
            ("+49.30.1234567", "+49301234567"),
        ],
    )
    def test_it_writes_numbers_in_e164(self, typed, stored):
        assert linking.number_normalise(typed) == stored

    @pytest.mark.parametrize(
        ("typed", "says"),
        [
            ("", "Enter a phone number"),
            ("8 912 345 67 89", "international form"),
            ("+7 912 ABC 67 89", "only digits"),
            ("+７９１２３４５６７８９", "only digits"),  # full-width digits are not ASCII digits
            ("+1234567", "8 to 15 digits"),
            ("+1234567890123456", "8 to 15 digits"),
            ("+0123456789", "country code"),
        ],
    )
    def test_it_refuses_a_bad_number_with_a_clear_message_and_stores_nothing(self, cast, typed, says):
        with pytest.raises(linking.LinkError, match=says):
            linking.sms_code_request(user=cast["anna"], player=cast["a"], number=typed, now=NOW)
        assert not VerificationCode.objects.exists()
        assert not Transmission.objects.exists()

    def test_it_counts_wrong_codes_and_kills_the_code_at_the_fifth(self, cast):
        code = request_code(cast)
        wrong = "000000" if code != "000000" else "111111"
        for left in (4, 3, 2, 1):
            with pytest.raises(linking.LinkError, match=f"Wrong code: {left} more tr"):
                confirm(cast, wrong, NOW + MINUTE)
        with pytest.raises(linking.LinkError, match="that was the 5th"):
            confirm(cast, wrong, NOW + MINUTE)
        assert VerificationCode.objects.get().wrong_tries == 5
        with pytest.raises(linking.LinkError, match="5 wrong codes were typed"):
            confirm(cast, code, NOW + MINUTE)
        assert not ChannelAddress.objects.exists()

    def test_it_does_not_count_a_malformed_code_as_a_try(self, cast):
        request_code(cast)
        for typed in ("12345", "abcdef", "1234567", ""):
            with pytest.raises(linking.LinkError, match="6 digits"):
                confirm(cast, typed, NOW + MINUTE)
        assert VerificationCode.objects.get().wrong_tries == 0

    def test_it_accepts_a_code_until_ten_minutes_and_refuses_it_after(self, cast):
        code = request_code(cast)
        with pytest.raises(linking.LinkError, match="expired"):
            confirm(cast, code, NOW + 10 * MINUTE)
        assert not ChannelAddress.objects.exists()
        code = request_code(cast, at=NOW + 11 * MINUTE)
        assert confirm(cast, code, NOW + 21 * MINUTE - datetime.timedelta(seconds=1)).address == NUMBER

    def test_it_uses_a_code_once_and_only_the_latest(self, cast):
        first = request_code(cast)
        second = request_code(cast, at=NOW + MINUTE)
        if first != second:
            with pytest.raises(linking.LinkError, match="Wrong code"):
                confirm(cast, first, NOW + 2 * MINUTE)
        confirm(cast, second, NOW + 2 * MINUTE)
        with pytest.raises(linking.LinkError, match="No code is waiting"):
            confirm(cast, second, NOW + 3 * MINUTE)

    def test_it_sends_at_most_three_codes_to_a_number_in_an_hour(self, cast):
        for minutes in (0, 10, 20):
            request_code(cast, at=NOW + minutes * MINUTE)
        # The fourth, from another player too: the limit is the number's (an SMS bill, a nuisance).
        with pytest.raises(linking.LinkError, match=r"3 codes were made for \+79123456789 .* after 01:30 UTC"):
            request_code(cast, at=NOW + 30 * MINUTE, who="b")
        assert sms_rows().count() == 3 and VerificationCode.objects.count() == 3
        # An hour after the first, one more may go.
        request_code(cast, at=NOW + 60 * MINUTE + datetime.timedelta(seconds=1))
        assert sms_rows().count() == 4

    def test_it_answers_a_request_for_another_players_number_as_for_any_number(self, cast):
        confirm(cast, request_code(cast, who="b"), NOW + MINUTE, who="b")
        # Anna is not told whose number it is: the code goes to Boris's number as to a free one...
        request_code(cast, number=NEW_NUMBER, at=NOW + 2 * MINUTE)
        code = request_code(cast, at=NOW + 3 * MINUTE)
        free, taken = sms_rows(NEW_NUMBER).get(), sms_rows().latest("pk")
        assert [(row.player, row.delivery, row.text.replace(code_in(row), "CODE")) for row in (free, taken)] == [
            (cast["a"], "pending", free.text.replace(code_in(free), "CODE"))
        ] * 2
        # ...and only its holder, typing the code back, learns that the number is taken.
        with pytest.raises(linking.LinkError, match="already verified for another player"):
            confirm(cast, code, NOW + 4 * MINUTE)
        assert ChannelAddress.objects.get(address=NUMBER).player == cast["b"]

    def test_it_caps_the_codes_an_account_asks_for_in_a_day_over_all_numbers(self, cast, settings):
        settings.PLAY_NUMBERS_PER_DAY = 10  # the account's cap alone
        numbers = [f"+7913000000{i}" for i in range(6)]
        for hour, number in enumerate(numbers[:5]):
            request_code(cast, number=number, at=NOW + hour * 60 * MINUTE)
        with pytest.raises(linking.LinkError) as refused:
            request_code(cast, number=numbers[5], at=NOW + 5 * 60 * MINUTE)
        assert str(refused.value) == (
            "Your account has asked for as many codes as a day allows (5): ask again after 25.11 00:30 UTC."
        )
        assert not sms_rows(numbers[5]).exists() and VerificationCode.objects.count() == 5
        # A day after the first, one more may go.
        request_code(cast, number=numbers[5], at=NOW + 24 * 60 * MINUTE + datetime.timedelta(seconds=1))
        assert sms_rows(numbers[5]).count() == 1

    def test_it_sends_one_players_codes_to_at_most_three_numbers_in_a_day(self, cast):
        numbers = ["+79130000001", "+79130000002", "+79130000003", "+79130000004"]
        for minutes, number in enumerate(numbers[:3]):
            request_code(cast, number=number, at=NOW + minutes * MINUTE)
        with pytest.raises(linking.LinkError) as refused:
            request_code(cast, number=numbers[3], at=NOW + 10 * MINUTE)
        assert str(refused.value) == (
            "Codes for Petrova, Anna went to as many different numbers as a day allows (3): ask again after "
            "25.11 00:30 UTC, or use one of those numbers."
        )
        assert not sms_rows(numbers[3]).exists()
        request_code(cast, number=numbers[1], at=NOW + 11 * MINUTE)  # one of those numbers again
        assert sms_rows(numbers[1]).count() == 2

    def test_it_caps_the_codes_a_player_gets_in_a_day_whichever_accounts_ask(self, cast, django_user_model):
        # Olga's account plays as Anna too (a parent's, say): the player's cap counts both accounts' codes.
        olga = django_user_model.objects.create_user("olga", "olga@example.org", PASSWORD)
        PlayerLink.objects.create(
            user=olga, player=cast["a"], relation="parent", status="confirmed", decided_by=cast["admin"], decided_at=NOW
        )
        for hour in range(5):
            user = cast["anna"] if hour < 3 else olga
            linking.sms_code_request(user=user, player=cast["a"], number=NUMBER, now=NOW + hour * 60 * MINUTE)
        with pytest.raises(linking.LinkError) as refused:
            linking.sms_code_request(user=olga, player=cast["a"], number=NUMBER, now=NOW + 5 * 60 * MINUTE)
        assert str(refused.value) == (
            "As many codes as a day allows (5) were made for Petrova, Anna: ask again after 25.11 00:30 UTC."
        )

    def test_it_refuses_to_verify_a_number_taken_meanwhile(self, cast):
        code = request_code(cast)
        confirm(cast, request_code(cast, at=NOW + MINUTE, who="b"), NOW + 2 * MINUTE, who="b")
        with pytest.raises(linking.LinkError, match="already verified for another player"):
            confirm(cast, code, NOW + 3 * MINUTE)
        assert ChannelAddress.objects.get().player == cast["b"]
        assert VerificationCode.objects.filter(player=cast["a"]).get().used_at is None

    def test_it_refuses_the_players_own_number_again(self, cast):
        confirm(cast, request_code(cast), NOW + MINUTE)
        with pytest.raises(linking.LinkError, match="already the verified number of"):
            request_code(cast, at=NOW + 2 * MINUTE)

    def test_it_lets_no_other_account_ask_or_confirm_for_a_player(self, cast):
        with pytest.raises(linking.LinkError, match="does not play as"):
            linking.sms_code_request(user=cast["boris"], player=cast["a"], number=NUMBER, now=NOW)
        code = request_code(cast)
        with pytest.raises(linking.LinkError, match="does not play as"):
            linking.sms_code_confirm(user=cast["boris"], player=cast["a"], code=code, now=NOW + MINUTE)
        assert not ChannelAddress.objects.exists()


# --- Telegram ----------------------------------------------------------------------------------


class TestTelegram:
    def test_it_links_the_chat_that_sends_start_with_the_code(self, cast):
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        assert re.fullmatch(r"[A-Z2-9]{8}", made.code)
        assert tg.update_receive(update(f"/start {made.code.lower()}", at=NOW), now=NOW + MINUTE) == "linked"
        address = ChannelAddress.objects.get()
        assert (address.player, address.channel, address.address) == (cast["a"], "telegram", str(CHAT))
        assert address.verified_at == NOW + MINUTE
        reply = last_reply()
        assert reply.text.startswith(f"Linked to {cast['a'].full_name}. Send moves as")
        assert (reply.player, reply.kind, reply.game, reply.delivery) == (cast["a"], "link", None, "pending")
        inbound = Transmission.objects.get(direction="in")
        assert (inbound.external_id, inbound.player, inbound.sent) == ("tg:1", cast["a"], NOW)
        # The chat now plays.
        game = services.game_create(white=cast["a"], black=cast["b"], start=NOW)
        assert tg.update_receive(update("1. e4", update_id=2, at=NOW + 2 * MINUTE), now=NOW + 2 * MINUTE) == "move"
        assert MobileGame.objects.get(pk=game.pk).plies == 1

    def test_it_uses_a_code_once_and_applies_a_repeated_update_once(self, cast):
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        body = update(f"/start {made.code}", update_id=7)
        assert tg.update_receive(body, now=NOW + MINUTE) == "linked"
        assert tg.update_receive(body, now=NOW + MINUTE) == "duplicate"
        assert tg.update_receive(update(f"/start {made.code}", OTHER_CHAT, 8), now=NOW + MINUTE) == "unknown code"
        assert "unknown or already used" in last_reply(OTHER_CHAT).text

    def test_it_answers_a_chat_in_the_federations_message_language(self, cast, settings):
        settings.PLAY_MESSAGE_LANGUAGE = "ru"
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        assert tg.update_receive(update(f"/start {made.code}", update_id=9), now=NOW + MINUTE) == "linked"
        reply = last_reply(CHAT).text
        assert reply.startswith(f"Чат привязан к игроку {cast['a'].full_name}. Присылайте ходы, как в SMS")
        assert ChannelAddress.objects.get().address == str(CHAT)

    def test_it_refuses_an_expired_code(self, cast):
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        assert tg.update_receive(update(f"/start {made.code}"), now=NOW + 10 * MINUTE) == "expired code"
        assert "expired" in last_reply().text
        assert not ChannelAddress.objects.exists()

    def test_it_explains_start_without_a_code(self, cast, settings):
        settings.SITE_URL = "https://chess.example.org"
        assert tg.update_receive(update("/start"), now=NOW) == "start"
        assert last_reply().text == (
            "To link this chat to your player, open https://chess.example.org/play/channels/, choose Telegram "
            "and send the code: /start CODE."
        )
        assert last_reply().player is None
        assert not Transmission.objects.filter(direction="in").exists()  # a stranger's message is not kept
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        tg.update_receive(update(f"/start@FedChessBot {made.code}", update_id=2), now=NOW)
        assert tg.update_receive(update("/start", update_id=3), now=NOW) == "start"
        assert last_reply().text.startswith(f"This chat is linked to {cast['a'].full_name}.")

    def test_it_refuses_a_chat_linked_to_another_player(self, cast):
        ChannelAddress.objects.create(player=cast["b"], channel="telegram", address=str(CHAT), verified_at=NOW)
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        assert tg.update_receive(update(f"/start {made.code}"), now=NOW) == "refused"
        assert "already verified for another player" in last_reply().text
        assert ChannelAddress.objects.get().player == cast["b"]
        assert VerificationCode.objects.get().used_at is None

    def test_it_makes_at_most_three_codes_for_a_player_in_an_hour(self, cast):
        for minutes in (0, 1, 2):
            linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW + minutes * MINUTE)
        with pytest.raises(linking.LinkError, match="3 codes were made for this player"):
            linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW + 3 * MINUTE)

    def test_it_caps_the_telegram_codes_an_account_makes_in_a_day(self, cast):
        for hour in range(5):
            linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW + hour * 60 * MINUTE)
        with pytest.raises(linking.LinkError) as refused:
            linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW + 5 * 60 * MINUTE)
        assert str(refused.value) == (
            "Your account has asked for as many codes as a day allows (5): ask again after 25.11 00:30 UTC."
        )
        assert VerificationCode.objects.count() == 5

    def test_it_leaves_other_messages_to_the_game_service(self, cast):
        assert not linking.is_start("1. e4") and not linking.is_start("/startle") and not linking.is_start("HELP")
        assert linking.is_start("/start") and linking.is_start("/START ABC") and linking.is_start("/start@Bot ABC")
        assert tg.update_receive(update("1. e4"), now=NOW) == "unknown sender"


# --- rule 5c: a change is told to the TD and the opponents ----------------------------------------


@pytest.fixture
def games(cast):
    """Anna plays Boris twice in Rostov's event (TD `td`) and once in a finished game."""
    event = MobileEvent.objects.create(code="rostov", name="Rostov", td=cast["td"], start=NOW)
    open_game = services.game_create(white=cast["a"], black=cast["b"], start=NOW, event=event)
    second = services.game_create(white=cast["b"], black=cast["a"], start=NOW, event=event)
    done = services.game_create(white=cast["a"], black=cast["b"], start=NOW)
    services.message_receive(channel="web", sender=str(cast["a"].federation_id), text="RESIGN",
                             arrival=NOW + MINUTE, game_code=done.code)  # fmt: skip
    assert MobileGame.objects.get(pk=done.pk).status == "finished"
    # Boris plays by SMS.
    ChannelAddress.objects.create(player=cast["b"], channel="sms", address=NEW_NUMBER[:-2] + "99", verified_at=NOW)
    MobileGame.objects.filter(pk=open_game.pk).update(black_channel="sms")
    return {"open": open_game, "second": second, "done": done}


def notices():
    return Transmission.objects.filter(kind="address change").order_by("pk")


class TestChangeOfNumber:
    def test_it_tells_nobody_of_a_first_registration(self, cast, games):
        confirm(cast, request_code(cast), NOW + MINUTE)
        assert not notices().exists()

    def test_it_tells_the_td_and_the_opponent_in_each_open_game_of_a_new_number(self, cast, games):
        confirm(cast, request_code(cast), NOW + MINUTE)
        changed = NOW + 20 * MINUTE
        confirm(cast, request_code(cast, NEW_NUMBER, at=NOW + 15 * MINUTE), changed)
        assert ChannelAddress.objects.get(player=cast["a"]).address == NEW_NUMBER
        rows = list(notices())
        assert len(rows) == 4  # two open games, each: the opponent and the TD; not the finished game
        boris = [r for r in rows if r.party != "td"]
        td = [r for r in rows if r.party == "td"]
        assert {r.game for r in rows} == {games["open"], games["second"]}
        # Boris is told where he plays: by SMS in the first game, on the page in the second.
        by_game = {r.game: r for r in boris}
        first, second = by_game[games["open"]], by_game[games["second"]]
        assert (first.channel, first.address, first.party, first.player) == ("sms", "+79130001199", "black", cast["b"])
        assert (second.channel, second.address, second.party) == ("web", str(cast["b"].federation_id), "white")
        told = f"{cast['a'].full_name} has a new SMS number, verified 24.11 00:50 UTC."
        assert first.text == f"#{games['open'].code} {told}"
        assert NEW_NUMBER not in first.text and NUMBER not in first.text
        for row in td:
            assert (row.channel, row.address, row.player, row.delivery) == ("web", "td", None, "sent")
            assert row.text == (
                f"#{row.game.code} Rule 5c: {cast['a'].full_name} changed the SMS number from {NUMBER} to "
                f"{NEW_NUMBER}, verified 24.11 00:50:00 UTC."
            )
            assert row.data == {"player": cast["a"].federation_id, "channel": "sms", "old": NUMBER, "new": NEW_NUMBER}
        # The record of the game, which the TD reads, holds them.
        from play.selectors import continuous_record

        assert {r.kind for r in continuous_record(games["open"])} >= {"address change"}

    def test_it_tells_them_when_a_telegram_chat_is_replaced(self, cast, games):
        ChannelAddress.objects.create(player=cast["a"], channel="telegram", address=str(CHAT), verified_at=NOW)
        made = linking.telegram_code_create(user=cast["anna"], player=cast["a"], now=NOW)
        assert tg.update_receive(update(f"/start {made.code}", OTHER_CHAT), now=NOW + MINUTE) == "linked"
        td = notices().filter(party="td")
        assert td.count() == 2
        assert f"changed the Telegram chat from {CHAT} to {OTHER_CHAT}" in td.first().text

    def test_it_tells_them_of_a_removal_and_sends_the_players_messages_to_the_page(self, cast, games):
        confirm(cast, request_code(cast), NOW + MINUTE)
        MobileGame.objects.filter(pk=games["open"].pk).update(white_channel="sms")
        linking.address_remove(user=cast["anna"], player=cast["a"], channel="sms", now=NOW + 5 * MINUTE)
        assert not ChannelAddress.objects.filter(player=cast["a"]).exists()
        assert MobileGame.objects.get(pk=games["open"].pk).white_channel == "web"
        rows = list(notices())
        assert len(rows) == 4
        assert f"Rule 5c: {cast['a'].full_name} removed the SMS number {NUMBER}." in rows[1].text
        assert "removed the SMS number; messages to" in rows[0].text
        with pytest.raises(linking.LinkError, match="has no SMS number to remove"):
            linking.address_remove(user=cast["anna"], player=cast["a"], channel="sms", now=NOW + 6 * MINUTE)

    def test_it_lets_no_other_account_remove_a_number(self, cast, games):
        confirm(cast, request_code(cast), NOW + MINUTE)
        with pytest.raises(linking.LinkError, match="does not play as"):
            linking.address_remove(user=cast["boris"], player=cast["a"], channel="sms", now=NOW)
        assert ChannelAddress.objects.filter(player=cast["a"]).exists()
        assert not notices().exists()


# --- the page ---------------------------------------------------------------------------------


def page_url(name="play:channels", *args):
    return reverse(name, args=args)


class TestPage:
    def test_it_asks_the_anonymous_to_log_in(self, client, cast):
        response = client.get(page_url())
        assert response.status_code == 302 and "/login/" in response["Location"]
        response = client.post(page_url("play:channels_sms", cast["a"].pk), {"number": NUMBER})
        assert response.status_code == 302 and "/login/" in response["Location"]
        assert not VerificationCode.objects.exists()

    def test_it_refuses_another_accounts_player(self, client, cast):
        client.force_login(cast["boris"])
        assert cast["a"].full_name not in client.get(page_url()).content.decode()
        for name, data in (
            ("play:channels_sms", {"number": NUMBER}),
            ("play:channels_sms_confirm", {"code": "123456"}),
            ("play:channels_telegram", {}),
        ):
            assert client.post(page_url(name, cast["a"].pk), data).status_code == 403
        ChannelAddress.objects.create(player=cast["a"], channel="sms", address=NUMBER, verified_at=NOW)
        assert client.post(page_url("play:channels_remove", cast["a"].pk, "sms")).status_code == 403
        assert ChannelAddress.objects.exists()
        assert not VerificationCode.objects.exists() and not Transmission.objects.exists()

    def test_it_says_so_when_the_account_plays_as_nobody(self, client, cast, django_user_model):
        client.force_login(django_user_model.objects.create_user("nobody", "n@example.org", PASSWORD))
        assert "plays as no player yet" in client.get(page_url()).content.decode()

    def test_it_registers_a_number_from_the_page(self, client, cast):
        client.force_login(cast["anna"])
        page = client.get(page_url()).content.decode()
        assert cast["a"].full_name in page and "No number registered." in page
        response = client.post(page_url("play:channels_sms", cast["a"].pk), {"number": "+7 912 345 67 89"})
        assert response.status_code == 302 and response["Location"].endswith(f"#player-{cast['a'].pk}")
        page = client.get(page_url()).content.decode()
        assert f"A code was sent by SMS to {NUMBER}" in page
        assert f"A code was sent to {NUMBER}" in page and "5 tries left" in page
        response = client.post(page_url("play:channels_sms_confirm", cast["a"].pk), {"code": "000000"})
        if code_in(sms_rows().get()) != "000000":
            assert response.status_code == 400 and "Wrong code: 4 more tries" in response.content.decode()
        response = client.post(page_url("play:channels_sms_confirm", cast["a"].pk), {"code": code_in(sms_rows().get())})
        assert response.status_code == 302
        page = client.get(page_url()).content.decode()
        assert "Verified number" in page and NUMBER in page and "Remove this number" in page
        assert client.post(page_url("play:channels_remove", cast["a"].pk, "sms")).status_code == 302
        assert not ChannelAddress.objects.exists()

    def test_it_shows_a_bad_number_refused_beside_the_form(self, client, cast):
        client.force_login(cast["anna"])
        response = client.post(page_url("play:channels_sms", cast["a"].pk), {"number": "8 912 345 67 89"})
        assert response.status_code == 400
        assert "international form" in response.content.decode()
        assert 'value="8 912 345 67 89"' in response.content.decode()
        assert not Transmission.objects.exists()

    def test_it_shows_the_daily_cap_in_russian_beside_the_form(self, client, cast, settings):
        settings.PLAY_CODES_PER_DAY = 1
        client.force_login(cast["anna"])
        url = page_url("play:channels_sms", cast["a"].pk)
        assert client.post(url, {"number": NUMBER}, HTTP_ACCEPT_LANGUAGE="ru").status_code == 302
        response = client.post(url, {"number": NEW_NUMBER}, HTTP_ACCEPT_LANGUAGE="ru")
        assert response.status_code == 400
        assert (
            "Ваша учётная запись уже запросила столько кодов, сколько можно за сутки (1)" in response.content.decode()
        )
        assert not sms_rows(NEW_NUMBER).exists()

    def test_it_shows_the_telegram_code_with_the_bots_deep_link(self, client, cast, settings):
        client.force_login(cast["anna"])
        assert client.post(page_url("play:channels_telegram", cast["a"].pk)).status_code == 302
        page = client.get(page_url()).content.decode()
        code = re.search(r'class="one-time-code">([A-Z2-9]{8})<', page).group(1)
        assert f"Send /start {code} to the federation" in page
        settings.TELEGRAM_BOT_USERNAME = "FedChessBot"
        page = client.get(page_url()).content.decode()
        assert f'href="https://t.me/FedChessBot?start={code}"' in page
        # Once used, the code is no longer shown.
        tg.update_receive(update(f"/start {code}"), now=VerificationCode.objects.get().created_at + MINUTE)
        page = client.get(page_url()).content.decode()
        assert code not in page and "Linked chat" in page and str(CHAT) in page

    def test_it_is_linked_from_my_games_and_the_menu(self, client, cast):
        client.force_login(cast["anna"])
        page = client.get(reverse("play:mine")).content.decode()
        assert 'id="channels-link"' in page and 'id="nav-channels"' in page


def test_it_reads_the_page_in_three_queries_however_many_players(cast, django_assert_num_queries):
    from play.channels.linking_selectors import player_channels

    c = PlayerFactory()
    PlayerLink.objects.create(user=cast["anna"], player=c, relation="parent", status="confirmed",
                              decided_by=cast["admin"], decided_at=NOW)  # fmt: skip
    request_code(cast)
    ChannelAddress.objects.create(player=c, channel="telegram", address=str(CHAT), verified_at=NOW)
    with django_assert_num_queries(3):  # the players, their addresses, their live SMS codes
        rows = player_channels(cast["anna"], NOW + MINUTE)
    by_player = {row.player: row for row in rows}
    assert by_player[cast["a"]].pending is not None and by_player[cast["a"]].pending_tries_left == 5
    assert by_player[c].telegram.address == str(CHAT) and by_player[c].pending is None
    assert player_channels(cast["anna"], NOW + 10 * MINUTE)[0].pending is None  # expired


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"TELEGRAM_BOT_USERNAME": "t.me/bot"}, "is not a Telegram username"),
        ({"PLAY_DIGEST_HOUR": "24"}, "PLAY_DIGEST_HOUR=24 must be an hour"),
        ({"PLAY_DIGEST_HOUR": "-1"}, "PLAY_DIGEST_HOUR"),
        ({"PLAY_CODES_PER_DAY": "0"}, "PLAY_CODES_PER_DAY=0 is below the minimum of 1"),
        ({"PLAY_NUMBERS_PER_DAY": "three"}, "PLAY_NUMBERS_PER_DAY='three' is not a whole number"),
    ],
)
def test_it_refuses_linking_and_digest_settings_configured_wrong(env, message):
    from tests.federation.test_settings import run_manage

    result = run_manage("check", **env)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_accepts_a_bot_username_with_or_without_the_at():
    from tests.federation.test_settings import run_manage

    for name in ("FedChessBot", "@fed_chess_bot"):
        result = run_manage("check", TELEGRAM_BOT_USERNAME=name, PLAY_DIGEST_HOUR="0")
        assert result.returncode == 0, result.stderr
