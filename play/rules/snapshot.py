"""A game's value as bytes for its row, and back (no Django).

Pickle, because a move must cost microseconds to load and store, and the value is a tree of
frozen dataclasses and a python-chess board that pickle already round-trips exactly. The bytes
are only ever written by this code into our own database, never taken from outside. When the
machine's shape changes, bump RULES_VERSION: rows with an older version are rebuilt from the
continuous record (play.state.rebuild) instead of being unpickled.
"""

from __future__ import annotations

import pickle

from play.rules.game import Game

RULES_VERSION = 1


def dump(game: Game) -> bytes:
    return pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)


def load(data: bytes | memoryview) -> Game:
    game = pickle.loads(bytes(data))  # noqa: S301 (our own rows, written by dump above)
    if not isinstance(game, Game):
        raise TypeError(f"a game snapshot holds a Game, not {type(game).__name__}")
    return game
