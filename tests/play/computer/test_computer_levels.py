"""Computer levels: the ladder the migration makes, each level's own computer player (Mchess 1000
at the start), revisions that make a new player, the admin, and `manage.py play_engine`."""

from __future__ import annotations

import importlib
import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from play.computer import selectors
from play.computer import services as computer
from play.computer.ladder import LADDER
from play.models import ComputerLevel
from players.models import Player
from ratings.engines import mchess
from tests.base import PASSWORD


def level(number: int) -> ComputerLevel:
    return ComputerLevel.objects.get(number=number, active=True)


@pytest.fixture(autouse=True)
def _ladder(db):
    # The migration's levels are gone after any transactional test flushed the tables: made again.
    computer.levels_ensure()


def test_it_offers_eight_levels_from_a_beginner_to_full_strength(db):
    levels = list(ComputerLevel.objects.filter(active=True).order_by("number"))
    assert [lv.number for lv in levels] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert (levels[0].name, levels[-1].name) == ("Beginner", "Full strength")
    # The weak ones play with a Skill Level and a depth limit, the strong ones with UCI_Elo; the
    # last with neither, bounded by time alone.
    assert [lv.skill for lv in levels[:4]] == [0, 1, 3, 5]
    assert all(lv.depth is not None and lv.elo is None for lv in levels[:4])
    assert [lv.elo for lv in levels[4:7]] == [2000, 2300, 2600]
    assert (levels[7].skill, levels[7].elo, levels[7].movetime_ms) == (None, None, 1000)
    assert all(3 <= lv.think_seconds <= 60 and lv.strength().problems() == [] for lv in levels)


def test_it_ships_the_ladder_in_its_migration_and_makes_it_again_when_gone(db):
    assert importlib.import_module("play.migrations.0009_engine_ladder").LADDER == LADDER
    assert computer.levels_ensure() == 0  # levels exist: nothing made
    ComputerLevel.objects.all().delete()
    assert computer.levels_ensure() == 8
    assert [(lv.number, lv.name) for lv in ComputerLevel.objects.order_by("number")][::7] == [
        (1, "Beginner"),
        (8, "Full strength"),
    ]


def test_it_adds_no_player_until_a_level_first_plays(db):
    assert not Player.objects.filter(kind=Player.Kind.COMPUTER).exists()
    player = computer.level_player(level(3))
    assert (player.kind, player.full_name) == (Player.Kind.COMPUTER, "Computer, level 3 (Casual)")
    assert computer.level_player(level(3)) == player  # made once
    assert Player.objects.filter(kind=Player.Kind.COMPUTER).count() == 1


def test_it_shows_a_new_computer_at_the_mchess_start_of_1000(db):
    assert mchess.initial_rating(computer=True) == 1000
    computer.level_player(level(1))
    rows = selectors.levels_offered()
    assert [(row.level.number, row.rating, row.rated) for row in rows][:2] == [(1, 1000, False), (2, 1000, False)]


def test_it_makes_a_new_player_when_a_levels_engine_settings_change(db):
    old = level(2)
    old_player = computer.level_player(old)
    new = computer.level_revise(level=old, skill=3)
    old.refresh_from_db()
    assert (old.active, old.skill, old.retired_at is not None) == (False, 1, True)
    assert (new.number, new.name, new.skill, new.depth, new.active) == (2, "Novice", 3, 2, True)
    new_player = computer.level_player(new)
    assert new_player != old_player and new_player.full_name == "Computer, level 2 (Novice), revision 2"
    assert level(2) == new


def test_it_changes_a_levels_name_and_think_time_in_place(db):
    old = level(4)
    player = computer.level_player(old)
    same = computer.level_revise(level=old, name="Learner", think_seconds=12)
    assert same.pk == old.pk and (same.name, same.think_seconds, same.player) == ("Learner", 12, player)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"think_seconds": 2}, "greater than or equal to 3"),
        ({"think_seconds": 61}, "less than or equal to 60"),
        ({"depth": None}, "a depth, nodes or move time limit"),
        ({"elo": 1500}, "either a Skill Level or an Elo"),
        ({"skill": 21}, "less than or equal to 20"),
    ],
)
def test_it_refuses_settings_a_level_cannot_play_with(db, changes, message):
    before = level(1).engine_settings()
    with pytest.raises(ValidationError, match=message):
        computer.level_revise(level=level(1), **changes)
    assert level(1).engine_settings() == before and ComputerLevel.objects.count() == 8


def test_it_keeps_a_retired_levels_settings(db):
    old = level(5)
    computer.level_revise(level=old, elo=1600)
    old.refresh_from_db()
    with pytest.raises(computer.ComputerError, match="retired level keeps its settings"):
        computer.level_revise(level=old, elo=1700)


def test_it_revises_a_level_from_the_admin_with_a_new_player(db, client, django_user_model):
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    client.force_login(admin)
    old = level(3)
    old_player = computer.level_player(old)
    url = reverse("admin:play_computerlevel_change", args=[old.pk])
    assert client.get(url).status_code == 200
    form = {"name": "Casual", "skill": "5", "elo": "", "depth": "3", "nodes": "", "movetime_ms": "",
            "think_seconds": "5", "active": "on"}  # fmt: skip
    response = client.post(url, form, follow=True)
    assert response.status_code == 200
    assert b"now a new computer player" in response.content
    new = level(3)
    assert new.pk != old.pk and new.skill == 5 and new.player_id is None
    old.refresh_from_db()
    assert (old.active, old.player, old.skill) == (False, old_player, 3)


def test_it_refuses_an_admin_edit_without_a_search_limit(db, client, django_user_model):
    admin = django_user_model.objects.create_superuser("fedadmin", "admin@example.org", PASSWORD)
    client.force_login(admin)
    old = level(3)
    form = {"name": "Casual", "skill": "4", "elo": "", "depth": "", "nodes": "", "movetime_ms": "",
            "think_seconds": "5", "active": "on"}  # fmt: skip
    response = client.post(reverse("admin:play_computerlevel_change", args=[old.pk]), form)
    assert response.status_code == 200 and b"a depth, nodes or move time limit" in response.content
    assert ComputerLevel.objects.count() == 8 and level(3).depth == 3


@pytest.mark.needs("stockfish")
def test_it_checks_the_installed_engine_from_the_command_line(db):
    out = io.StringIO()
    call_command("play_engine", "check", stdout=out)
    text = out.getvalue()
    assert "engine: Stockfish" in text and "UCI_Elo (spin)" in text
    assert "1. Beginner: {'UCI_LimitStrength': False, 'Skill Level': 0}; skill 0, depth 1; think 5 s" in text


@pytest.mark.needs("stockfish")
def test_it_prints_a_levels_move_and_its_time(db):
    out = io.StringIO()
    # White mates in one (Qxf7#): full strength finds it.
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    call_command("play_engine", "move", "--level", "8", "--fen", fen, stdout=out)
    move, seconds, unit = out.getvalue().split()
    assert (move, unit) == ("h5f7", "s") and float(seconds) >= 0


def test_it_says_what_to_install_when_no_engine_is_there(db, settings, tmp_path):
    settings.PLAY_ENGINE_PATH = str(tmp_path / "stockfish")
    with pytest.raises(CommandError, match="install Debian's package 'stockfish'"):
        call_command("play_engine", "check", stdout=io.StringIO())


@pytest.mark.needs("stockfish")
def test_it_names_the_levels_when_asked_for_one_that_does_not_exist(db):
    with pytest.raises(CommandError, match="no such level; the levels are 1, 2, 3, 4, 5, 6, 7, 8"):
        call_command("play_engine", "move", "--level", "9", stdout=io.StringIO())
