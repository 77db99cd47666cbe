"""The engine wrapper (play/computer/engine.py) against the real Stockfish binary: moves at each
kind of strength, options clamped to what the binary accepts, a dead or hung engine replaced."""

from __future__ import annotations

import os
import signal

import chess
import pytest

from play.computer import engine as eng
from tests.optional import stockfish_path

START = chess.STARTING_FEN
# White mates in one: Qh5xf7 (scholar's mate).
MATE_IN_ONE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


@pytest.fixture
def engine():
    wrapper = eng.Engine(eng.EngineConfig(path=stockfish_path(), timeout=5.0))
    yield wrapper
    wrapper.close()


def test_it_refuses_a_level_without_a_search_limit():
    assert eng.Strength(skill=3).problems() == [
        "a level needs a depth, nodes or move time limit, or the engine searches forever"
    ]
    assert "give either a Skill Level or an Elo, not both" in eng.Strength(skill=3, elo=1500, depth=2).problems()
    assert "Skill Level is 0 to 20" in eng.Strength(skill=21, depth=2).problems()
    assert eng.Strength(skill=0, depth=1).problems() == []


def test_it_clamps_elo_and_skill_to_what_the_binary_reports():
    options = {
        "UCI_Elo": chess.engine.Option("UCI_Elo", "spin", 1350, 1350, 2850, []),
        "UCI_LimitStrength": chess.engine.Option("UCI_LimitStrength", "check", False, None, None, []),
        "Skill Level": chess.engine.Option("Skill Level", "spin", 20, 0, 20, []),
    }
    assert eng.Strength(elo=800, movetime=0.1).uci_options(options) == {
        "UCI_LimitStrength": True,
        "UCI_Elo": 1350,
        "Skill Level": 20,
    }
    assert eng.Strength(elo=3500, movetime=0.1).uci_options(options)["UCI_Elo"] == 2850
    assert eng.Strength(skill=2, depth=1).uci_options(options) == {"UCI_LimitStrength": False, "Skill Level": 2}
    # A binary without these options gets none of them.
    assert eng.Strength(skill=2, elo=None, depth=1).uci_options({}) == {}


def test_it_names_the_debian_package_when_the_binary_is_missing(tmp_path):
    missing = eng.Engine(eng.EngineConfig(path=str(tmp_path / "no-stockfish")))
    with pytest.raises(eng.EngineMissing, match="install Debian's package 'stockfish'"):
        missing.choose(START, eng.Strength(skill=0, depth=1))


@pytest.mark.needs("stockfish")
def test_it_describes_the_installed_engine(engine):
    info = engine.describe()
    assert info.name.startswith("Stockfish")
    assert {"Skill Level", "UCI_LimitStrength", "UCI_Elo"} <= set(info.options)


@pytest.mark.needs("stockfish")
def test_it_plays_a_legal_move_at_weak_and_strong_strengths(engine):
    board = chess.Board(START)
    weak = engine.choose(START, eng.Strength(skill=0, depth=1))
    assert chess.Move.from_uci(weak.uci) in board.legal_moves
    assert weak.san == board.san(chess.Move.from_uci(weak.uci))
    strong = engine.choose(START, eng.Strength(elo=2000, movetime=0.05))
    assert chess.Move.from_uci(strong.uci) in board.legal_moves
    assert weak.seconds >= 0 and strong.seconds >= 0


@pytest.mark.needs("stockfish")
def test_it_finds_mate_in_one_at_full_strength(engine):
    choice = engine.choose(MATE_IN_ONE, eng.Strength(depth=5))
    assert choice.san == "Qxf7#"


@pytest.mark.needs("stockfish")
def test_it_reuses_one_process_for_many_moves(engine):
    for _ in range(3):
        engine.choose(START, eng.Strength(skill=5, nodes=200))
    assert engine.starts == 1


@pytest.mark.needs("stockfish")
def test_it_restarts_an_engine_that_died(engine):
    engine.choose(START, eng.Strength(skill=0, depth=1))
    first = engine.pid
    os.kill(first, signal.SIGKILL)
    choice = engine.choose(START, eng.Strength(skill=0, depth=1))
    assert chess.Move.from_uci(choice.uci) in chess.Board().legal_moves
    assert engine.pid != first
    assert engine.starts == 2


@pytest.mark.needs("stockfish")
def test_it_kills_and_replaces_an_engine_that_hangs():
    # A stopped process never answers: the call's time limit ends the wait, the process is killed
    # and a fresh one gives the move.
    wrapper = eng.Engine(eng.EngineConfig(path=stockfish_path(), timeout=1.0))
    try:
        wrapper.choose(START, eng.Strength(skill=0, depth=1))
        hung = wrapper.pid
        os.kill(hung, signal.SIGSTOP)
        choice = wrapper.choose(START, eng.Strength(skill=0, depth=1))
        assert chess.Move.from_uci(choice.uci) in chess.Board().legal_moves
        assert wrapper.pid != hung
        assert wrapper.starts == 2
        with pytest.raises(ProcessLookupError):
            os.kill(hung, 0)  # gone (killed and reaped), not left stopped
    finally:
        wrapper.close()


@pytest.mark.needs("stockfish")
def test_it_keeps_one_engine_per_process_and_config():
    config = eng.EngineConfig(path=stockfish_path(), timeout=5.0)
    try:
        assert eng.engine_for(config) is eng.engine_for(config)
        assert eng.engine_for(config) is not eng.engine_for(eng.EngineConfig(path=stockfish_path(), timeout=6.0))
    finally:
        eng.shutdown_all()


def test_it_refuses_a_position_that_is_over_or_malformed(engine):
    with pytest.raises(eng.EngineError, match="not a position"):
        engine.choose("not a fen", eng.Strength(depth=1))
    mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    with pytest.raises(eng.EngineError, match="game is over"):
        engine.choose(mated, eng.Strength(depth=1))
