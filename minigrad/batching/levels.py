"""The ``vmap`` levels running in this thread: one per ``vmap`` call, innermost last."""

from __future__ import annotations

import contextlib
import itertools
from typing import NamedTuple

from .. import _state

_ids = itertools.count(1)


class Level(NamedTuple):
    """One running ``vmap``: its id (larger for inner calls), batch size and randomness mode."""

    id: int
    size: int
    randomness: str


def active() -> tuple:
    """The running levels, outermost first."""
    return _state.vmap.levels


def find(level_id: int) -> Level:
    for level in _state.vmap.levels:
        if level.id == level_id:
            return level
    raise RuntimeError(f"vmap: a batched tensor of level {level_id} was used outside of its vmap")


@contextlib.contextmanager
def entered(size: int, randomness: str):
    """A new innermost level for the duration of one ``vmap`` call."""
    level = Level(next(_ids), size, randomness)
    state = _state.vmap
    outer = state.levels
    state.levels = outer + (level,)
    try:
        yield level
    finally:
        state.levels = outer
