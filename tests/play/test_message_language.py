"""The game messages in the federation's message language (PLAY_MESSAGE_LANGUAGE): every sentence
of play/rules/texts.py has its Russian, a game's messages go out in Russian on Telegram, e-mail,
the console and the web, and SMS keep their compact English (GSM alphabet, 160 characters)."""

import ast
import datetime
import io
from pathlib import Path

import pytest
from django.utils import translation

from play import services
from play.channels import linking as linking_module
from play.channels.linking import HOW_TO_MOVE
from play.rules import texts
from play.rules.outbound import HELP_TEXT
from tests.players.factories import PlayerFactory

MOVE = {
    "move": "12. Nf3",
    "sent": "2026-11-24T10:00:05Z",
    "used": 125,
    "previous_receipt": "2026-11-24T09:58:00Z",
    "clocks": {"white": {"used": 3600, "left": 1800}, "black": {"used": 4000, "left": 1400}},
    "draw_offer": True,
}


def msgids() -> set[str]:
    """The literal msgids of texts.py and of the Telegram link answers (linking.py): the strings
    given to `_(...)` or marked with `gettext_noop`, the machine's words among them."""
    found = set()
    for module in (texts, linking_module):
        for node in ast.walk(ast.parse(Path(module.__file__).read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_", "gettext_noop"):
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found | {HELP_TEXT, HOW_TO_MOVE}


def test_it_has_a_russian_sentence_for_every_english_one():
    ids = msgids()
    assert len(ids) > 45
    with translation.override("ru"):
        untranslated = sorted(msgid for msgid in ids if translation.gettext(msgid) == msgid)
    assert untranslated == []


def test_it_writes_a_move_in_russian_with_the_same_figures():
    english = texts.render("move", MOVE)
    with translation.override("ru"):
        russian = texts.render("move", MOVE, translation.gettext)
    assert english == (
        "Your opponent played 12. Nf3. Draw offered. Sent 24.11 10:00:05, used 0:02:05; previous move received "
        "24.11 09:58:00. White used 1:00:00, 0:30:00 left; Black used 1:06:40, 0:23:20 left."
    )
    assert russian == (
        "Соперник сыграл 12. Nf3. Предложена ничья. Отправлен 24.11 10:00:05, затрачено 0:02:05; предыдущий ход "
        "получен 24.11 09:58:00. Белые: затрачено 1:00:00, осталось 0:30:00; Чёрные: затрачено 1:06:40, осталось "
        "0:23:20."
    )


def test_it_gives_a_referral_its_reason_in_russian_and_the_machines_details():
    data = {"reason": "turn", "explanation": "it is not your turn: your opponent is on move", "position": ""}
    with translation.override("ru"):
        text = texts.render("referral", data, translation.gettext)
    assert text.startswith("Возвращено: ")
    assert "(it is not your turn: your opponent is on move). Позиция: начальная." in text
    assert texts.render("referral", data) == (
        "Referred back (turn): it is not your turn: your opponent is on move. Position: initial."
    )


@pytest.fixture
def game(db, settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()
    white, black = PlayerFactory(), PlayerFactory()
    start = datetime.datetime(2026, 11, 24, 9, 0, tzinfo=datetime.UTC)
    created = services.game_create(white=white, black=black, start=start, control="10800/30+1200/10", norm=300)
    return created, start


def say(player, text, at, channel="console"):
    return services.message_receive(channel=channel, sender=str(player.federation_id), text=text, arrival=at)


def test_it_sends_a_games_messages_in_the_federations_language(game, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    created, start = game
    assert say(created.white, f"#{created.code} 1. e4", start + datetime.timedelta(minutes=5)).applied == "move"
    out = {row.kind: row.text for row in created.transmissions.filter(direction="out")}
    assert out["acknowledgement"].startswith(f"#{created.code} Получен ход 1. e4. Отправлен ")
    assert out["move"].startswith(f"#{created.code} Соперник сыграл 1. e4. ")


def test_it_keeps_english_by_default(game):
    created, start = game
    say(created.white, f"#{created.code} 1. e4", start + datetime.timedelta(minutes=5))
    texts_out = list(created.transmissions.filter(direction="out").values_list("text", flat=True))
    assert any(text.startswith(f"#{created.code} Your opponent played 1. e4.") for text in texts_out)


def test_it_answers_help_in_russian():
    with translation.override("ru"):
        text = texts.render("help", {"text": HELP_TEXT}, translation.gettext)
    assert text.startswith("Присылайте ход вместе с последним ходом соперника")
    assert "RESIGN" in text and "#КОДА" in text


CLAIM = {
    "against": "white", "ply": 24, "kind": "move", "filed": "2026-11-24T10:00:05Z", "total": 4000, "allowance": 3600,
    "status": "open", "protest_until": "2026-11-25T10:00:05Z",
}  # fmt: skip


def test_it_writes_each_colour_in_its_russian_case():
    """Whole sentences per colour: "против белых", "Ход чёрных", never a nominative "Белые" put inside."""
    state = {"position": "1. e4", "on_move": "black", "draw_offer": "white"}
    with translation.override("ru"):
        claim = texts.render("claim", CLAIM, translation.gettext)
        black_claim = texts.render("claim", {**CLAIM, "against": "black"}, translation.gettext)
        status = texts.render("status", state, translation.gettext)
    assert claim == (
        "Претензия по времени против белых на полуходе 24 (ход), подана 24.11 10:00:05: всего 1:06:40 при норме "
        "1:00:00. Сейчас она открыта; протест до 25.11 10:00:05."
    )
    assert black_claim.startswith("Претензия по времени против чёрных на полуходе 24")
    assert status == "Позиция: 1. e4. Ход чёрных. Белые предлагают ничью."
    assert texts.render("claim", CLAIM).startswith("Time claim against white at ply 24 (move), filed 24.11 10:00:05")
    assert texts.render("status", state) == "Position: 1. e4. Black to move. White offers a draw."


def test_it_writes_a_claims_outcome_and_a_report_as_whole_russian_sentences():
    decided = {**CLAIM, "status": "upheld", "result": "0-1", "termination": "time"}
    with translation.override("ru"):
        upheld = texts.render("claim upheld", decided, translation.gettext)
        delay = texts.render("delay received", {}, translation.gettext)
    assert upheld.startswith("Претензия удовлетворена. Претензия по времени против белых")
    assert upheld.endswith("Результат 0-1 (по времени).")
    assert delay == "Ваше сообщение о задержке (DELAY) получено судьёй."
    assert texts.render("claim upheld", decided).startswith("Claim upheld. Time claim against white at ply 24")


def test_it_states_whose_turn_with_the_move_number_and_one_full_stop():
    data = {"reason": "illegal", "explanation": "'Nf6' is not legal", "position": "1. e4 c5 — White to play move 2"}
    assert texts.render("referral", data).endswith("Position: 1. e4 c5 — White to play move 2.")
    with translation.override("ru"):
        russian = texts.render("referral", data, translation.gettext)
        status = texts.render(
            "status", {"position": "1. e4 — Black to play move 1", "on_move": "black"}, translation.gettext
        )
    assert russian.endswith("Позиция: 1. e4 c5 — белые делают ход 2.")
    assert status.startswith("Позиция: 1. e4 — чёрные делают ход 1. ")


def test_it_heads_a_wrong_draw_claim_as_such_not_as_an_illegal_move():
    data = {
        "reason": "illegal",
        "claim": "draw",
        "explanation": "incorrect draw claim: the position has not occurred before, and ...",
        "position": "1. e4 — Black to play move 1",
    }
    with translation.override("ru"):
        text = texts.render("referral", data, translation.gettext)
    assert text.startswith("Возвращено: неверное требование ничьей (incorrect draw claim: the position")
