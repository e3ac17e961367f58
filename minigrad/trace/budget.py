"""A recording's memory budget: what gives way, and in which order, when a trace grows too large.

:class:`Budget` sits between the :class:`~minigrad.trace.convert.Converter` and the
:class:`~minigrad.trace.trace.Trace` and counts the bytes the trace holds: the recorded
values (each snapshot once, however many events share it, as the converter takes it),
plus a fixed cost per event and per node record (measured: what an event's record,
its tuples and the trace's and converter's entries for a node take).
When the count passes ``max_bytes``:

1. full values give way to summaries: every value recorded so far is replaced by
   its statistics and later values are recorded as statistics only (except values of
   at most ``KEPT_WHOLE`` elements, which take no more than their summary);
2. if that is not enough, the oldest passes are dropped whole, with the forward events
   before them, until the count is back under three quarters of the budget
   (:meth:`~minigrad.trace.trace.Trace.drop`: the creation of each node a later event
   still refers to is kept, the trace is renumbered from 0, and ``Trace.dropped`` says
   which passes went). Only a pass that is over can be dropped: a single pass larger
   than the budget is kept whole.

So however long the run, the trace holds about ``max_bytes`` (within 1.5 times it, as
the tests measure with tracemalloc). The trace remembers where summaries begin
(``Trace.summarised_before``), ``state_at`` says it at each step (``State.reduced``,
``State.dropped``), and ``Budget.message()`` says in one sentence what was dropped.
"""

from __future__ import annotations

import array
import dataclasses
import math

from ..safeio import format_bytes
from . import events as E
from .snapshot import Snapshot, summary_of

__all__ = ["Budget", "DEFAULT_MAX_BYTES", "event_bytes", "map_snapshots", "record_bytes", "snapshot_bytes"]

DEFAULT_MAX_BYTES = 256 * 1024 * 1024
# Fixed costs, set from tracemalloc: with them the count of a training loop's trace comes out at 1 to 1.3
# times what the trace really holds (200 bytes an event and nothing for a node undercounted it).
EVENT_BYTES = 450  # an event record, its tuples, its node ids and its list slot
NODE_BYTES = 600  # a node's record in the trace and the converter, beyond its node_created event
SNAPSHOT_BYTES = 320  # a Snapshot record and its array's, without the values (measured: 300 to 330)
STATS_BYTES = 400  # a summary: the Stats record, its numbers and its first values (measured: 250 to 650)
KEPT_WHOLE = STATS_BYTES // 8  # values of this many elements or fewer take no more than their summary


def snapshot_bytes(snap: Snapshot) -> int:
    """The bytes one snapshot holds (its record, and its values or summary)."""
    if snap.dropped:
        return 0  # one shared record per shape and dtype
    if snap.values is not None:
        return SNAPSHOT_BYTES + snap.values.nbytes
    return SNAPSHOT_BYTES + STATS_BYTES


def record_bytes(record: tuple) -> int:
    """:func:`snapshot_bytes` of a snapshot record (:func:`~minigrad.trace.snapshot.snapshot_record`)."""
    values = record[4]
    return SNAPSHOT_BYTES + (STATS_BYTES if values is None else values.nbytes)


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
        for name in _field_names(type(value)):
            v = getattr(value, name)
            if isinstance(v, (Snapshot, tuple, E.NodeInfo, E.Captured)):
                new = map_snapshots(v, fn)
                if new is not v:
                    changes[name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value  # ints, strings, None, options (plain values), closure and source records


_FIELD_NAMES: dict = {}


def _field_names(cls) -> tuple:
    """The field names of a record class, once (``dataclasses.fields`` makes a tuple at each call)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def event_bytes(ev, seen: dict) -> int:
    """The bytes ``ev`` adds to a trace, counting each snapshot not yet in ``seen`` (id -> snapshot)."""
    total = EVENT_BYTES + (NODE_BYTES if isinstance(ev, E.NodeCreated) else 0)

    def count(snap):
        nonlocal total
        if seen.get(id(snap)) is not snap:
            seen[id(snap)] = snap
            total += snapshot_bytes(snap)
        return snap

    map_snapshots(ev, count)
    return total


def _summarised(snap: Snapshot) -> Snapshot:
    """The snapshot's summary, unless its values take no more than a summary would."""
    if snap.values is not None and snap.values.size <= KEPT_WHOLE:
        return snap
    return summary_of(snap)


class Budget:
    """Keeps ``trace`` within ``max_bytes`` as ``converter`` records into it (``append`` is the sink).

    The converter counts the bytes of what it delivers (``Converter.recorded_bytes``), notes the count after
    each event in ``marks`` and calls back when it passes the limit set here: an event costs the budget no
    call of its own until then."""

    def __init__(self, trace, converter, max_bytes: int = DEFAULT_MAX_BYTES):
        if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes <= 0:
            raise ValueError(f"max_bytes must be a positive int, got {max_bytes!r}")
        self.trace = trace
        self.converter = converter
        self.max_bytes = max_bytes
        self.used = 0
        self._costs = array.array("q")  # what each event of the trace counts for (its first snapshots' bytes)
        self._marks = array.array("q")  # the converter's count after each event since _costs was last brought up
        self._mark = converter.recorded_bytes  # the count when it was
        self._limit = max_bytes  # make room past this count (raised while one pass alone is over it)
        self._offset = converter.recorded_bytes  # the converter's count of what is not in this trace
        self.append_record = trace.append_record  # a compact record goes straight to the trace
        converter.marks = self._marks
        converter.over_budget = self._over_budget
        converter.byte_limit = self._offset + self._limit

    def append(self, ev) -> None:
        """Add ``ev`` to the trace (the converter counts it: see :meth:`_over_budget`)."""
        self.trace.append(ev)

    def close(self) -> None:
        """The recording ended: the converter lets go of this budget (its trace is then freed as soon as
        nobody holds it, not at the next full garbage collection)."""
        self.converter.marks = None
        self.converter.over_budget = None
        self.converter.byte_limit = math.inf

    def _over_budget(self) -> None:
        """The converter's count passed the limit: make room (dropping older passes renumbers the event just
        delivered in place), then set the next limit."""
        self.used = self.converter.recorded_bytes - self._offset
        if self.used > self._limit:
            self._make_room()
            self._limit = max(self.max_bytes, self.used + self.max_bytes // 4)
        self.converter.byte_limit = self._offset + self._limit

    def _bring_up_costs(self) -> None:
        """Each event's cost from the converter's counts noted since the last time."""
        costs, prev = self._costs, self._mark
        for mark in self._marks:
            costs.append(mark - prev)
            prev = mark
        self._mark = prev
        del self._marks[:]

    # ------------------------------------------------------------ giving way
    def _make_room(self) -> None:
        trace = self.trace
        if trace.summarised_before is None:
            self.converter.max_values = KEPT_WHOLE  # from now on: statistics only, but for the smallest values
            self._rewrite(0, len(trace.events), _summarised)
            trace.summarised_before = len(trace.events)
            self._said()
            if self.used <= self.max_bytes:
                return
        self._drop_oldest()
        self._said()

    def _said(self) -> None:
        self.trace.budget_message = self.message()

    def _drop_oldest(self) -> None:
        """Drop whole passes, oldest first, until the count is under three quarters of the budget (or no
        finished pass is left to drop)."""
        self._bring_up_costs()
        events, costs = self.trace.events, self._costs
        target = self.max_bytes * 3 // 4
        active: dict = {}  # pass id -> depth, of the passes started and not ended at the walk's position
        freed = 0
        cut = 0  # the last position after a pass where no pass is active
        for i in range(len(events) - 1):  # the event just appended stays
            ev = events[i]
            freed += costs[i]
            if isinstance(ev, E.PassStarted):
                active[ev.pass_id] = ev.depth
            elif isinstance(ev, (E.PassFinished, E.ErrorEvent)) and ev.pass_id in active:
                depth = active.pop(ev.pass_id)
                for nested in [p for p, d in active.items() if d > depth]:
                    del active[nested]
                if not active:
                    cut = i + 1
                    if self.used - freed <= target:
                        break
        if cut:
            forgotten, kept_at = self.trace.drop(cut)
            self.converter.forget(forgotten, len(events))
            self._costs = array.array("q", [costs[i] for i in kept_at]) + costs[cut:]
            self.used = sum(self._costs)
            self._offset = self.converter.recorded_bytes - self.used

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
        self._costs = array.array("q", (event_bytes(ev, seen) for ev in list(self.trace.events)))
        del self._marks[:]
        self._mark = self.converter.recorded_bytes
        self.used = sum(self._costs)
        self._offset = self._mark - self.used

    def message(self) -> str | None:
        """One sentence saying what the budget dropped, or None when nothing was."""
        trace = self.trace
        if trace.summarised_before is None:
            return None
        limit = format_bytes(self.max_bytes)
        text = f"the recording reached its memory budget of {limit} (max_bytes): "
        if trace.summarised_before:
            text += (
                f"values of events 0..{trace.summarised_before - 1} were replaced by summaries (min/max/mean/norm) "
                "and later values recorded as summaries"
            )
        else:
            text += "values were recorded as summaries (min/max/mean/norm)"
        if trace.dropped is not None:
            text += f"; {trace.dropped}"
        return text + "."
