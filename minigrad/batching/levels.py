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


def active_replicated() -> tuple:
    """The ids of the running levels whose entries are all the same (:func:`replicated`)."""
    return _state.vmap.replicated


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


@contextlib.contextmanager
def replicated():
    """The innermost level's entries are all the same for the duration (``jacrev`` running its function on
    its inputs, before the cotangents come in): a custom Function without vmap support may then run once
    for every entry (:mod:`.function`), as under ``torch.func.jacrev``, which runs the function unbatched."""
    state = _state.vmap
    outer = state.replicated
    state.replicated = outer + (state.levels[-1].id,)
    try:
        yield
    finally:
        state.replicated = outer
