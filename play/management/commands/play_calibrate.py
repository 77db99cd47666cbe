"""Calibrate the computer levels: each level plays its neighbour (2 against 1, 3 against 2, ...)
engine against engine, and the command reports each match's score and each level's estimated
Elo, chained from the anchor (by default the weakest level with a UCI_Elo, at that Elo).

    manage.py play_calibrate [--levels 1,2,3] [--games 4] [--max-plies 160] [--anchor 5:1500]
                             [--queue | --here] [--wait 3600]

The games are not rated (a level's Mchess rating is earned against people). With a broker
(CELERY_BROKER_URL) they go as tasks to the "engine" queue (`--queue`, the default there): the
engine worker plays them one at a time between the people's moves, never beside a rating run,
and the command waits (at most --wait seconds) for their results, kept as CalibrationGame rows.
`--here` plays them in this command's process with an engine of its own (the default without a
broker, and the tests' way); on a busy 2-core machine run that at night or with `nice`.
"""

from __future__ import annotations

import itertools
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from play.computer import calibrate, calibration, engine, services
from play.models import ComputerLevel


def numbers(value: str) -> list[int]:
    try:
        found = sorted({int(part) for part in value.split(",") if part.strip()})
    except ValueError:
        raise CommandError(f"--levels {value!r}: give level numbers separated by commas, e.g. 1,2,3") from None
    if len(found) < 2:
        raise CommandError("--levels: give at least two levels, so that one can play the other")
    return found


class Command(BaseCommand):
    help = "Play the computer levels against their neighbours and report each level's estimated strength."

    def add_arguments(self, parser):
        parser.add_argument("--levels", default="", help="level numbers, e.g. 1,2,3 (default: every active level)")
        parser.add_argument("--games", type=int, default=4, help="games per pair of neighbours (colours alternate)")
        parser.add_argument("--max-plies", type=int, default=160, help="a longer game is adjudicated on material")
        parser.add_argument("--anchor", default="", help="LEVEL:ELO, the Elo one level is taken to have")
        where = parser.add_mutually_exclusive_group()
        where.add_argument(
            "--queue",
            dest="mode",
            action="store_const",
            const="queue",
            help="play on the engine queue (broker default)",
        )
        where.add_argument("--here", dest="mode", action="store_const", const="here", help="play in this process")
        parser.add_argument("--wait", type=float, default=3600, help="seconds to wait for the queued games")

    def handle(self, *args, levels: str, games: int, max_plies: int, anchor: str, mode=None, wait=3600, **options):
        if games < 1 or max_plies < 2:
            raise CommandError("--games must be at least 1 and --max-plies at least 2")
        if wait <= 0:
            raise CommandError("--wait must be a positive number of seconds")
        # Without a broker the tasks would run in this process anyway (eager): --here is the default.
        mode = mode or ("here" if settings.CELERY_TASK_ALWAYS_EAGER else "queue")
        rows = list(ComputerLevel.objects.filter(active=True).order_by("number"))
        if levels:
            wanted = numbers(levels)
            missing = sorted(set(wanted) - {lv.number for lv in rows})
            if missing:
                raise CommandError(f"--levels: no active level {', '.join(map(str, missing))}")
            rows = [lv for lv in rows if lv.number in wanted]
        chosen = [calibrate.Level(lv.number, lv.name, lv.strength()) for lv in rows]
        fixed = self.anchor(anchor, rows)
        if mode == "queue":
            matches = self.queued(rows, games=games, max_plies=max_plies, wait=wait)
        else:
            matches = self.here(chosen, games=games, max_plies=max_plies)
        estimates = calibrate.estimate(chosen, matches, fixed)
        self.stdout.write(f"\n| Level | Name | Estimated Elo (anchor: level {fixed[0]} at {fixed[1]:g}) |")
        self.stdout.write("|---|---|---|")
        for level in chosen:
            value = estimates.get(level.number)
            self.stdout.write(f"| {level.number} | {level.name} | {round(value) if value is not None else '?'} |")

    def report(self, m: calibrate.Match) -> None:
        self.stdout.write(f"level {m.a} against level {m.b}: {m.points:g}/{m.games} ({100 * m.score:.0f} %)")
        self.stdout.flush()

    def queued(self, rows: list[ComputerLevel], *, games: int, max_plies: int, wait: float) -> list[calibrate.Match]:
        run = calibration.calibration_queue(levels=rows, games=games, max_plies=max_plies)
        done, total = calibration.calibration_progress(run)
        self.stdout.write(f"calibration run {run}: {total} games queued on the engine queue")
        deadline = time.monotonic() + wait
        while done < total:
            if time.monotonic() > deadline:
                raise CommandError(
                    f"run {run}: {done} of {total} games played after {wait:g} s; is an engine worker "
                    "(make engine-worker) running? The rest stay queued."
                )
            time.sleep(1)
            done, total = calibration.calibration_progress(run)
        matches = calibration.calibration_matches(run, rows)
        for m in matches:
            self.report(m)
        return matches

    def here(self, chosen: list[calibrate.Level], *, games: int, max_plies: int) -> list[calibrate.Match]:
        wrapper = engine.Engine(services.engine_config())
        try:
            matches = []
            for weaker, stronger in itertools.pairwise(chosen):
                m = calibrate.match(wrapper, weaker, stronger, games=games, max_plies=max_plies)
                matches.append(m)
                self.report(m)
        except engine.EngineError as error:
            raise CommandError(str(error)) from error
        finally:
            wrapper.close()
        return matches

    def anchor(self, value: str, rows: list[ComputerLevel]) -> tuple[int, float]:
        if value:
            number, colon, elo = value.partition(":")
            try:
                fixed = (int(number), float(elo))
            except ValueError:
                raise CommandError(f"--anchor {value!r}: write LEVEL:ELO, e.g. 5:1500") from None
            if not colon or fixed[0] not in {lv.number for lv in rows}:
                raise CommandError(f"--anchor {value!r}: the level must be one of those calibrated")
            return fixed
        with_elo = [lv for lv in rows if lv.elo is not None]
        if with_elo:
            return with_elo[0].number, float(with_elo[0].elo)
        # No level states an Elo: the estimates are differences from the weakest, put at 0.
        return rows[0].number, 0.0
