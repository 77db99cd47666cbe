"""Computers in the lists: the public Mchess list hides them unless asked (ranks are then among
people), and /play/computers/ shows each level's rating, games and score against people."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from django.utils import timezone

from play import services, state
from play.computer import selectors
from play.computer import services as computer
from play.models import ComputerLevel
from ratings.models import System
from tests.players.factories import PlayerFactory
from tests.ratings.factories import PlayerRatingFactory


@pytest.fixture(autouse=True)
def _quiet_console(settings):
    settings.PLAY_CONSOLE_STREAM = io.StringIO()


def level(number: int) -> ComputerLevel:
    return ComputerLevel.objects.get(number=number, active=True)


@pytest.fixture(autouse=True)
def _ladder(db):
    # The migration's levels are gone after any transactional test flushed the tables: made again.
    computer.levels_ensure()


@pytest.fixture
def mchess_list(db):
    machine = computer.level_player(level(8))
    PlayerRatingFactory(player=machine, system=System.MCHESS, rating=14000)
    people = [
        PlayerRatingFactory(player=PlayerFactory(family_name="Petrova"), system=System.MCHESS, rating=12000),
        PlayerRatingFactory(player=PlayerFactory(family_name="Ivanov"), system=System.MCHESS, rating=9000),
    ]
    return machine, people


def test_it_hides_computers_from_the_public_mchess_list(client, mchess_list):
    page = client.get(reverse("ratings:list", args=["mchess"]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Petrova" in text and "Ivanov" in text
    assert "level 8 (Full strength)" not in text
    rows = page.context["table"].rows
    assert [row.record.player.family_name for row in rows] == ["Petrova", "Ivanov"]
    assert [row.record.place for row in rows] == [1, 2]  # ranked among people
    assert 'name="computers"' in text  # the filter that shows them


def test_it_shows_computers_in_the_mchess_list_when_asked(client, mchess_list):
    page = client.get(reverse("ratings:list", args=["mchess"]), {"computers": "on"})
    rows = page.context["table"].rows
    assert [row.record.player.family_name for row in rows] == ["Computer", "Petrova", "Ivanov"]
    assert [row.record.place for row in rows] == [1, 2, 3]


@pytest.mark.needs("stockfish")
def test_it_shows_each_levels_rating_games_and_score_against_people(client, db, django_capture_on_commit_callbacks):
    person = PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        game = computer.computer_game_create(player=person, level=level(1), side="black")
    game.refresh_from_db()
    assert game.plies == 1
    # The person replies, the computer answers, then the person resigns: a rated win for level 1.
    board_text = computer.move_message(game, sorted(m.uci() for m in state.load(game).board.legal_moves)[0])
    with django_capture_on_commit_callbacks(execute=True):
        services.message_receive(
            channel="console", sender=str(person.federation_id), text=board_text, arrival=timezone.now()
        )
    with django_capture_on_commit_callbacks(execute=True):
        services.message_receive(
            channel="console", sender=str(person.federation_id), text=f"#{game.code} RESIGN", arrival=timezone.now()
        )
    rows = {row.level.number: row for row in selectors.computers_table()}
    assert (rows[1].games, rows[1].points, rows[1].score) == (1, 1.0, 100.0)
    # Spec, Mchess: 1000 against 0, the lower-rated person loses, W 250: 1000 + 250/3 = 1083.
    assert (rows[1].rating, rows[1].rated) == (1083, True)
    assert (rows[2].games, rows[2].score, rows[2].rating, rows[2].rated) == (0, None, 1000, False)
    page = client.get(reverse("play:computers"))
    text = page.content.decode()
    assert page.status_code == 200
    assert "1. Beginner" in text and "1083" in text and "1.0 / 1 (100.0 %)" in text
