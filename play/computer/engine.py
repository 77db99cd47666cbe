"""The chess engine behind computer opponents: Stockfish (Debian's package `stockfish`) over UCI,
through python-chess. No Django: the caller passes the settings in (`EngineConfig`).

One engine process per worker process, reused for every move (starting Stockfish and loading its
network costs more than a weak level's whole search). A level's strength is sent as UCI options
with each search and python-chess restores the previous values after it, so one process serves
every level. Every call has a time limit: an engine that does not answer in time is killed and a
fresh one started; one that died is restarted before the next call.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import dataclasses
import os
import signal
import threading
import time

import chess
import chess.engine

DEBIAN_PACKAGE = "stockfish"
DEFAULT_PATH = "/usr/games/stockfish"


MATE_SCORE = 100_000


class EngineError(RuntimeError):
    """The engine could not give a move; the message says why, for the user or the admin."""


class EngineMissing(EngineError):
    """No engine binary at the configured path."""


class EngineFailed(EngineError):
    """The engine died or did not answer in time, twice: the caller retries later."""


@dataclasses.dataclass(frozen=True)
class EngineConfig:
    """Where the engine is and how long any one call may take beyond its own search time."""

    path: str = DEFAULT_PATH
    timeout: float = 10.0
    threads: int = 1
    hash_mb: int = 16


@dataclasses.dataclass(frozen=True)
class Strength:
    """A level's engine settings: Skill Level (0-20) and search limits for the weak levels,
    UCI_LimitStrength with UCI_Elo for the strong ones, or neither (full strength). At least one
    limit (depth, nodes or move time) must bound the search."""

    skill: int | None = None
    elo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    movetime: float | None = None  # seconds

    def problems(self) -> list[str]:
        """Why these settings cannot be used (empty when they can)."""
        found = []
        if self.depth is None and self.nodes is None and self.movetime is None:
            found.append("a level needs a depth, nodes or move time limit, or the engine searches forever")
        if self.skill is not None and not 0 <= self.skill <= 20:
            found.append("Skill Level is 0 to 20")
        if self.skill is not None and self.elo is not None:
            # Stockfish ignores Skill Level when UCI_LimitStrength is on: a level with both would
            # not play as its settings say.
            found.append("give either a Skill Level or an Elo, not both")
        for name in ("depth", "nodes", "elo"):
            value = getattr(self, name)
            if value is not None and value < 1:
                found.append(f"{name} must be positive")
        if self.movetime is not None and self.movetime <= 0:
            found.append("move time must be positive")
        return found

    def limit(self) -> chess.engine.Limit:
        return chess.engine.Limit(depth=self.depth, nodes=self.nodes, time=self.movetime)

    def uci_options(self, available: dict[str, chess.engine.Option]) -> dict[str, object]:
        """The UCI options for this strength, clamped to what the binary reports it accepts."""

        def clamp(name: str, value: int) -> int:
            option = available.get(name)
            if option is None or option.min is None or option.max is None:
                return value
            return max(option.min, min(option.max, value))

        options: dict[str, object] = {}
        if "UCI_LimitStrength" in available:
            options["UCI_LimitStrength"] = self.elo is not None
        if self.elo is not None:
            options["UCI_Elo"] = clamp("UCI_Elo", self.elo)
        if "Skill Level" in available:
            options["Skill Level"] = clamp("Skill Level", self.skill if self.skill is not None else 20)
        return options


@dataclasses.dataclass(frozen=True)
class Choice:
    """The engine's move: UCI and SAN, the seconds the call took (engine time), and its evaluation
    in centipawns from the mover's side (mates as +-100000; None when the search reported none)."""

    uci: str
    san: str
    seconds: float
    score: int | None = None


@dataclasses.dataclass(frozen=True)
class EngineInfo:
    name: str
    path: str
    options: dict[str, chess.engine.Option]


def check_installed(path: str) -> None:
    """Raise EngineMissing naming the Debian package when there is no executable at `path`."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise EngineMissing(
            f"No chess engine at {path}: install Debian's package '{DEBIAN_PACKAGE}' "
            f"(apt-get install {DEBIAN_PACKAGE}) or set PLAY_ENGINE_PATH."
        )


class Engine:
    """One engine process, started on first use, restarted when it died or hung."""

    def __init__(self, config: EngineConfig):
        self.config = config
        self._engine: chess.engine.SimpleEngine | None = None
        self._lock = threading.Lock()
        self.starts = 0  # how many processes this wrapper has started (tests and the check command)

    # --- the process ---------------------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        return self._engine.transport.get_pid() if self._engine is not None else None

    def _alive(self) -> bool:
        engine = self._engine
        return engine is not None and not engine.returncode.done() and engine.transport.get_returncode() is None

    def _start(self) -> chess.engine.SimpleEngine:
        check_installed(self.config.path)
        try:
            engine = chess.engine.SimpleEngine.popen_uci(self.config.path, timeout=self.config.timeout)
        except (OSError, chess.engine.EngineError, TimeoutError) as error:
            raise EngineFailed(f"the engine at {self.config.path} did not start: {error!r}") from error
        self.starts += 1
        wanted = {"Threads": self.config.threads, "Hash": self.config.hash_mb}
        engine.configure({name: value for name, value in wanted.items() if name in engine.options})
        self._engine = engine
        return engine

    def _running(self) -> chess.engine.SimpleEngine:
        if not self._alive():
            self.kill()
            return self._start()
        return self._engine

    def kill(self) -> None:
        """End the process at once (a hung engine does not answer `quit`)."""
        engine, self._engine = self._engine, None
        if engine is None:
            return
        pid = engine.transport.get_pid()
        with contextlib.suppress(ProcessLookupError, OSError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(Exception):
            engine.close()

    def close(self) -> None:
        """A polite end (quit), falling back to a kill."""
        engine = self._engine
        if engine is None:
            return
        # Whatever state it is in (dead, hung, its loop gone), it is killed next.
        with contextlib.suppress(Exception):
            engine.quit()
        self.kill()

    # --- calls ---------------------------------------------------------------------------------

    def describe(self) -> EngineInfo:
        with self._lock:
            engine = self._running()
            return EngineInfo(name=engine.id.get("name", "?"), path=self.config.path, options=dict(engine.options))

    def choose(self, fen: str, strength: Strength, *, game_key: object = None) -> Choice:
        """The engine's move in the position `fen` at this strength. A dead or hung engine is
        replaced and the search tried once more; a second failure raises EngineFailed."""
        problems = strength.problems()
        if problems:
            raise EngineError("; ".join(problems))
        try:
            board = chess.Board(fen)
        except ValueError as error:
            raise EngineError(f"not a position: {fen!r} ({error})") from error
        if board.is_game_over():
            raise EngineError("the game is over in this position: there is no move to choose")
        with self._lock:
            last: BaseException | None = None
            for _attempt in range(2):
                engine = self._running()
                began = time.monotonic()
                try:
                    move, score = self._play(engine, board, strength, game_key)
                except (
                    chess.engine.EngineError,
                    TimeoutError,  # asyncio's and concurrent.futures' are this one since Python 3.11
                    asyncio.CancelledError,
                    concurrent.futures.CancelledError,
                    RuntimeError,
                    OSError,
                ) as error:
                    last = error
                    self.kill()
                    continue
                return Choice(uci=move.uci(), san=board.san(move), seconds=time.monotonic() - began, score=score)
            raise EngineFailed(f"the engine failed twice: {last!r}")

    def _play(
        self, engine: chess.engine.SimpleEngine, board: chess.Board, strength: Strength, game_key
    ) -> tuple[chess.Move, int | None]:
        # The time limit covers every call, a depth or nodes search too (python-chess only bounds
        # searches given a time): the search's own time plus the configured allowance.
        timeout = self.config.timeout + (strength.movetime or 0)
        coro = asyncio.wait_for(
            engine.protocol.play(
                board,
                strength.limit(),
                game=game_key,
                info=chess.engine.INFO_SCORE,
                options=strength.uci_options(engine.options),
            ),
            timeout,
        )
        future = asyncio.run_coroutine_threadsafe(coro, engine.protocol.loop)
        try:
            result = future.result(timeout + 1)
        except TimeoutError:
            future.cancel()
            raise
        if result.move is None:
            raise chess.engine.EngineError("the engine gave no move")
        score = result.info.get("score")
        return result.move, (score.pov(board.turn).score(mate_score=MATE_SCORE) if score is not None else None)


# --- one engine per worker process ---------------------------------------------------------------

_engines: dict[tuple[int, EngineConfig], Engine] = {}
_engines_lock = threading.Lock()


def engine_for(config: EngineConfig) -> Engine:
    """This process's engine for `config`, made on first use. Keyed by process id too: a worker
    forked from a parent that had one starts its own (a process cannot share another's pipes)."""
    key = (os.getpid(), config)
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            engine = _engines[key] = Engine(config)
        return engine


def shutdown_all() -> None:
    with _engines_lock:
        engines = list(_engines.values())
        _engines.clear()
    for engine in engines:
        engine.close()


# python-chess runs each engine's event loop in a non-daemon thread, and the interpreter joins such
# threads before it runs atexit handlers: a process that used the engine would never exit. This hook
# (the one concurrent.futures uses) runs before that join, and ends the engines.
_register = getattr(threading, "_register_atexit", None)
if _register is not None:
    _register(shutdown_all)
else:  # pragma: no cover - every supported Python has it
    import atexit

    atexit.register(shutdown_all)
