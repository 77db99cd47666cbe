"""Texts that fit SMS, through the message service: both players play by SMS (the console
back-end stands for the gateway), and every outbox row on the sms channel is checked with the
segment counter of play/rules/segments.py."""

import datetime
import io
import random
import re

import chess
import pytest

from play import services
from play.models import ChannelAddress, MobileGame, Transmission
from play.rules.notation import write_moves
from play.rules.segments import encoding, segment_count
from play.rules.sms_texts import render_sms
from play.rules.texts import render
from tests.players.factories import PlayerFactory

WHITE_PHONE, BLACK_PHONE = "+79991112233", "+79994445566"
START = datetime.datetime(2026, 11, 1, 8, 0, tzinfo=datetime.UTC)
# Check (3. Bb5+), both castlings, a promotion with capture (8. bxa8=Q) and a draw offer (8... Qb6).
SHORT_GAME = [
    "e4", "d5", "exd5", "Nf6", "Bb5+", "c6", "dxc6", "e6", "Nf3", "Be7", "O-O", "O-O", "cxb7", "Nbd7", "bxa8=Q", "Qb6",
]  # fmt: skip


@pytest.fixture(autouse=True)
def _console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def sms_game(control: str | None = None) -> MobileGame:
    white, black = PlayerFactory(), PlayerFactory()
    for player, phone in ((white, WHITE_PHONE), (black, BLACK_PHONE)):
        ChannelAddress.objects.create(player=player, channel="sms", address=phone, verified_at=START)
    game = services.game_create(white=white, black=black, start=START, control=control)
    MobileGame.objects.filter(pk=game.pk).update(white_channel="sms", black_channel="sms")
    game.refresh_from_db()
    return game


def messages(sans: list[str]) -> list[str]:
    """Each move as its player writes it: the opponent's latest move repeated, then the reply."""
    board, played, texts = chess.Board(), [], []
    for ply, san in enumerate(sans):
        move = board.parse_san(san)
        if ply == 0:
            texts.append(write_moves([move]))
        else:
            before = board.copy()
            before.pop()
            texts.append(write_moves([played[-1], move], first_ply=ply - 1, board=before))
        played.append(move)
        board.push(move)
    return texts


def play(game, sans, *, step: datetime.timedelta, offer_at: int | None = None):
    arrival = START
    for ply, text in enumerate(messages(sans)):
        arrival += step
        phone = WHITE_PHONE if ply % 2 == 0 else BLACK_PHONE
        text = text + " draw?" if ply == offer_at else text
        sent = arrival - datetime.timedelta(seconds=20)
        receipt = services.message_receive(channel="sms", sender=phone, text=text, arrival=arrival, sent=sent)
        assert receipt.applied == "move", (text, receipt)
    return arrival


def out_rows(game, kind):
    return list(Transmission.objects.filter(game=game, direction="out", kind=kind).order_by("pk"))


@pytest.mark.django_db
class TestMoveTexts:
    def test_it_sends_every_acknowledgement_and_notice_of_a_game_as_one_sms(self):
        # Ten days for 30 moves, and more than a day a move: clocks of 100 hours and more.
        game = sms_game("864000/30+86400/10")
        play(game, SHORT_GAME, step=datetime.timedelta(days=1, hours=3, minutes=17, seconds=9), offer_at=15)
        acks, notices = out_rows(game, "acknowledgement"), out_rows(game, "move")
        assert len(acks) == len(notices) == len(SHORT_GAME)
        for row in acks + notices:
            assert row.channel == "sms"
            assert encoding(row.text) == "GSM-7" and segment_count(row.text) == 1, row.text
            assert row.text.startswith(f"#{game.code} ")
            assert "part" not in row.data
        assert [row.address for row in acks[:2]] == [WHITE_PHONE, BLACK_PHONE]
        assert [row.address for row in notices[:2]] == [BLACK_PHONE, WHITE_PHONE]
        texts = [row.text for row in acks]
        assert texts[4].startswith(f"#{game.code} OK 3. Bb5+ sent ")
        assert texts[10].startswith(f"#{game.code} OK 6. O-O sent ")
        assert texts[14].startswith(f"#{game.code} OK 8. bxa8=Q sent ")
        assert notices[15].text.startswith(f"#{game.code} Opp 8... Qb6 draw? sent ")

    def test_it_states_the_facts_of_rule_2e_to_2h_in_the_compact_form(self):
        game = sms_game("864000/30+86400/10")
        play(game, SHORT_GAME[:3], step=datetime.timedelta(days=1, hours=3, minutes=17, seconds=9))
        notice = out_rows(game, "move")[-1]
        # A move every 98229 s from 01.11 08:00:00, sent 20 s before it arrives; a move is
        # received at its arrival + N (60 s), White's first period at the start + N. So each move
        # used 98229 - 60 - 20 = 98149 s = 27:15:49: 2. exd5 arrives 04.11 17:51:27, after
        # 1... d5 received 03.11 14:35:18; White has used 2 x 27:15:49 of 240 hours, Black 1.
        assert notice.text == (
            f"#{game.code} Opp 2. exd5 sent 04.11 17:51:07 used 27:15:49, prev move rcvd 03.11 14:35:18. "
            "W used 54:31:38 left 185:28:22; B used 27:15:49 left 212:44:11"
        )
        assert notice.text == f"#{game.code} " + render_sms("move", notice.data, prefix=f"#{game.code} ")

    def test_it_keeps_the_long_texts_on_the_web(self):
        game = sms_game()
        MobileGame.objects.filter(pk=game.pk).update(black_channel="web")
        play(game, SHORT_GAME[:1], step=datetime.timedelta(minutes=5))
        notice = out_rows(game, "move")[0]
        assert notice.channel == "web"
        assert notice.text == f"#{game.code} " + render("move", notice.data)
        assert notice.text.startswith(f"#{game.code} Your opponent played 1. e4.")


def long_game(plies: int, seed: int = 15) -> list[str]:
    """A legal game of `plies` plies that no rule ends on the way (random, but the same each run)."""
    rng, board, sans = random.Random(seed), chess.Board(), []
    while len(sans) < plies:
        moves = list(board.legal_moves)
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            ends = board.is_game_over() or board.can_claim_threefold_repetition()
            board.pop()
            if not ends:
                sans.append(board.san(move))
                board.push(move)
                break
        else:
            raise AssertionError("no move keeps the game going")
    return sans


@pytest.mark.django_db
class TestRecord:
    def test_it_sends_the_record_of_a_60_move_game_in_numbered_parts_of_one_sms(
        self, settings, django_capture_on_commit_callbacks
    ):
        game = sms_game()
        sans = long_game(120)
        # Every move arrives 90 s after the last, sent 20 s before: 90 - N (60) - 20 = 10 s used.
        arrival = play(game, sans, step=datetime.timedelta(seconds=90))
        # The game's replies went out as they were written (over 90 minutes, within the rate
        # limit); the delivery of RECORD is left with only its own parts to send.
        Transmission.objects.filter(direction="out", delivery="pending").update(delivery="sent")
        with django_capture_on_commit_callbacks(execute=True):
            receipt = services.message_receive(
                channel="sms", sender=WHITE_PHONE, text="RECORD", arrival=arrival + datetime.timedelta(minutes=1)
            )
        parts = out_rows(game, "record")
        assert [row.pk for row in receipt.replies] == [row.pk for row in parts]
        count = len(parts)
        assert count >= 10
        label = re.compile(rf"^#{game.code} \((\d+)/{count}\) ")
        chunks = []
        for index, row in enumerate(parts, 1):
            assert segment_count(row.text) == 1 and encoding(row.text) == "GSM-7", row.text
            assert (row.channel, row.address, row.delivery) == ("sms", WHITE_PHONE, "sent")
            found = label.match(row.text)
            assert found and int(found[1]) == index
            assert (row.data["part"], row.data["parts"]) == (index, count)
            chunks.append(row.text[found.end() :])
        # Sent in order, one SMS a part.
        console = settings.PLAY_CONSOLE_STREAM.getvalue().splitlines()
        assert console[-count:] == [f"[sms -> white {WHITE_PHONE}] {row.text}" for row in parts]
        # The machine's data is stored once, with the first part; the parts give its text back.
        assert len(parts[0].data["moves"]) == 120 and "moves" not in parts[1].data
        whole = " ".join(chunks)
        assert whole.split() == render_sms("record", parts[0].data).split()
        assert re.findall(r"(\S+) \(0:00:10\)", whole) == sans
        assert whole.startswith(f"Record: 1. {sans[0]} (0:00:10) {sans[1]} (0:00:10) 2. {sans[2]} (0:00:10) ")
        # 60 moves of 10 s each; move 61's allowance is 10800 + 4 x 1200 = 15600 s.
        assert whole.endswith(" White to move. Used/left W 0:10:00/4:10:00 B 0:10:00/4:10:00")


@pytest.mark.django_db
class TestCyrillic:
    def test_it_acknowledges_a_move_written_with_russian_letters_in_one_gsm7_sms(self):
        game = sms_game()
        receipt = services.message_receive(
            channel="sms", sender=WHITE_PHONE, text="1. Кf3", arrival=START + datetime.timedelta(minutes=4)
        )
        assert receipt.applied == "move"
        (ack,) = out_rows(game, "acknowledgement")
        assert ack.text.startswith(f"#{game.code} OK 1. Nf3 sent ")
        assert encoding(ack.text) == "GSM-7" and segment_count(ack.text) == 1

    def test_it_sends_a_referral_quoting_cyrillic_in_sms_of_70(self):
        game = sms_game()
        play(game, SHORT_GAME[:4], step=datetime.timedelta(minutes=5))
        receipt = services.message_receive(
            channel="sms", sender=WHITE_PHONE, text="2... Кf6 3. Фd8", arrival=START + datetime.timedelta(hours=1)
        )
        assert receipt.applied == "referral"
        parts = out_rows(game, "referral")
        assert len(parts) > 1 and all(segment_count(row.text) == 1 for row in parts)
        quoting = [row.text for row in parts if "Фd8" in row.text]
        assert len(quoting) == 1
        assert encoding(quoting[0]) == "UCS-2" and len(quoting[0]) <= 70
        latin = [row.text for row in parts if "Фd8" not in row.text]
        assert latin and all(encoding(text) == "GSM-7" for text in latin)
        assert [row.data.get("part") for row in parts] == list(range(1, len(parts) + 1))


@pytest.mark.django_db
class TestOtherLongTexts:
    def test_it_sends_help_in_numbered_parts_rather_than_truncated(self):
        game = sms_game()
        services.message_receive(channel="sms", sender=BLACK_PHONE, text="HELP", arrival=START)
        parts = out_rows(game, "help")
        n = len(parts)
        assert n == segment_count(f"#{game.code} " + render("help", parts[0].data)) >= 2
        assert [row.text[:14] for row in parts] == [f"#{game.code} ({i}/{n}) " for i in range(1, n + 1)]
        assert all(segment_count(row.text) == 1 and row.address == BLACK_PHONE for row in parts)
        assert " ".join(row.text[14:] for row in parts).split() == render("help", parts[0].data).split()

    def test_it_answers_a_message_for_no_game_of_the_sender_in_one_sms_without_a_tag(self):
        sms_game()
        receipt = services.message_receive(channel="sms", sender=WHITE_PHONE, text="#ZZZZ99 1. e4", arrival=START)
        assert receipt.applied == "unknown game"
        (reply,) = receipt.replies
        assert (reply.channel, reply.text) == ("sms", "No game #ZZZZ99 of yours.")

    def test_it_quotes_at_most_20_characters_of_an_illegible_word_in_a_referral(self):
        game = sms_game()
        receipt = services.message_receive(channel="sms", sender=WHITE_PHONE, text="1. " + "x" * 10_000, arrival=START)
        assert receipt.applied == "referral"
        (reply,) = receipt.replies  # one SMS, not the 71 a whole quote cost
        assert reply.text == (
            f"#{game.code} Referred back (illegible): the message cannot be read: 'xxxxxxxxxxxxxxxxxxxx...' "
            "is not a move. Position: White to play move 1."
        )
        assert segment_count(reply.text) == 1

    def test_it_quotes_at_most_20_characters_of_a_game_tag_it_does_not_know(self):
        sms_game()
        receipt = services.message_receive(channel="sms", sender=WHITE_PHONE, text="#" + "Z" * 5_000, arrival=START)
        (reply,) = receipt.replies
        assert reply.text == "No game #ZZZZZZZZZZZZZZZZZZZZ... of yours."


@pytest.mark.django_db
class TestTelegramLimit:
    def test_it_sends_the_record_of_a_long_game_to_telegram_in_numbered_messages_of_at_most_4096(self, settings):
        settings.PLAY_MESSAGE_LANGUAGE = "en"
        game = sms_game()
        arrival = play(game, long_game(200), step=datetime.timedelta(seconds=90))
        ChannelAddress.objects.create(player=game.white, channel="telegram", address="777", verified_at=START)
        receipt = services.message_receive(
            channel="telegram", sender="777", text="RECORD", arrival=arrival + datetime.timedelta(minutes=1)
        )
        parts = receipt.replies
        whole = f"#{game.code} " + render("record", parts[0].data)
        assert len(whole) > 4096  # one message would be refused by the Bot API
        assert [len(row.text) <= 4096 and row.channel == "telegram" for row in parts] == [True, True]
        assert [row.text[:14] for row in parts] == [f"#{game.code} (1/2) ", f"#{game.code} (2/2) "]
        assert (parts[0].data["part"], parts[1].data) == (1, {"part": 2, "parts": 2})
        assert " ".join(row.text[14:] for row in parts).split() == render("record", parts[0].data).split()
