"""Playing the computer: a person's moves through message_receive, the computer's answers through
the same service (the engine task run eagerly on commit, or directly), once per ply however often
the task runs; PLAY COMPUTER by message; the web page; refusals when the engine is missing; the
game rated in Mchess with the computer starting at 1000."""

from __future__ import annotations

import datetime
import io

import chess
import pytest
from django.urls import reverse
from django.utils import timezone

from federation.celery import app as celery_app
from play import services, state
from play.computer import services as computer
from play.computer import turn as computer_turn
from play.models import ComputerLevel, MobileGame, Transmission
from play.tasks import engine_move
from players.models import Player, PlayerLink
from ratings.models import PlayerRating
from tests.base import PASSWORD, assert_site_styled_forms
from tests.players.factories import PlayerFactory

pytestmark = pytest.mark.needs("stockfish")


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def level(number: int) -> ComputerLevel:
    return ComputerLevel.objects.get(number=number, active=True)


@pytest.fixture(autouse=True)
def _ladder(db):
    # The migration's levels are gone after any transactional test flushed the tables: made again.
    computer.levels_ensure()


def say(player, text, **kwargs):
    return services.message_receive(
        channel="console", sender=str(player.federation_id), text=text, arrival=timezone.now(), **kwargs
    )


def human_move(game: MobileGame) -> str:
    """A legal reply for the person, written as the rules want (the opponent's move repeated)."""
    board = state.load(game).board
    move = sorted(board.legal_moves, key=lambda m: m.uci())[0]
    return computer.move_message(game, move.uci())


def computer_moves(game: MobileGame) -> list[Transmission]:
    computer_player = game.white if game.white.kind == Player.Kind.COMPUTER else game.black
    return list(game.transmissions.filter(direction="in", player=computer_player).order_by("pk"))


def test_it_answers_a_persons_moves_with_legal_moves_of_level_1(db, django_capture_on_commit_callbacks):
    person = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        game = computer.computer_game_create(player=person, level=level(1), side="white")
    assert (game.white, game.black.kind, game.weight) == (person, Player.Kind.COMPUTER, 250)
    assert game.plies == 0  # White is the person: the computer waits
    for turn in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            receipt = say(person, human_move(game))
        assert receipt.applied == "move"
        game.refresh_from_db()
        # The computer answered at once (tasks are eager here): its move is in the game, legal.
        assert game.plies == 2 * (turn + 1) and game.on_move == "white"
    replies = computer_moves(game)
    assert [r.kind for r in replies] == ["move", "move", "move"]
    assert [r.external_id for r in replies] == [f"engine:{game.pk}:{ply}" for ply in (1, 3, 5)]
    assert all(r.channel == "console" and r.text.startswith(f"#{game.code} ") for r in replies)
    # Rebuilt from the record alone, the game is the stored one: every move legal and recorded.
    value = state.load(game)
    assert state.rebuild(game) == value
    board = chess.Board()
    for move in value.moves:
        assert move.move in board.legal_moves
        board.push(move.move)


def test_it_plays_first_when_the_computer_has_white(db, django_capture_on_commit_callbacks):
    person = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        game = computer.computer_game_create(player=person, level=level(2), side="black")
    game.refresh_from_db()
    assert (game.black, game.plies, game.on_move) == (person, 1, "black")
    # The person was sent the computer's move on his channel.
    told = game.transmissions.filter(direction="out", player=person, kind="move")
    assert told.count() == 1


def test_it_plays_each_ply_once_however_often_the_task_runs(db, django_capture_on_commit_callbacks):
    person = PlayerFactory()
    game = computer.computer_game_create(player=person, level=level(1), side="black")  # on_commit not run
    assert game.plies == 0
    assert engine_move.apply(args=(game.pk, 0)).get() == "move"
    # A retry of the same task (a lost acknowledgement, a worker that died after the move) finds
    # the game moved on; the same message delivered again is a duplicate by its dedup key.
    assert engine_move.apply(args=(game.pk, 0)).get() == "moved on"
    game.refresh_from_db()
    text = computer_moves(game)[0].text
    again = services.message_receive(
        channel="console", sender=str(game.white.federation_id), text=text, arrival=timezone.now(),
        external_id=f"engine:{game.pk}:0",
    )  # fmt: skip
    assert again.applied == "duplicate"
    game.refresh_from_db()
    assert game.plies == 1 and len(computer_moves(game)) == 1


def test_it_leaves_a_game_alone_when_it_is_not_the_computers_turn(db):
    person = PlayerFactory()
    game = computer.computer_game_create(player=person, level=level(1), side="white")
    assert computer.engine_move_play(game_id=game.pk, ply=0) == "not a computer's turn"
    say(person, "RESIGN")
    assert computer.engine_move_play(game_id=game.pk, ply=0) == "not a computer's turn"
    assert computer_moves(MobileGame.objects.get(pk=game.pk)) == []


def test_it_routes_the_computers_moves_to_the_engine_queue():
    route = celery_app.amqp.router.route({}, engine_move.name)
    assert route["queue"].name == "engine"


def test_it_starts_a_game_from_a_play_computer_message(db, django_capture_on_commit_callbacks):
    person = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        receipt = say(person, "play computer 3 white", external_id="m1")
    game = receipt.game
    assert receipt.applied == "computer game"
    assert (game.white, game.black, game.status) == (person, level(3).player, "open")
    reply = receipt.replies[0]
    assert reply.text == (
        f"#{game.code} New game against computer level 3 (Casual): you play White, time control "
        f"{game.control}. Start your messages with #{game.code}."
    )
    assert receipt.inbound.game == game and receipt.inbound.text == "play computer 3 white"
    # The same message delivered twice starts one game.
    assert say(person, "play computer 3 white", external_id="m1").applied == "duplicate"
    assert MobileGame.objects.count() == 1


def test_it_answers_play_computer_in_the_federations_message_language(db, settings):
    settings.PLAY_MESSAGE_LANGUAGE = "ru"
    person = PlayerFactory()
    refused = say(person, "PLAY COMPUTER 9")
    assert refused.replies[0].text == "Компьютерного уровня 9 нет; есть уровни 1, 2, 3, 4, 5, 6, 7, 8."
    made = say(person, "play computer 3 white")
    assert made.replies[0].text == (
        f"#{made.game.code} Новая партия с компьютером, уровень 3 (Casual): вы играете белыми, "
        f"контроль времени {made.game.control}. Начинайте сообщения с #{made.game.code}."
    )


def test_it_refuses_a_level_that_does_not_exist_by_message(db):
    person = PlayerFactory()
    receipt = say(person, "PLAY COMPUTER 9")
    assert receipt.applied == "computer refused" and receipt.game is None
    assert receipt.replies[0].text == "There is no computer level 9; the levels are 1, 2, 3, 4, 5, 6, 7, 8."
    assert not MobileGame.objects.exists()


def test_it_refuses_a_second_game_with_the_same_level(db):
    person = PlayerFactory()
    say(person, "PLAY COMPUTER 1 WHITE")
    receipt = say(person, "PLAY COMPUTER 1")
    assert receipt.replies[0].text == "You already have a game in progress with level 1."
    assert MobileGame.objects.count() == 1


def test_it_names_the_debian_package_when_the_engine_is_missing(db, settings, tmp_path):
    settings.PLAY_ENGINE_PATH = str(tmp_path / "stockfish")
    person = PlayerFactory()
    receipt = say(person, "PLAY COMPUTER 1")
    assert receipt.applied == "computer refused"
    assert "install Debian's package 'stockfish'" in receipt.replies[0].text
    assert not MobileGame.objects.exists() and not Player.objects.filter(kind=Player.Kind.COMPUTER).exists()


@pytest.fixture
def linked(db, django_user_model):
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    user = django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)
    player = PlayerFactory(family_name="Petrova")
    PlayerLink.objects.create(
        user=user, player=player, relation="self", status="confirmed", decided_by=admin,
        decided_at=datetime.datetime(2026, 11, 1, tzinfo=datetime.UTC),
    )  # fmt: skip
    return user, player


def test_it_starts_a_game_from_the_play_the_computer_page(client, linked, django_capture_on_commit_callbacks):
    user, player = linked
    client.force_login(user)
    page = client.get(reverse("play:computer"))
    assert page.status_code == 200
    assert b"1. Beginner" in page.content and b"Mchess 1000" in page.content
    assert_site_styled_forms(page.content.decode())
    assert '<p class="actions"><button type="submit">Start the game</button></p>' in page.content.decode()
    form = {"player": player.pk, "level": level(1).pk, "side": "black", "control": "3600/40+900/10", "norm": 60}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("play:computer"), form)
    game = MobileGame.objects.get()
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    game.refresh_from_db()
    assert (game.black, game.white, game.control, game.plies) == (player, level(1).player, "3600/40+900/10", 1)


def test_it_refuses_the_page_to_an_account_without_a_player(client, django_user_model):
    user = django_user_model.objects.create_user("nobody", "nobody@example.org", PASSWORD)
    client.force_login(user)
    page = client.get(reverse("play:computer"))
    assert b"link your account to your player record" in page.content
    assert client.get(reverse("play:computer")).status_code == 200
    client.logout()
    assert client.get(reverse("play:computer")).status_code == 302  # login required


def test_it_refuses_a_web_game_without_the_engine(client, linked, settings, tmp_path):
    settings.PLAY_ENGINE_PATH = str(tmp_path / "stockfish")
    user, player = linked
    client.force_login(user)
    page = client.get(reverse("play:computer"))
    assert b"install Debian&#x27;s package &#x27;stockfish&#x27;" in page.content
    form = {"player": player.pk, "level": level(1).pk, "side": "white", "control": "3600/40+900/10", "norm": 60}
    response = client.post(reverse("play:computer"), form)
    assert response.status_code == 400 and b"Computer opponents are not available" in response.content
    assert not MobileGame.objects.exists()


def test_it_refuses_a_second_web_game_with_a_level_in_the_visitors_language(client, linked):
    user, player = linked
    client.force_login(user)
    computer.computer_game_create(player=player, level=level(2), side="white")
    form = {"player": player.pk, "level": level(2).pk, "side": "white", "control": "3600/40+900/10", "norm": 60}
    response = client.post(reverse("play:computer"), form, HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 400
    assert "У вас уже идёт партия с уровнем 2." in response.content.decode()
    assert MobileGame.objects.count() == 1


def test_it_rates_a_game_against_the_computer_from_its_start_of_1000(db, django_capture_on_commit_callbacks):
    # Spec, Mchess: the person (0, the lower) loses to the computer (1000), W 250:
    # LRP = 1 / (2 + 1000^2 / 10^6) = 1/3; the computer 1000 + 250 / 3 = 1083, the person floored at 0.
    person = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        game = computer.computer_game_create(player=person, level=level(1), side="white")
    with django_capture_on_commit_callbacks(execute=True):
        say(person, human_move(game))
    game.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert say(person, "RESIGN").applied == "resign"
    game.refresh_from_db()
    assert (game.result, game.rated) == ("0-1", True)
    ratings = dict(PlayerRating.objects.filter(system="mchess").values_list("player_id", "rating"))
    assert ratings == {game.black_id: 1083, person.pk: 0}


def test_it_plays_a_computer_entered_in_an_event(db, django_user_model, django_capture_on_commit_callbacks):
    td = django_user_model.objects.create_user("td", "td@example.org", PASSWORD)
    machine = computer.level_player(level(1))
    person = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        event = services.event_create(
            created_by=td, players=[machine, person], code="with-computer", name="With a computer", td=td,
            start=timezone.now(),
        )  # fmt: skip
    game = event.games.get()
    # Two entrants, the first with White (the circle method's first round): the computer moved at once.
    assert (game.white, game.black, game.plies, len(computer_moves(game))) == (machine, person, 1, 1)


def test_it_queues_again_a_computers_move_that_never_arrived(db):
    person = PlayerFactory()
    # Created outside any on-commit run: the queued move is lost, as when the broker was down.
    game = computer.computer_game_create(player=person, level=level(1), side="black")
    game.refresh_from_db()
    assert (game.plies, game.on_move) == (0, "white")
    assert computer_turn.computer_moves_sweep(now=game.on_move_since) == 0  # within its think time: wait
    late = game.on_move_since + computer_turn.OVERDUE + datetime.timedelta(seconds=level(1).think_seconds + 1)
    assert computer_turn.computer_moves_sweep(now=late) == 1  # queued again (and played at once here)
    game.refresh_from_db()
    assert (game.plies, game.on_move, len(computer_moves(game))) == (1, "black", 1)
    assert computer_turn.computer_moves_sweep(now=late) == 0  # the person's turn now
