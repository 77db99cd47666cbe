"""Computer opponents with a real Celery worker on Redis and PostgreSQL: the engine process killed
in the middle of a search, or the whole worker killed, and the computer's move still arrives,
exactly once."""

from __future__ import annotations

import io
import os
import signal
import time
from pathlib import Path

import pytest
from django.core.management import call_command

from play.computer import services as computer
from play.models import MobileGame, Transmission
from play.tasks import engine_move
from tests.players.factories import PlayerFactory
from tests.worker.conftest import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.needs("stockfish"),
]


def engines_of(group: int) -> list[int]:
    """The Stockfish processes in a worker's process group (its pool child starts them)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2 :].split()
        if comm.startswith("stockfish") and int(fields[2]) == group and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def slow_game():
    """A game in which a slow level (4 s a move) is White, its move not yet queued."""
    slow = computer.level_create(number=20, name="Slow", movetime_ms=4000, think_seconds=3)
    game = computer.computer_game_create(player=PlayerFactory(), level=slow, side="black")
    return game


def moves_of_computer(game: MobileGame):
    return Transmission.objects.filter(game=game, direction="in", external_id=f"engine:{game.pk}:0")


def test_it_replaces_an_engine_killed_mid_search_and_plays_the_move_once(worker_factory):
    worker = worker_factory()
    game = slow_game()
    engine_move.apply_async((game.pk, 0), queue=worker.queue)
    first = wait_for(lambda: engines_of(worker.process.pid), timeout=60, message="the worker's engine to start")
    time.sleep(1)  # inside the 4-second search
    os.kill(first[0], signal.SIGKILL)
    wait_for(lambda: moves_of_computer(game).exists(), timeout=60, message="the computer's move")
    game.refresh_from_db()
    assert game.plies == 1 and moves_of_computer(game).count() == 1
    assert first[0] not in engines_of(worker.process.pid)  # a fresh engine gave the move


def test_it_plays_the_move_once_when_the_whole_worker_dies_mid_move(worker_factory):
    # The broker gives the unacknowledged task to the next worker (acks late; a short visibility
    # timeout here, so the test need not wait an hour).
    worker = worker_factory(CELERY_VISIBILITY_TIMEOUT=5)
    game = slow_game()
    engine_move.apply_async((game.pk, 0), queue=worker.queue)
    wait_for(lambda: engines_of(worker.process.pid), timeout=60, message="the worker's engine to start")
    time.sleep(1)
    worker.kill()
    game.refresh_from_db()
    assert game.plies == 0
    time.sleep(6)  # past the visibility timeout
    worker_factory(CELERY_VISIBILITY_TIMEOUT=5)
    wait_for(lambda: moves_of_computer(game).exists(), timeout=90, message="the move from the new worker")
    time.sleep(2)
    game.refresh_from_db()
    assert game.plies == 1 and moves_of_computer(game).count() == 1


def test_it_plays_a_calibration_run_on_a_real_worker(worker_factory):
    # The engine queue is "engine" in production (checked in tests/play); here the calibration
    # task goes to this test's own queue, so that no other worker can take it.
    from celery.app.routes import MapRoute

    from federation.celery import app
    from play.models import CalibrationGame

    computer.levels_ensure()
    worker = worker_factory()
    # Ahead of the settings' routes in the router Celery built and keeps (app.amqp.router).
    app.amqp.router.routes.insert(0, MapRoute({"play.tasks.calibration_game": {"queue": worker.queue}}))
    out = io.StringIO()
    try:
        call_command(
            "play_calibrate", "--queue", "--levels", "1,2", "--games", "2", "--max-plies", "8", "--wait", "120",
            stdout=out,
        )  # fmt: skip
    finally:
        app.amqp.router.routes.pop(0)
    text = out.getvalue()
    assert "2 games queued on the engine queue" in text and "level 1 against level 2: " in text
    assert "| 1 | Beginner | 0 |" in text
    assert CalibrationGame.objects.exclude(result="").count() == 2
