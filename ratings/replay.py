"""The public entry points of the rating replay, which lives in ratings/timeline/ (one module per
kind of event, the walk in walk.py). Kept so that callers and tests name one stable place."""

from ratings.timeline.keys import START, Key, override_key, penalty_key, since_key, tournament_key
from ratings.timeline.lines import CHANGE_COLUMNS, change_line
from ratings.timeline.state import Standing, Summary
from ratings.timeline.walk import Replay, replay_from

__all__ = [
    "CHANGE_COLUMNS",
    "START",
    "Key",
    "Replay",
    "Standing",
    "Summary",
    "change_line",
    "override_key",
    "penalty_key",
    "replay_from",
    "since_key",
    "tournament_key",
]
