"""The chess engine behind computer opponents, for admins tuning levels.

    manage.py play_engine check                       what is installed: path, name, UCI options
    manage.py play_engine move --level 3 --fen FEN    the level's move (UCI) and the time it took

`check` exits non-zero when no engine is installed (Debian's package `stockfish`).
"""

from __future__ import annotations

import chess
from django.core.management.base import BaseCommand, CommandError

from play.computer import engine, services
from play.models import ComputerLevel


class Command(BaseCommand):
    help = "Check the chess engine of computer opponents, or ask a level for its move in a position."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        sub.add_parser("check", help="what engine is installed, its version and options")
        move = sub.add_parser("move", help="a level's move in a position, and the time it took")
        move.add_argument("--level", type=int, required=True, help="the level's number (an active level)")
        move.add_argument("--fen", default=chess.STARTING_FEN, help="the position (default: the start)")

    def handle(self, *args, action: str, **options):
        config = services.engine_config()
        try:
            engine.check_installed(config.path)
            if action == "check":
                self.engine_check(config)
            else:
                self.engine_move(config, options["level"], options["fen"])
        except engine.EngineError as error:
            raise CommandError(str(error)) from error

    def engine_check(self, config: engine.EngineConfig) -> None:
        wrapper = engine.Engine(config)
        try:
            info = wrapper.describe()
        finally:
            wrapper.close()
        self.stdout.write(f"engine: {info.name}\npath: {info.path}\ncall time limit: {config.timeout:g} s\noptions:")
        for name, option in sorted(info.options.items()):
            bounds = f" [{option.min}..{option.max}]" if option.min is not None and option.max is not None else ""
            self.stdout.write(f"  {name} ({option.type}) default {option.default!r}{bounds}")
        self.stdout.write("levels:")
        for level in ComputerLevel.objects.filter(active=True).order_by("number"):
            sent = level.strength().uci_options(info.options)
            limit = ", ".join(f"{k} {v}" for k, v in level.engine_settings().items() if v is not None and k != "elo")
            self.stdout.write(f"  {level.number}. {level.name}: {sent}; {limit}; think {level.think_seconds} s")

    def engine_move(self, config: engine.EngineConfig, number: int, fen: str) -> None:
        level = ComputerLevel.objects.filter(number=number, active=True).first()
        if level is None:
            numbers = ", ".join(
                str(n) for n in ComputerLevel.objects.filter(active=True).values_list("number", flat=True)
            )
            raise CommandError(f"--level {number}: no such level; the levels are {numbers}")
        wrapper = engine.Engine(config)
        try:
            choice = wrapper.choose(fen, level.strength())
        finally:
            wrapper.close()
        self.stdout.write(f"{choice.uci} {choice.seconds:.3f} s")
