"""Calibration on the engine queue (issue 17: "plays levels against each other ... on the engine
queue"): a run is a set of CalibrationGame rows, each played by a task on the "engine" queue with
the worker's own engine process; the command waits for the rows' results and reads the matches
from them. The pairing (openings in turn, colours alternating) and the scoring are
play.computer.calibrate's, the same as the command's in-process mode."""

from __future__ import annotations

import itertools
import uuid

from django.db import transaction
from django.utils import timezone

from play import queue
from play.computer import calibrate
from play.computer.services import engine_here
from play.models import CalibrationGame, ComputerLevel
from toolkit import queueing


def calibration_queue(*, levels: list[ComputerLevel], games: int, max_plies: int) -> uuid.UUID:
    """Write the games of every neighbour match of `levels` (weaker first) and queue one engine
    task per game once they are committed; returns the run's id."""
    run = uuid.uuid4()
    rows = []
    for weaker, stronger in itertools.pairwise(levels):
        for index in range(games):
            # As calibrate.match: the weaker level has White in even games, openings change every two.
            white, black = (weaker, stronger) if index % 2 == 0 else (stronger, weaker)
            opening = calibrate.OPENINGS[(index // 2) % len(calibrate.OPENINGS)]
            rows.append(CalibrationGame(run=run, white=white, black=black, opening=opening, max_plies=max_plies))
    with transaction.atomic():
        ids = [row.pk for row in CalibrationGame.objects.bulk_create(rows)]
        transaction.on_commit(lambda: _queue(ids))
    return run


def _queue(ids: list[int]) -> None:
    task = queueing.task(queue.CALIBRATION_GAME)
    for game_id in ids:
        task.delay(game_id)


def calibration_game_play(*, game_id: int) -> str:
    """Play one calibration game with this worker's engine and store its result. A game already
    played (a task delivered twice after a worker died) is left as it is."""
    game = CalibrationGame.objects.select_related("white", "black").filter(pk=game_id).first()
    if game is None:
        return "no game"
    if game.result:
        return game.result
    result = calibrate.play_game(
        engine_here(), game.white.strength(), game.black.strength(), opening=game.opening, max_plies=game.max_plies
    )
    CalibrationGame.objects.filter(pk=game_id, result="").update(result=result, finished_at=timezone.now())
    return result


def calibration_progress(run: uuid.UUID) -> tuple[int, int]:
    """(games played, games in the run)."""
    rows = CalibrationGame.objects.filter(run=run)
    return rows.exclude(result="").count(), rows.count()


def calibration_matches(run: uuid.UUID, levels: list[ComputerLevel]) -> list[calibrate.Match]:
    """Each neighbour match of the run from its played games: the weaker level's points."""
    played = list(CalibrationGame.objects.filter(run=run).exclude(result="").values_list("white", "black", "result"))
    matches = []
    for weaker, stronger in itertools.pairwise(levels):
        pair = [(white, result) for white, black, result in played if {white, black} == {weaker.pk, stronger.pk}]
        points = sum(calibrate.points_of(result, white=white == weaker.pk) for white, result in pair)
        matches.append(calibrate.Match(a=weaker.number, b=stronger.number, games=len(pair), points=points))
    return matches
