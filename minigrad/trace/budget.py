"""A recording's memory budget: what gives way, and in which order, when a trace grows too large.

:class:`Budget` sits between the :class:`~minigrad.trace.convert.Converter` and the
:class:`~minigrad.trace.trace.Trace` and counts the bytes the recorded values take
(each snapshot once, however many events share it, as the converter takes it, plus a
fixed cost per event).
When the count passes ``max_bytes``:

1. full values give way to summaries: every value recorded so far is replaced by
   its statistics and later values are recorded as statistics only;
2. if that is not enough, the oldest events become outlines: their values are
   dropped altogether (their ops, shapes, node ids and kinds stay), oldest pass first,
   until the count is back under three quarters of the budget.

The trace remembers where each stage begins (``Trace.summarised_before``,
``Trace.outlined_before``), so ``state_at`` says when a step lies in a reduced
region, and ``Budget.message()`` says in one sentence what was dropped.
"""

from __future__ import annotations

import dataclasses

from ..safeio import format_bytes
from . import events as E
from .snapshot import Snapshot, outline, summary_of

__all__ = ["Budget", "DEFAULT_MAX_BYTES", "event_bytes", "map_snapshots", "snapshot_bytes"]

DEFAULT_MAX_BYTES = 256 * 1024 * 1024
EVENT_BYTES = 200  # an event record, its tuples and its node ids, roughly
SNAPSHOT_BYTES = 250  # a Snapshot record without its values
STATS_BYTES = 450  # a summary: the Stats record, its numbers and its first values


def snapshot_bytes(snap: Snapshot) -> int:
    """The bytes one snapshot holds (its record, and its values or summary)."""
    if snap.dropped:
        return 0  # one shared record per shape and dtype
    if snap.values is not None:
        return SNAPSHOT_BYTES + snap.values.nbytes
    return SNAPSHOT_BYTES + STATS_BYTES


def map_snapshots(value, fn):
    """``value`` (an event, or any field of one) with every Snapshot ``s`` in it replaced by ``fn(s)``;
    the same object when nothing changed."""
    if isinstance(value, Snapshot):
        return fn(value)
    if isinstance(value, tuple):
        out = tuple(map_snapshots(v, fn) for v in value)
        return value if all(a is b for a, b in zip(out, value)) else out
    if isinstance(value, (E.Event, E.NodeInfo, E.Captured)):
        changes = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            if isinstance(v, (Snapshot, tuple, E.NodeInfo, E.Captured)):
                new = map_snapshots(v, fn)
                if new is not v:
                    changes[f.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value  # ints, strings, None, options (plain values), closure and source records


def event_bytes(ev, seen: dict) -> int:
    """The bytes ``ev`` adds to a trace, counting each snapshot not yet in ``seen`` (id -> snapshot)."""
    total = EVENT_BYTES

    def count(snap):
        nonlocal total
        if seen.get(id(snap)) is not snap:
            seen[id(snap)] = snap
            total += snapshot_bytes(snap)
        return snap

    map_snapshots(ev, count)
    return total


class Budget:
    """Keeps ``trace`` within ``max_bytes`` as ``converter`` records into it (``append`` is the sink)."""

    def __init__(self, trace, converter, max_bytes: int = DEFAULT_MAX_BYTES):
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes <= 0:
            raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
        self.trace = trace
        self.converter = converter
        self.max_bytes = max_bytes
        self.used = 0
        self._limit = max_bytes  # make room past this count (raised when even outlines do not fit)
        self._counted = converter.snapshot_bytes  # the converter's count already in self.used

    def append(self, ev) -> None:
        """Add ``ev`` to the trace, then make room when the budget is exceeded."""
        self.trace.append(ev)
        made = self.converter.snapshot_bytes
        self.used += EVENT_BYTES + made - self._counted
        self._counted = made
        if self.used > self._limit:
            self._make_room()
            self._limit = max(self.max_bytes, self.used + self.max_bytes // 4)

    # ------------------------------------------------------------ giving way
    def _make_room(self) -> None:
        trace = self.trace
        if trace.summarised_before is None:
            self.converter.max_values = 0  # from now on: statistics only
            self._rewrite(0, len(trace.events), summary_of)
            trace.summarised_before = len(trace.events)
            self._said()
            if self.used <= self.max_bytes:
                return
        self._outline_oldest()
        self._said()

    def _said(self) -> None:
        self.trace.budget_message = self.message()

    def _outline_oldest(self) -> None:
        """Outline whole passes, oldest first, until the count is under three quarters of the budget."""
        trace = self.trace
        events = trace.events
        target = self.max_bytes * 3 // 4
        start = trace.outlined_before or 0
        seen: dict = {}
        freed = 0
        end = start
        while end < len(events) and self.used - freed > target:
            ev = events[end]
            freed += event_bytes(ev, seen) - EVENT_BYTES
            end += 1
            if ev.pass_id is not None:  # finish the pass this event belongs to
                while end < len(events) and events[end].pass_id == ev.pass_id:
                    freed += event_bytes(events[end], seen) - EVENT_BYTES
                    end += 1
        if end > start:
            self._rewrite(start, end, outline)
            trace.outlined_before = end

    def _rewrite(self, start: int, stop: int, fn) -> None:
        """Replace the snapshots of ``events[start:stop]`` (and of their nodes' records) by ``fn`` of them,
        keeping shared snapshots shared, then recount."""
        trace = self.trace
        done: dict = {}  # id -> (old, new): one new snapshot for each old one

        def swap(snap):
            hit = done.get(id(snap))
            if hit is None or hit[0] is not snap:
                hit = done[id(snap)] = (snap, fn(snap))
            return hit[1]

        trace.rewrite(start, stop, lambda ev: map_snapshots(ev, swap))
        self.recount()

    def recount(self) -> None:
        """Count the bytes of every event again (after the trace's snapshots were replaced)."""
        seen: dict = {}
        self.used = sum(event_bytes(ev, seen) for ev in list(self.trace.events))
        self._counted = self.converter.snapshot_bytes

    def message(self) -> str | None:
        """One sentence saying what the budget dropped, or None when nothing was."""
        trace = self.trace
        if trace.summarised_before is None:
            return None
        limit = format_bytes(self.max_bytes)
        text = (
            f"the recording reached its memory budget of {limit} (max_bytes): values of events "
            f"0..{trace.summarised_before - 1} were replaced by summaries (min/max/mean/norm) and later "
            "values recorded as summaries"
        )
        if trace.outlined_before:
            text += (
                f"; events 0..{trace.outlined_before - 1} (the oldest passes) kept only their outline "
                "(ops, shapes, node ids), their values were dropped"
            )
        return text + "."
