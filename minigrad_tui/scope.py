"""Which nodes the graph pane draws at a step: the graph of this pass, not every node ever made.

Inside a pass (and at its last events) the scope is the nodes reachable from the
pass's roots. In the forward part it is the graph being built for the next pass:
the nodes made between the last top-level pass's end and the next one's start (or
the last recorded event), with their ancestors (the parameters they use). ``all``
draws every node. Scopes are named by a key, so a layout can be cached and reused.
"""

from __future__ import annotations

import bisect


class GraphScope:
    """Learns from events as they arrive (:meth:`take`), answers :meth:`at` for a step."""

    def __init__(self, nodes: dict) -> None:
        self.nodes = nodes  # id -> NodeInfo, the trace's (growing) table
        self._created: list = []  # (seq, node id) in order
        self._roots: dict = {}  # pass id -> root ids
        self._ends: list = []  # seqs of top-level pass ends, ascending
        self._starts: list = []  # seqs of top-level pass starts, ascending
        self._cache: dict = {}

    def take(self, events) -> None:
        for e in events:
            kind = e.kind
            if kind == "node_created":
                self._created.append((e.seq, e.node))
            elif kind == "pass_started":
                self._roots[e.pass_id] = tuple(e.roots)
                if e.depth <= 1:
                    self._starts.append(e.seq)
            elif kind in ("pass_finished", "error") and e.depth <= 1 and e.pass_id is not None:
                self._ends.append(e.seq)

    def at(self, index: int, event, passes: tuple, show_all: bool = False) -> tuple:
        """``(key, node ids)`` drawn at step ``index`` (``event`` the step's event, ``passes`` the active ones)."""
        if show_all:
            return ("all", len(self.nodes)), None
        pass_id = passes[-1].pass_id if passes else event.pass_id
        if pass_id is not None and pass_id in self._roots:
            key = ("pass", pass_id, len(self.nodes))
            return key, self._cached(key, lambda: self._reachable(self._roots[pass_id]))
        i = bisect.bisect_left(self._ends, index)
        since = self._ends[i - 1] if i else -1
        start = bisect.bisect_right(self._created, (since, float("inf")))
        j = bisect.bisect_right(self._starts, index)
        until = self._starts[j] if j < len(self._starts) else float("inf")
        stop = bisect.bisect_left(self._created, (until, -1))
        key = ("forward", since, stop)
        return key, self._cached(key, lambda: self._reachable(nid for _, nid in self._created[start:stop]))

    def _cached(self, key, compute):
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > 32:
                self._cache.clear()
            hit = self._cache[key] = frozenset(compute())
        return hit

    def _reachable(self, roots) -> set:
        seen = set()
        stack = [r for r in roots if r in self.nodes]
        while stack:
            nid = stack.pop()
            if nid in seen:
                continue
            seen.add(nid)
            info = self.nodes.get(nid)
            if info is not None:
                stack.extend(p for p in info.parents if p in self.nodes and p not in seen)
        return seen
