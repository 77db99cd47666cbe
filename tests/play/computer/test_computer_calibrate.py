"""Calibration of the computer levels: the score-to-difference rule (PlayChess's D(p) of the
spec), estimates chained from an anchor, material adjudication, and `manage.py play_calibrate`."""

from __future__ import annotations

import io
import uuid

import chess
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from play.computer import calibrate, calibration
from play.computer import services as computer
from play.computer.engine import Strength
from play.models import CalibrationGame, ComputerLevel
from tests.optional import stockfish_path


def test_it_turns_a_score_into_a_rating_difference_as_the_spec_does():
    # Spec, PlayChess: D(p) = -400 log10((1 - p) / p), D(0) = -800, D(1) = 800.
    assert calibrate.difference(0.5) == 0
    assert calibrate.difference(1.0) == 800 and calibrate.difference(0.0) == -800
    assert round(calibrate.difference(0.75), 1) == 190.8
    assert round(calibrate.difference(0.25), 1) == -190.8


def test_it_chains_estimates_from_the_anchor_both_ways():
    levels = [calibrate.Level(n, f"L{n}", Strength(depth=1)) for n in (1, 2, 3, 4)]
    matches = [
        calibrate.Match(a=1, b=2, games=4, points=1.0),  # level 1 scores 25 %: level 2 is 190.8 above
        calibrate.Match(a=2, b=3, games=4, points=2.0),  # even
        calibrate.Match(a=3, b=4, games=4, points=0.0),  # level 4 won everything: 800 above
    ]
    found = {n: round(v, 1) for n, v in calibrate.estimate(levels, matches, (2, 1500)).items()}
    assert found == {1: 1309.2, 2: 1500.0, 3: 1500.0, 4: 2300.0}


def test_it_scores_and_adjudicates_games():
    assert calibrate.points_of("1-0", white=True) == 1 and calibrate.points_of("1-0", white=False) == 0
    assert calibrate.points_of("1/2-1/2", white=True) == 0.5
    board = chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    assert calibrate.material(board, chess.WHITE) - calibrate.material(board, chess.BLACK) == 5


@pytest.mark.needs("stockfish")
def test_it_plays_a_game_to_a_result():
    from play.computer.engine import Engine, EngineConfig

    wrapper = Engine(EngineConfig(path=stockfish_path()))
    try:
        result = calibrate.play_game(wrapper, Strength(skill=0, depth=1), Strength(depth=2), max_plies=12)
    finally:
        wrapper.close()
    assert result in ("1-0", "0-1", "1/2-1/2")


@pytest.mark.needs("stockfish")
def test_it_reports_each_levels_estimate_from_the_command_line(ladder):
    out = io.StringIO()
    call_command("play_calibrate", "--levels", "1,2", "--games", "2", "--max-plies", "8", stdout=out)
    text = out.getvalue()
    assert "level 1 against level 2: " in text
    assert "| Level | Name | Estimated Elo (anchor: level 1 at 0) |" in text
    assert "| 1 | Beginner | 0 |" in text and "| 2 | Novice | " in text


@pytest.fixture
def ladder(db):
    computer.levels_ensure()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--levels", "1"], "at least two levels"),
        (["--levels", "1,9"], "no active level 9"),
        (["--levels", "a,b"], "give level numbers separated by commas"),
        (["--games", "0"], "--games must be at least 1"),
        (["--anchor", "9:1500"], "the level must be one of those calibrated"),
        (["--anchor", "x"], "write LEVEL:ELO"),
    ],
)
def test_it_refuses_bad_calibration_requests(ladder, arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("play_calibrate", *arguments, stdout=io.StringIO())


@pytest.fixture
def ladder_committed(transactional_db):
    computer.levels_ensure()


@pytest.mark.needs("stockfish")
@pytest.mark.django_db(transaction=True)
def test_it_plays_a_calibration_run_as_engine_queue_tasks(ladder_committed):
    # Committed for real, so the run's games are queued on commit; with no broker the engine tasks
    # run at once in this process, through the same task and service the engine worker runs.
    out = io.StringIO()
    call_command("play_calibrate", "--queue", "--levels", "1,2", "--games", "2", "--max-plies", "8", stdout=out)
    text = out.getvalue()
    assert "2 games queued on the engine queue" in text
    assert "level 1 against level 2: " in text and "/2 (" in text
    assert "| 1 | Beginner | 0 |" in text and "| 2 | Novice | " in text
    played = list(CalibrationGame.objects.order_by("pk").values_list("white__number", "black__number", "opening"))
    # As calibrate.match: the weaker level has White first, colours alternate, the first opening twice.
    assert played == [(1, 2, calibrate.OPENINGS[0]), (2, 1, calibrate.OPENINGS[0])]
    assert all(r in ("1-0", "0-1", "1/2-1/2") for r in CalibrationGame.objects.values_list("result", flat=True))
    assert not CalibrationGame.objects.filter(finished_at__isnull=True).exists()


def test_it_scores_a_queued_run_from_its_stored_results(ladder):
    levels = list(ComputerLevel.objects.filter(active=True, number__in=(1, 2, 3)).order_by("number"))
    one, two, three = levels
    run = uuid.uuid4()
    for white, black, result in [(one, two, "1-0"), (two, one, "1/2-1/2"), (two, three, "1-0"), (three, two, "")]:
        CalibrationGame.objects.create(run=run, white=white, black=black, max_plies=8, result=result)
    assert calibration.calibration_progress(run) == (3, 4)
    matches = calibration.calibration_matches(run, levels)
    # Level 1 won with White and drew with Black: 1.5 of 2; level 2 won its one played game.
    assert matches == [calibrate.Match(a=1, b=2, games=2, points=1.5), calibrate.Match(a=2, b=3, games=1, points=1.0)]


def test_it_leaves_a_calibration_game_already_played_alone(ladder):
    one, two = ComputerLevel.objects.filter(active=True, number__in=(1, 2)).order_by("number")
    game = CalibrationGame.objects.create(run=uuid.uuid4(), white=one, black=two, max_plies=8, result="0-1")
    # A second delivery of the task (its worker died after the game was stored): nothing is played.
    assert calibration.calibration_game_play(game_id=game.pk) == "0-1"
    game.refresh_from_db()
    assert (game.result, game.finished_at) == ("0-1", None)
    assert calibration.calibration_game_play(game_id=game.pk + 1000) == "no game"


def test_it_refuses_a_wait_that_is_not_positive(ladder):
    with pytest.raises(CommandError, match="--wait must be a positive number of seconds"):
        call_command("play_calibrate", "--queue", "--levels", "1,2", "--wait", "0", stdout=io.StringIO())
    assert not CalibrationGame.objects.exists()


def test_it_routes_calibration_games_to_the_engine_queue():
    from federation.celery import app

    for task in ("play.tasks.calibration_game", "play.tasks.engine_move"):
        assert app.amqp.router.route({}, task, args=(1,), kwargs={})["queue"].name == "engine"
