"""The Telegram bot's buttons, board picture and management command, over real HTTP: outbound rows go
through python-telegram-bot to the fake Bot API (tests/fakes/telegram_api.py); button presses are
posted as callback_query Updates through the webhook, handled by the Celery task (run eagerly)."""

import datetime
import io
import itertools
import json

import chess
import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from PIL import Image

from play import services
from play.channels import board_png, outbox
from play.channels.telegram import TelegramBot
from play.models import MobileGame, Transmission
from tests.play.channels import telegram_setup
from tests.play.channels.telegram_setup import BLACK_CHAT, SECRET, URL, WHITE_CHAT
from tests.players.factories import PlayerFactory

HOOK = "https://chess.example.org/play/hooks/telegram/"

_update_ids = itertools.count(1000)


@pytest.fixture(autouse=True)
def _telegram_settings(settings):
    yield from telegram_setup.bot_settings(settings)


@pytest.fixture
def api(settings):
    yield from telegram_setup.fake_api(settings)


@pytest.fixture
def game(db):
    return telegram_setup.telegram_game()


def text_update(text: str, chat: int = WHITE_CHAT) -> dict:
    update_id = next(_update_ids)
    at = timezone.now() - datetime.timedelta(seconds=20)
    message = {
        "message_id": update_id,
        "date": int(at.timestamp()),
        "chat": {"id": chat, "type": "private", "first_name": "Player"},
        "from": {"id": chat, "is_bot": False, "first_name": "Player"},
        "text": text,
    }
    return {"update_id": update_id, "message": message}


def press_update(data: str, chat: int, *, message: dict | None = None, query_id: str | None = None) -> dict:
    """A callback_query Update: the press of the button with `data` under `message` (one the bot sent)."""
    update_id = next(_update_ids)
    query = {
        "id": query_id or f"cb{update_id}",
        "from": {"id": chat, "is_bot": False, "first_name": "Player"},
        "chat_instance": f"ci{chat}",
        "data": data,
    }
    if message is not None:
        query["message"] = message
    return {"update_id": update_id, "callback_query": query}


def post(client, data):
    body = json.dumps(data).encode()
    response = client.post(URL, data=body, content_type="application/json", HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN=SECRET)
    assert response.status_code == 200, response.content
    return response


def deliver(game, color: str) -> list[Transmission]:
    """Send the player's pending rows to the fake; the rows, sent."""
    rows = list(Transmission.objects.filter(game=game, direction="out", party=color, delivery="pending"))
    assert outbox.outbound_deliver_many([row.pk for row in rows]) == len(rows)
    return rows


def keyboard_data(body: dict) -> list[list[str]]:
    return [[button["callback_data"] for button in row] for row in body["reply_markup"]["inline_keyboard"]]


def last_message(api, chat: int) -> dict:
    return next(m for m in reversed(list(api.messages.values())) if m["chat"]["id"] == chat)


def refreshed(game) -> MobileGame:
    game.refresh_from_db()
    return game


@pytest.mark.django_db
class TestButtons:
    def test_it_puts_the_games_buttons_under_the_acknowledgement_and_the_move(self, client, game, api):
        post(client, text_update("1. e4"))
        deliver(game, "white")
        deliver(game, "black")
        code = game.code
        expected = [[f"offer #{code}", f"resign #{code}"], [f"status #{code}", f"record #{code}"]]
        (acknowledgement,) = api.sent
        assert acknowledgement["chat_id"] == str(WHITE_CHAT)
        assert keyboard_data(acknowledgement) == expected
        (move,) = api.photos
        assert move["chat_id"] == str(BLACK_CHAT)
        assert keyboard_data(move) == expected
        labels = [[b["text"] for b in row] for row in move["reply_markup"]["inline_keyboard"]]
        assert labels == [["Offer draw", "Resign"], ["Status", "Record"]]

    def test_it_offers_accept_draw_while_the_opponents_offer_stands(self, client, game, api):
        post(client, text_update("1. e4 draw?"))
        deliver(game, "white")
        deliver(game, "black")
        code = game.code
        # Black may accept; White, whose offer it is, still sees "Offer draw".
        assert keyboard_data(api.photos[0])[0] == [f"accept #{code}", f"resign #{code}"]
        assert keyboard_data(api.sent[0])[0] == [f"offer #{code}", f"resign #{code}"]

    def test_it_accepts_the_draw_when_offered(self, client, game, api):
        post(client, text_update("1. e4 draw?"))
        deliver(game, "black")
        message = last_message(api, BLACK_CHAT)
        post(client, press_update(f"accept #{game.code}", BLACK_CHAT, message=message, query_id="q-accept"))
        assert (refreshed(game).result, game.termination) == ("1/2-1/2", "draw agreed")
        inbound = Transmission.objects.filter(direction="in", party="black").get()
        assert inbound.text == f"#{game.code} DRAW"
        assert inbound.external_id == "tgcb:q-accept"
        assert api.calls("answerCallbackQuery") == [{"callback_query_id": "q-accept", "text": "Draw agreed."}]

    def test_it_resigns_only_after_the_confirming_press(self, client, game, api):
        post(client, text_update("1. e4"))
        deliver(game, "white")
        message = last_message(api, WHITE_CHAT)
        code = game.code
        post(client, press_update(f"resign #{code}", WHITE_CHAT, message=message, query_id="q-resign"))
        assert (refreshed(game).status, game.result) == ("open", "*")
        assert not Transmission.objects.filter(direction="in", external_id__startswith="tgcb:").exists()
        # The buttons under that message are now the second step.
        edited = api.messages[message["message_id"]]["reply_markup"]
        assert [[b["callback_data"] for b in row] for row in edited["inline_keyboard"]] == [
            [f"confirm #{code}", f"cancel #{code}"]
        ]
        assert [b["text"] for b in edited["inline_keyboard"][0]] == ["Confirm resign", "Cancel"]
        assert api.calls("answerCallbackQuery")[-1]["callback_query_id"] == "q-resign"

        before = timezone.now().replace(microsecond=0)
        post(client, press_update(f"confirm #{code}", WHITE_CHAT, message=message, query_id="q-confirm"))
        assert (refreshed(game).status, game.result, game.termination) == ("finished", "0-1", "resignation")
        inbound = Transmission.objects.get(direction="in", external_id="tgcb:q-confirm")
        assert (inbound.text, inbound.party, inbound.address) == (f"#{code} RESIGN", "white", str(WHITE_CHAT))
        assert inbound.sent is not None and inbound.sent >= before  # the press's arrival
        assert api.calls("answerCallbackQuery")[-1] == {"callback_query_id": "q-confirm", "text": "You resigned."}
        # The result reaches both players without buttons: nothing is left to press.
        deliver(game, "black")
        result = [body for body in api.sent if body["text"].startswith(f"#{code} Result")]
        assert result and all("reply_markup" not in body for body in result)

    def test_it_puts_the_buttons_back_on_cancel(self, client, game, api):
        post(client, text_update("1. e4"))
        deliver(game, "white")
        message = last_message(api, WHITE_CHAT)
        post(client, press_update(f"resign #{game.code}", WHITE_CHAT, message=message))
        post(client, press_update(f"cancel #{game.code}", WHITE_CHAT, message=message))
        edited = api.messages[message["message_id"]]["reply_markup"]
        assert [b["callback_data"] for b in edited["inline_keyboard"][0]] == [
            f"offer #{game.code}",
            f"resign #{game.code}",
        ]
        assert (refreshed(game).status, game.plies) == ("open", 1)
        assert not Transmission.objects.filter(direction="in", external_id__startswith="tgcb:").exists()

    def test_it_answers_offer_draw_with_how_to_offer_and_changes_nothing(self, client, game, api):
        post(client, press_update(f"offer #{game.code}", WHITE_CHAT, query_id="q-offer"))
        (answer,) = api.calls("answerCallbackQuery")
        assert answer["callback_query_id"] == "q-offer"
        assert answer["show_alert"] is True
        assert "draw?" in answer["text"]
        assert not Transmission.objects.filter(game=game).exists()

    def test_it_replies_to_status_with_the_state(self, client, game, api):
        post(client, text_update("1. e4"))
        post(client, press_update(f"status #{game.code}", BLACK_CHAT, query_id="q-status"))
        row = Transmission.objects.get(direction="out", kind="status")
        assert (row.party, row.address) == ("black", str(BLACK_CHAT))
        assert "Black to move" in row.text
        deliver(game, "black")
        assert any(body["text"] == row.text for body in api.sent)
        assert api.calls("answerCallbackQuery") == [{"callback_query_id": "q-status", "text": "Status sent."}]

    def test_it_applies_a_press_delivered_twice_once(self, client, game, api):
        post(client, text_update("1. e4"))
        first = press_update(f"record #{game.code}", WHITE_CHAT, query_id="q-twice")
        again = {**first, "update_id": first["update_id"] + 1}  # same press, delivered as a new Update
        post(client, first)
        post(client, again)
        assert Transmission.objects.filter(direction="in", external_id="tgcb:q-twice").count() == 1
        assert Transmission.objects.filter(direction="out", kind="record").count() == 1
        # Answered once; Telegram refuses a second answer to the same press, which changes nothing.
        assert len(api.calls("answerCallbackQuery")) == 1
        assert len(api.calls("answerCallbackQuery", accepted_only=False)) == 2

    def test_it_answers_a_press_from_an_unknown_chat_and_changes_nothing(self, client, game, api):
        for action in ("confirm", "resign", "status"):
            post(client, press_update(f"{action} #{game.code}", 999000999, query_id=f"q-{action}"))
        assert (refreshed(game).status, game.result) == ("open", "*")
        assert not Transmission.objects.exists()
        answers = api.calls("answerCallbackQuery")
        assert [a["callback_query_id"] for a in answers] == ["q-confirm", "q-resign", "q-status"]
        assert {a["text"] for a in answers} == {"This chat is not linked to a player."}
        assert not api.calls("editMessageReplyMarkup", accepted_only=False)

    def test_it_answers_a_button_it_does_not_know_and_changes_nothing(self, client, game, api):
        post(client, press_update("play e4 now", WHITE_CHAT, query_id="q-odd"))
        assert api.calls("answerCallbackQuery") == [
            {"callback_query_id": "q-odd", "text": "This button is not for this bot."}
        ]
        assert not Transmission.objects.exists()

    def test_it_offers_claim_draw_only_where_the_claim_is_correct(self, client, game, api):
        texts = [
            "1. Nf3", "1. Nf3 Nf6", "1... Nf6 2. Ng1", "2. Ng1 Ng8",
            "2... Ng8 3. Nf3", "3. Nf3 Nf6", "3... Nf6 4. Ng1", "4. Ng1 Ng8",
        ]  # fmt: skip
        for number, text in enumerate(texts):
            post(client, text_update(text, chat=WHITE_CHAT if number % 2 == 0 else BLACK_CHAT))
            if number == 1:  # White on move, the start position seen twice: no claim yet
                deliver(game, "white")
                assert [b.split()[0] for b in keyboard_data(api.photos[-1])[0]] == ["offer", "resign"]
        assert refreshed(game).plies == 8
        deliver(game, "white")
        # After 4... Ng8 the start position stands for the third time with White on move.
        move = api.photos[-1]
        assert keyboard_data(move)[0] == [f"offer #{game.code}", f"claim #{game.code}", f"resign #{game.code}"]
        assert [b["text"] for b in move["reply_markup"]["inline_keyboard"][0]][1] == "Claim draw"
        post(client, press_update(f"claim #{game.code}", WHITE_CHAT, query_id="q-claim"))
        assert (refreshed(game).result, game.termination) == ("1/2-1/2", "repetition")
        assert Transmission.objects.get(external_id="tgcb:q-claim").text == f"#{game.code} DRAW CLAIM"

    def test_it_refuses_a_step_for_a_game_that_is_not_the_players(self, client, game, api):
        stranger = services.game_create(white=PlayerFactory(), black=PlayerFactory(), start=game.start)
        post(client, press_update(f"resign #{stranger.code}", WHITE_CHAT, query_id="q-stranger"))
        assert api.calls("answerCallbackQuery") == [
            {"callback_query_id": "q-stranger", "text": f"No game #{stranger.code} of yours."}
        ]
        assert not api.calls("editMessageReplyMarkup", accepted_only=False)
        assert not Transmission.objects.exists()

    def test_it_acts_on_the_game_named_by_the_button_when_several_are_open(self, client, game, api):
        other = services.game_create(white=game.white, black=game.black, start=game.start)
        post(client, text_update(f"#{game.code} 1. e4"))
        post(client, press_update(f"confirm #{other.code}", BLACK_CHAT))
        assert (refreshed(other).result, refreshed(game).result) == ("1-0", "*")


@pytest.mark.django_db
class TestPicture:
    def test_it_sends_the_board_after_the_move_from_the_receivers_side(self, client, game, api):
        post(client, text_update("1. e4"))
        (row,) = [r for r in deliver(game, "black") if r.kind == "move"]
        (photo,) = api.photos
        assert photo["caption"] == row.text
        png = photo["photo"]
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        image = Image.open(io.BytesIO(png))
        assert image.size == (board_png.SIZE, board_png.SIZE)
        # From Black's side, e2 (where the move began) is in the 4th column and the 2nd row.
        left, top, _, _ = board_png.square_box(chess.E2, chess.BLACK)
        assert (left, top) == (20 + 3 * 56, 20 + 56)
        assert image.convert("RGB").getpixel((left + 2, top + 2)) == board_png.LIGHT_LASTMOVE
        # The mover's acknowledgement is text only.
        deliver(game, "white")
        assert len(api.photos) == 1 and len(api.sent) == 1

    def test_it_sends_a_text_too_long_for_a_caption_after_the_picture(self, client, game, api):
        post(client, text_update("1. e4"))
        row = Transmission.objects.get(direction="out", kind="move")
        row.text = row.text + " " + "x" * 1100  # longer than a caption may be (1024)
        TelegramBot().send(row)
        (photo,) = api.photos
        assert "caption" not in photo and "reply_markup" not in photo
        (text,) = api.sent
        assert text["text"] == row.text
        assert keyboard_data(text)[1] == [f"status #{game.code}", f"record #{game.code}"]

    def test_it_opens_no_get_me_per_send(self, client, game, api):
        for number, text in enumerate(("1. e4", "1. e4 e5", "1... e5 2. Nf3", "2. Nf3 Nc6")):
            post(client, text_update(text, chat=WHITE_CHAT if number % 2 == 0 else BLACK_CHAT))
        rows = Transmission.objects.filter(direction="out", delivery="pending")
        assert rows.count() == 8
        assert outbox.outbound_deliver_many(list(rows.values_list("pk", flat=True))) == 8
        assert len(api.sent) + len(api.photos) == 8
        assert [r for r in api.requests if r.api_method == "getMe"] == []

    def test_it_still_fails_the_row_at_once_for_a_wrong_token(self, client, game, api, settings):
        # Without getMe before each send, the send itself is what finds the token wrong.
        post(client, text_update("1. e4"))
        settings.TELEGRAM_BOT_TOKEN = "7000001:wrong-token"
        row = Transmission.objects.get(direction="out", kind="acknowledgement")
        assert outbox.outbound_deliver(row.pk) is False
        row.refresh_from_db()
        assert (row.delivery, row.attempts) == ("failed", 1)
        assert "Telegram refused the message" in row.error
        assert [r.api_method for r in api.requests] == ["sendMessage"]


@pytest.mark.django_db
class TestCommand:
    def test_it_sets_the_webhook_with_the_secret_and_deletes_it(self, api):
        out = io.StringIO()
        call_command("play_telegram", "webhook", "--url", HOOK, "--drop-pending", stdout=out)
        (body,) = api.calls("setWebhook")
        assert body["url"] == HOOK
        assert body["secret_token"] == SECRET
        assert body["allowed_updates"] == ["message", "callback_query"]
        assert body["drop_pending_updates"] is True
        assert "Webhook set" in out.getvalue()
        call_command("play_telegram", "webhook", "--delete", stdout=out)
        assert len(api.calls("deleteWebhook")) == 1
        assert api.webhook == {}

    @pytest.mark.parametrize(
        ("args", "says"),
        [
            (["--url", "http://chess.example.org/play/hooks/telegram/"], "https"),
            (["--url", "https://chess.example.org/hooks/"], "/play/hooks/telegram/"),
            ([], "either --url"),
            (["--url", HOOK, "--delete"], "either --url"),
        ],
    )
    def test_it_refuses_a_wrong_webhook_and_calls_nothing(self, api, args, says):
        with pytest.raises(CommandError, match=says):
            call_command("play_telegram", "webhook", *args)
        assert api.requests == []

    def test_it_refuses_a_webhook_without_a_secret(self, api, settings):
        settings.TELEGRAM_WEBHOOK_SECRET = ""
        with pytest.raises(CommandError, match="TELEGRAM_WEBHOOK_SECRET"):
            call_command("play_telegram", "webhook", "--url", HOOK)
        assert api.requests == []

    def test_it_needs_a_token(self, settings):
        settings.TELEGRAM_BOT_TOKEN = ""
        with pytest.raises(CommandError, match="TELEGRAM_BOT_TOKEN"):
            call_command("play_telegram", "info")

    def test_it_tells_the_bot_and_its_webhook(self, api):
        call_command("play_telegram", "webhook", "--url", HOOK)
        out = io.StringIO()
        call_command("play_telegram", "info", stdout=out)
        assert "@federation_chess_bot" in out.getvalue()
        assert f"Webhook: {HOOK}, 0 update(s) pending" in out.getvalue()

    def test_it_polls_once_and_applies_a_queued_move(self, game, api):
        api.webhook = {"url": HOOK, "secret_token": SECRET}  # polling must remove it first
        first, second = text_update("1. e4"), text_update("1. e4 e5", chat=BLACK_CHAT)
        api.updates.extend([first, second])
        out = io.StringIO()
        call_command("play_telegram", "poll", "--once", stdout=out)
        assert (refreshed(game).plies, game.on_move) == (2, "white")
        assert f"Update {first['update_id']}: move" in out.getvalue()
        assert api.calls("deleteWebhook") and api.webhook == {}
        # The batch is confirmed: Telegram drops it, and a second poll applies nothing again.
        assert api.updates == []
        inbound = list(Transmission.objects.filter(direction="in").order_by("pk").values_list("external_id", flat=True))
        assert inbound == [f"tg:{first['update_id']}", f"tg:{second['update_id']}"]
        call_command("play_telegram", "poll", "--once", stdout=io.StringIO())
        assert Transmission.objects.filter(direction="in").count() == 2

    def test_it_polls_button_presses_too(self, game, api):
        api.updates.append(press_update(f"confirm #{game.code}", BLACK_CHAT, query_id="q-poll"))
        call_command("play_telegram", "poll", "--once", stdout=io.StringIO())
        assert (refreshed(game).result, game.termination) == ("1-0", "resignation")
        assert api.calls("answerCallbackQuery")[0]["callback_query_id"] == "q-poll"
