"""Python's cyclic garbage collector kept out of a bulk rating's way (pure: no Django).

A rating replay reads millions of plain tuples that can form no cycle, and every full collection
walked all of them again, in the parent and in the forked child (issue 28's profile: PlayChess
spent a quarter of its CPU in the collector). So: no collection during the read; then
(`read_done()`) what was read is frozen, so that collections skip it (and a forked child's do not
copy its pages by marking them), and the rating collects what it makes, in larger steps. The
replay (ratings.timeline.walk) and the engines' benchmark use the same policy, so the benchmark
measures the engines as a rating run runs them.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Callable, Iterator

# The youngest generation's threshold during the rating (Python's default: 700 allocations).
GC_YOUNGEST = 20_000


@contextlib.contextmanager
def collector_aside() -> Iterator[Callable[[], None]]:
    enabled = gc.isenabled()
    thresholds = gc.get_threshold()
    frozen_before = gc.get_freeze_count()  # a server that froze its start-up objects keeps them so
    gc.disable()

    def read_done() -> None:
        gc.freeze()
        gc.set_threshold(max(thresholds[0], GC_YOUNGEST), *thresholds[1:])
        if enabled:
            gc.enable()

    try:
        yield read_done
    finally:
        if not frozen_before:
            gc.unfreeze()  # what was read is garbage after the run: collectable again
        gc.set_threshold(*thresholds)
        if enabled:
            gc.enable()
