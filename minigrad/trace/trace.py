"""Trace: the recorded events of a run, its graph, and its state at any step.

Saved as JSON Lines (see :mod:`~minigrad.trace.files`): a header record
``{"format": "minigrad-trace", "version": 3, ...}`` then one event per line, each line
with the CRC-32 of its record.
"""

from __future__ import annotations

import bisect
import dataclasses
import threading

from ..safeio import DEFAULT_MAX_BYTES
from . import events as E
from .files import FORMAT_NAME, SCHEMA_VERSION, TraceFormatError, read_trace, write_trace
from .records import build as build_record
from .state import Replay, State

__all__ = ["Trace", "Dropped", "TraceFormatError", "SCHEMA_VERSION", "FORMAT_NAME"]

_CHECKPOINT_EVERY = 256  # least events between two replay checkpoints


@dataclasses.dataclass(frozen=True)
class Dropped:
    """The oldest passes a recording's memory budget dropped whole (with the forward events before them).

    ``passes``: how many; ``pass_ids``: their ids, oldest first, as a range (ids of passes
    recorded elsewhere, such as another thread's, may fall inside it); ``events``: how many
    events went with them. The trace's steps are numbered from the first event kept.
    """

    passes: int
    first_pass: int
    last_pass: int
    events: int

    @property
    def pass_ids(self) -> range:
        return range(self.first_pass, self.last_pass + 1)

    def __str__(self) -> str:
        ids = f"pass {self.first_pass}" if self.passes == 1 else f"passes {self.first_pass}..{self.last_pass}"
        return (
            f"the {self.passes} earliest {'pass' if self.passes == 1 else 'passes'} ({ids}, {self.events} events) "
            "were dropped to keep the recording within its memory budget (record(max_bytes=...))"
        )

    def then(self, passes: int, first_pass: int, last_pass: int, events: int) -> Dropped:
        """These dropped passes followed by the next ones dropped."""
        return Dropped(self.passes + passes, self.first_pass, last_pass, self.events + events)

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, d) -> Dropped:
        if not isinstance(d, dict) or set(d) != {f.name for f in dataclasses.fields(cls)}:
            raise ValueError(f"expected {{'passes', 'first_pass', 'last_pass', 'events'}}, got {str(d)[:80]}")
        if any(type(v) is not int or v < 0 for v in d.values()) or d["first_pass"] > d["last_pass"]:
            raise ValueError(f"expected counts and pass ids (first <= last), got {str(d)[:80]}")
        return cls(**d)


def node_refs(ev: E.Event):
    """The ids of the nodes ``ev`` refers to (for a node_created event: its own and its parents')."""
    for name in ("node", "target"):
        nid = getattr(ev, name, None)
        if type(nid) is int:
            yield nid
    for name in ("roots", "inputs", "edges", "nodes", "parents"):
        yield from getattr(ev, name, None) or ()
    for name in ("saved", "restored"):
        for nid, _ in getattr(ev, name, None) or ():
            yield nid
    if isinstance(ev, E.NodeCreated):
        yield from ev.info.parents


class Trace:
    """The events of a recorded run (``events``, ``seq`` == index) and its graph (``nodes``).

    ``nodes`` maps node id -> :class:`~minigrad.trace.events.NodeInfo`, with the
    latest known name. A Trace may grow while it is read (a running Stepper);
    appending is thread-safe and readers see a consistent prefix.
    ``meta`` holds free-form facts about the run (script, argv, options).
    ``summarised_before`` / ``outlined_before``: when a recording's memory budget
    was reached, the events before these indices hold summaries / outlines only
    (see :mod:`~minigrad.trace.budget`), and ``budget_message`` says so in one
    sentence; None otherwise. ``dropped``: a :class:`Dropped` when the budget dropped
    the oldest passes (then the trace starts with the creation of the nodes its events
    still refer to), else None.
    """

    def __init__(self, events=(), meta=None):
        self._events: list = []
        self._nodes: dict = {}
        self._records: list = []  # compact records appended by a recording, built into events when read
        # append_record(record): the next event as a compact record (minigrad.trace.records), built when it
        # is read; no lock (the builder takes only the records it has seen), no call of Python code
        self.append_record = self._records.append
        self.meta: dict = dict(meta or {})
        self._lock = threading.RLock()
        self._checkpoints: dict = {0: Replay()}  # index -> replay model after events[:index]
        self._checkpoint_at: list = [0]  # the indices of _checkpoints, sorted
        self._generation = 0  # bumped by rewrite(): checkpoints replayed from older events are not kept
        self.summarised_before: int | None = None
        self.outlined_before: int | None = None
        self.budget_message: str | None = None
        self.dropped: Dropped | None = None
        for ev in events:
            self.append(ev)

    @property
    def events(self) -> list:
        """The events, ``seq`` == index (built from the recording's compact records the first time they are read)."""
        if self._records:
            self._build_records()
        return self._events

    @property
    def nodes(self) -> dict:
        """Node id -> :class:`~minigrad.trace.events.NodeInfo`, with the latest known name."""
        if self._records:
            self._build_records()
        return self._nodes

    def __len__(self) -> int:
        return len(self._events) + len(self._records)

    def __iter__(self):
        return iter(list(self.events))

    def __repr__(self) -> str:
        passes = sum(1 for e in self.events if e.kind == "pass_started")
        return f"<Trace {len(self.events)} events, {len(self.nodes)} nodes, {passes} passes>"

    def _build_records(self) -> None:
        with self._lock:
            records = self._records
            n = len(records)
            memo: dict = {}  # events that shared a value share its snapshot
            for record in records[:n]:
                self.append(build_record(record, memo))
            del records[:n]

    def append(self, ev: E.Event) -> None:
        """Add the next event (its ``seq`` must equal the current length)."""
        with self._lock:
            if ev.seq != len(self._events):
                raise ValueError(f"event seq {ev.seq} does not follow a trace of {len(self._events)} events")
            if isinstance(ev, E.NodeCreated):
                self._nodes[ev.node] = ev.info
            elif isinstance(ev, E.NodeNamed) and ev.node in self._nodes:
                self._nodes[ev.node] = dataclasses.replace(self._nodes[ev.node], name=ev.name)
            elif isinstance(ev, E.TangentComputed) and ev.node in self._nodes and self._nodes[ev.node].op is None:
                # made outside the graph (nothing requires grad): forward mode tells its op and parents
                info = self._nodes[ev.node]
                self._nodes[ev.node] = dataclasses.replace(info, op=ev.op, parents=ev.parents, is_leaf=False)
            self._events.append(ev)

    def rewrite(self, start: int, stop: int, fn) -> None:
        """Replace ``events[start:stop]`` by ``fn(event)`` each (same kinds and seqs, other values);
        node records follow, keeping their latest names. Replay checkpoints are dropped."""
        with self._lock:
            for i in range(start, stop):
                ev = self.events[i]
                new = fn(ev)
                if new is ev:
                    continue
                self.events[i] = new
                if isinstance(new, E.NodeCreated) and new.node in self.nodes:
                    known = self.nodes[new.node]
                    info = dataclasses.replace(new.info, name=known.name)
                    if info.op is None and known.op is not None:  # learned from its tangent event
                        info = dataclasses.replace(info, op=known.op, parents=known.parents, is_leaf=known.is_leaf)
                    self.nodes[new.node] = info
            self._checkpoints = {0: Replay()}
            self._checkpoint_at = [0]
            self._generation += 1

    def drop(self, stop: int) -> tuple[set, list]:
        """Forget ``events[:stop]`` (whole passes, with the forward events before them), keeping the creation
        of each node a later event still refers to (directly or as an ancestor): those come first, then the
        later events, all renumbered from 0. Records what went in ``dropped``; returns the ids of the nodes
        forgotten and the former indices of the creations kept."""
        with self._lock:
            gone, kept = self.events[:stop], self.events[stop:]
            needed = {nid for ev in kept for nid in node_refs(ev)}
            stack = list(needed)
            while stack:
                info = self.nodes.get(stack.pop())
                for parent in info.parents if info is not None else ():
                    if parent not in needed:
                        needed.add(parent)
                        stack.append(parent)
            created = [i for i, ev in enumerate(gone) if isinstance(ev, E.NodeCreated)]
            kept_at = [i for i in created if gone[i].node in needed]
            carried = [gone[i] for i in kept_at]
            forgotten = {gone[i].node for i in created} - needed
            passes = [ev.pass_id for ev in gone if isinstance(ev, E.PassStarted)]
            shift = stop - len(carried)
            for ev in kept:
                # in place: a copy of each kept event would double the trace's memory while it is made, and
                # whoever holds an event (a paused Stepper, a viewer) sees its new number
                object.__setattr__(ev, "seq", ev.seq - shift)
            self.events[:] = [
                dataclasses.replace(ev, seq=i, pass_id=None, depth=0, info=self.nodes[ev.node], late=True)
                for i, ev in enumerate(carried)
            ] + kept
            for nid in forgotten:
                del self.nodes[nid]
            if passes:
                first, last, n = min(passes), max(passes), len(passes)
                self.dropped = (
                    Dropped(n, first, last, shift) if self.dropped is None else self.dropped.then(n, first, last, shift)
                )
            for name in ("summarised_before", "outlined_before"):
                at = getattr(self, name)
                if at:  # the carried creations come from before the mark, or were recorded reduced after it
                    setattr(self, name, max(at - shift, len(carried)))
            self._checkpoints = {0: Replay()}
            self._checkpoint_at = [0]
            self._generation += 1
        return forgotten, kept_at

    def _reduced(self, step: int) -> str | None:
        if self.outlined_before is not None and step < self.outlined_before:
            return (
                f"step {step} is in the outline of the recording (events 0..{self.outlined_before - 1}): its "
                "values were dropped to keep the recording within its memory budget (record(max_bytes=...))"
            )
        if self.summarised_before is not None:
            return (
                f"values at step {step} are summaries (min/max/mean/norm) only: the recording reached its "
                f"memory budget at event {self.summarised_before} (record(max_bytes=...))"
            )
        return None

    # ------------------------------------------------------------ queries
    def node(self, key) -> E.NodeInfo:
        """A node by id, or by name/label (the most recent node with it); KeyError naming it otherwise."""
        if isinstance(key, int) and key in self.nodes:
            return self.nodes[key]
        for info in reversed(list(self.nodes.values())):
            if key in (info.name, info.label):
                return info
        raise KeyError(f"no node {key!r} in this trace")

    def node_in_progress(self, step: int) -> int | None:
        """The node whose rule the pass is processing at ``step``: entered in that event's pass and not
        finished before it (None between nodes and outside passes). ``f`` (finish) in every viewer ends it."""
        events = self.events
        if not 0 <= step < len(events) or events[step].pass_id is None:
            return None
        pass_id = events[step].pass_id
        for i in range(step, -1, -1):
            e = events[i]
            if e.pass_id != pass_id:
                continue
            if isinstance(e, E.NodeFinished) and i != step:
                return None
            if isinstance(e, E.NodeEntered):
                return e.node
            if isinstance(e, E.PassStarted):
                return None
        return None

    def find(self, kind: str | None = None, node=None, pass_id: int | None = None) -> list:
        """The events matching every given criterion (``node``: id or name)."""
        nid = None if node is None else self.node(node).id
        return [
            e
            for e in list(self.events)
            if (kind is None or e.kind == kind)
            and (nid is None or e.node_id == nid)
            and (pass_id is None or e.pass_id == pass_id)
        ]

    def state_at(self, step: int) -> State:
        """The state right after event ``step`` (negative counts from the end), from the events alone.

        The state is replayed from the nearest checkpoint before it. Checkpoints share
        unchanged values with each other (see :mod:`~minigrad.trace.chunked`), and
        one is kept only after at least as many events as its copy costs, so the
        memory they take grows with the number of events, not with its square.
        """
        with self._lock:  # the events to replay, taken at once: dropping older passes renumbers them
            n = len(self.events)
            if not -n <= step < n:
                raise IndexError(f"step {step} out of range for a trace of {n} events")
            step %= n
            last = self._checkpoint_at[bisect.bisect_right(self._checkpoint_at, step + 1) - 1]
            replay = self._checkpoints[last].copy()
            generation = self._generation
            events, event = self.events[last : step + 1], self.events[step]
            dropped = self.dropped
            reduced = self._reduced(step)
        for i, ev in enumerate(events, start=last):
            replay.apply(ev)
            done = i + 1
            if done % _CHECKPOINT_EVERY == 0 and done - last >= max(_CHECKPOINT_EVERY, replay.size):
                with self._lock:
                    if done not in self._checkpoints and generation == self._generation:
                        self._checkpoints[done] = replay.copy()
                        bisect.insort(self._checkpoint_at, done)
                last = done
        state = replay.state(step, event)
        if reduced is None and dropped is None:
            return state
        return dataclasses.replace(state, reduced=reduced, dropped=dropped)

    # ------------------------------------------------------------ files
    def save(self, path) -> None:
        """Write the trace as JSON Lines (header line, then one event per line, each with its CRC-32;
        values as base64), gzip-compressed when ``path`` ends ``.gz``."""
        write_trace(self, path)

    @classmethod
    def load(cls, path, max_bytes: int = DEFAULT_MAX_BYTES) -> Trace:
        """Read a trace written by :meth:`save` (format version 3, or 1 and 2 without checksums; gzip
        or not), checking every record's checksum and every field. The file is untrusted: only a
        regular file is opened, and reading stops past ``max_bytes`` bytes (decompressed), a line
        longer than a thirty-second of it, or events that would take more than it once loaded. Every
        problem is one :class:`TraceFormatError` (a ValueError) naming the file and line."""
        return read_trace(cls, path, max_bytes)
