"""Version counters: how many times a tensor's memory was written in place.

A counter belongs to a block of memory (the array that owns it), so a tensor,
its views and its ``detach()`` share one, as they do in PyTorch. Arrays that
were never written in place have no counter (version 0), so making a tensor
costs nothing here.

Each write is stamped with a fresh tensor id (ids only grow). A graph node
saved its values when it was made, so a saved array was changed after saving
exactly when its memory has a write stamped later than the node's id; the
engine tests the cheap global ``clock.last`` first and looks closer only then.
"""

from __future__ import annotations

import bisect
import weakref

__all__ = ["clock", "rebased", "owner_of", "version", "bump", "changed_after", "version_at"]

# Stamps kept per counter, enough to say which version a node saw; an older node
# (made more than this many writes ago) is reported with the oldest version known.
_KEPT_STAMPS = 1024


class _Clock:
    """``last``: the stamp of the latest in-place write anywhere (0 before any)."""

    last = 0


class _Counter:
    __slots__ = ("version", "stamps", "owner", "__weakref__")

    def __init__(self, owner):
        self.version = 0
        self.stamps = []
        self.owner = owner  # called, gives the owning array (a weak reference to it, mostly)


clock = _Clock()
# Tensors an in-place op turned into a new node while older nodes still point at them (see ops.inplace).
rebased: weakref.WeakValueDictionary = weakref.WeakValueDictionary()  # id -> tensor
_counters: dict = {}


def owner_of(arr):
    """The array that owns ``arr``'s memory (``arr`` itself when it is not a view of another array)."""
    while True:
        base = getattr(arr, "base", None)
        if base is None or not hasattr(base, "base"):
            return arr
        arr = base


def _counter(arr, create: bool):
    owner = owner_of(arr)
    key = id(owner)
    c = _counters.get(key)
    if c is not None:
        if c.owner() is owner:
            return c
        del _counters[key]
    if not create:
        return None
    try:
        c = _Counter(weakref.ref(owner))
        weakref.finalize(owner, _counters.pop, key, None)
    except TypeError:  # an array type without weak references: hold it (a call returns it, like a reference)
        c = _Counter(lambda: owner)
    _counters[key] = c
    return c


def version(arr) -> int:
    """How many in-place writes the memory of ``arr`` has seen."""
    if not _counters:
        return 0
    owner = arr if getattr(arr, "base", None) is None else owner_of(arr)  # recorders ask for every value
    c = _counters.get(id(owner))
    return 0 if c is None or c.owner() is not owner else c.version


def bump(arr, stamp: int) -> int:
    """Record one in-place write of ``arr``'s memory at ``stamp``; returns the new version.

    Optimizers call this for every parameter at every step, so the common case
    (an array that owns its memory and already has a counter) is kept short.
    """
    owner = arr if arr.base is None else owner_of(arr)
    c = _counters.get(id(owner))
    if c is None or c.owner() is not owner:
        c = _counter(owner, True)
    c.version += 1
    stamps = c.stamps
    stamps.append(stamp)
    if len(stamps) > 2 * _KEPT_STAMPS:
        del stamps[:_KEPT_STAMPS]
    clock.last = stamp
    return c.version


def changed_after(arr, stamp: int) -> bool:
    """Whether ``arr``'s memory was written in place after ``stamp``."""
    c = _counter(arr, False)
    return c is not None and bool(c.stamps) and c.stamps[-1] > stamp


def version_at(arr, stamp: int) -> int:
    """The version ``arr``'s memory had at ``stamp``."""
    c = _counter(arr, False)
    if c is None:
        return 0
    later = len(c.stamps) - bisect.bisect_right(c.stamps, stamp)
    return c.version - later
