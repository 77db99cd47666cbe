"""Calibrate the computer levels: each level plays its neighbour (2 against 1, 3 against 2, ...)
engine against engine, and the command reports each match's score and each level's estimated
Elo, chained from the anchor (by default the weakest level with a UCI_Elo, at that Elo).

    manage.py play_calibrate [--levels 1,2,3] [--games 4] [--max-plies 160] [--anchor 5:1500]

The games are not stored and not rated (a level's Mchess rating is earned against people). They
run in this command's process with an engine of its own, so the engine worker's games are not
kept waiting; on a busy 2-core machine run it at night or with `nice`.
"""

from __future__ import annotations

import itertools

from django.core.management.base import BaseCommand, CommandError

from play.computer import calibrate, engine, services
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

    def handle(self, *args, levels: str, games: int, max_plies: int, anchor: str, **options):
        if games < 1 or max_plies < 2:
            raise CommandError("--games must be at least 1 and --max-plies at least 2")
        rows = list(ComputerLevel.objects.filter(active=True).order_by("number"))
        if levels:
            wanted = numbers(levels)
            missing = sorted(set(wanted) - {lv.number for lv in rows})
            if missing:
                raise CommandError(f"--levels: no active level {', '.join(map(str, missing))}")
            rows = [lv for lv in rows if lv.number in wanted]
        chosen = [calibrate.Level(lv.number, lv.name, lv.strength()) for lv in rows]
        fixed = self.anchor(anchor, rows)
        wrapper = engine.Engine(services.engine_config())
        try:
            matches = []
            for weaker, stronger in itertools.pairwise(chosen):
                m = calibrate.match(wrapper, weaker, stronger, games=games, max_plies=max_plies)
                matches.append(m)
                self.stdout.write(
                    f"level {m.a} against level {m.b}: {m.points:g}/{m.games} ({100 * m.score:.0f} %)", ending="\n"
                )
                self.stdout.flush()
        except engine.EngineError as error:
            raise CommandError(str(error)) from error
        finally:
            wrapper.close()
        estimates = calibrate.estimate(chosen, matches, fixed)
        self.stdout.write(f"\n| Level | Name | Estimated Elo (anchor: level {fixed[0]} at {fixed[1]:g}) |")
        self.stdout.write("|---|---|---|")
        for level in chosen:
            value = estimates.get(level.number)
            self.stdout.write(f"| {level.number} | {level.name} | {round(value) if value is not None else '?'} |")

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
