"""Build a ``VGraph`` from a recorded trace at one step: the graph as it was then, and where the pass stood.

What is drawn at step ``k``:

- during a pass (or after one, before any new node is made): the graph reachable
  from the pass's roots, plus the nodes that pass (or an active one) built with
  ``create_graph=True``; node colours follow the pass's statuses at ``k``;
- otherwise (forward code): the graph of the nodes made since the last pass ended,
  with the node the event is about highlighted.
"""

from __future__ import annotations

import bisect
from collections import Counter

from ..trace import events as E
from ..trace.describe import headline, step_text
from ..trace.status import NodeStatus
from ..trace.values import format_value
from .model import VGraph, VNode, select_nodes
from .options import Options

__all__ = ["TraceIndex", "graph_at_step"]


class TraceIndex:
    """Lookups over a trace's events built once (and extended when the trace grows)."""

    def __init__(self, trace):
        self.trace = trace
        self.seen = 0
        self.created_at: dict = {}
        self.pass_started: dict = {}
        self.pass_ended: dict = {}
        self.crossings: dict = {}
        self.closure_calls: dict = {}
        self.tangents: dict = {}  # node id -> its tangent_computed events (forward mode)
        self.update()

    def update(self) -> None:
        """Index the events appended since the last call (one handler per event class: :data:`INDEXED`)."""
        events = self.trace.events
        for ev in events[self.seen :]:
            INDEXED[type(ev)](self, ev)
        self.seen = len(events)

    def _created(self, ev: E.NodeCreated) -> None:
        self.created_at.setdefault(ev.node, ev.seq)

    def _pass_started(self, ev: E.PassStarted) -> None:
        self.pass_started[ev.pass_id] = ev

    def _pass_ended(self, ev) -> None:
        if ev.pass_id is not None:
            self.pass_ended[ev.pass_id] = ev.seq

    def _accumulated(self, ev: E.GradAccumulated) -> None:
        if ev.into == "pass":
            self.crossings.setdefault(ev.pass_id, []).append((ev.seq, ev.node, ev.target))

    def _closure_called(self, ev: E.ClosureCalled) -> None:
        self.closure_calls.setdefault(ev.node, []).append(ev)

    def _tangent(self, ev: E.TangentComputed) -> None:
        self.tangents.setdefault(ev.node, []).append(ev)

    def last_tangent(self, node: int, step: int):
        """The latest tangent_computed event of ``node`` at or before ``step``, or None."""
        return _latest(self.tangents.get(node, ()), step)

    def tangents_at(self, node: int, step: int) -> tuple:
        """``(level, tangent)`` of ``node`` at each dual level as of ``step`` (its latest event there), outermost
        level first: a nested forward run (``jvp`` of ``jvp``) gives a node one tangent per level."""
        latest = {}
        for ev in self.tangents.get(node, ()):
            if ev.seq > step:
                break
            latest[ev.level] = ev.tangent
        return tuple(sorted(latest.items()))

    def _not_indexed(self, ev) -> None:
        """Events a diagram reads from ``Trace.state_at`` alone."""

    def last_closure_call(self, node: int, step: int):
        """The latest closure_called event of ``node`` at or before ``step``, or None."""
        return _latest(self.closure_calls.get(node, ()), step)


def _latest(events, step: int):
    """The last of ``events`` (in step order) at or before ``step``, or None."""
    i = bisect.bisect_right([e.seq for e in events], step)
    return events[i - 1] if i else None


#: Event class -> what the index keeps of it.
INDEXED = {
    E.NodeCreated: TraceIndex._created,
    E.NodeNamed: TraceIndex._not_indexed,
    E.PassStarted: TraceIndex._pass_started,
    E.GradsSaved: TraceIndex._not_indexed,
    E.Seeded: TraceIndex._not_indexed,
    E.NodeEntered: TraceIndex._not_indexed,
    E.ClosureCalled: TraceIndex._closure_called,
    E.GradReduced: TraceIndex._not_indexed,
    E.GradAccumulated: TraceIndex._accumulated,
    E.NodeFinished: TraceIndex._not_indexed,
    E.GraphFreed: TraceIndex._not_indexed,
    E.GradsRestored: TraceIndex._not_indexed,
    E.PassFinished: TraceIndex._pass_ended,
    E.ErrorEvent: TraceIndex._pass_ended,
    E.TangentComputed: TraceIndex._tangent,
}


def _captured(index: TraceIndex, nid: int, step: int) -> list:
    call = index.last_closure_call(nid, step)
    if call is None:
        return []
    out = []
    for cap in call.captured:
        if cap.kind in ("tensor", "weakref"):
            out.append((cap.name, ("tensor", cap.tensor_id, cap.value)))
        elif cap.kind == "dead":
            out.append((cap.name, ("text", "dead weak reference")))
        elif cap.kind == "value":
            out.append((cap.name, ("text", cap.text or "")))
    return out


def _scope(trace, state, index: TraceIndex):
    """``(roots, outputs, pass_id)``: where to start walking, which nodes are outputs, the pass drawn."""
    shown = state.shown_pass
    active = {p.pass_id for p in state.passes}
    end = index.pass_ended.get(shown, -1) if shown is not None and shown not in active else -1
    if shown is None or shown not in active:
        fresh = [nid for nid in state.nodes if index.created_at.get(nid, -1) > end and nid in trace.nodes]
        if fresh or shown is None:
            used = {p for nid in fresh for p in trace.nodes[nid].parents}
            sinks = [nid for nid in fresh if nid not in used]
            return sinks, set(sinks), None
    started = index.pass_started[shown]
    building = active | {shown}
    made = [nid for nid in state.nodes if nid in trace.nodes and trace.nodes[nid].pass_id in building]
    roots = [r for r in started.roots if r in state.nodes]
    return roots + made, set(roots), shown


def _pass_title(index: TraceIndex, state, pass_id) -> str:
    started = index.pass_started[pass_id]
    text = f"{started.pass_kind}() pass {pass_id}"
    if started.depth > 1:
        outer = [p.pass_id for p in state.passes if p.depth < started.depth]
        text += f", depth {started.depth}" + (f" (inside pass {outer[-1]})" if outer else "")
    if dict(started.options).get("create_graph"):
        text += ", create_graph=True"
    return text


def graph_at_step(trace, step: int | None, options: Options, index: TraceIndex | None = None) -> VGraph:
    """The diagram graph of ``trace`` right after event ``step`` (default: the last event)."""
    n = len(trace.events)
    if n == 0:
        raise ValueError("draw(): the trace has no events to draw")
    if step is None:
        step = n - 1
    if not isinstance(step, int) or isinstance(step, bool):
        raise TypeError(f"draw(): step must be an int, got {type(step).__name__}")
    if not -n <= step < n:
        raise IndexError(f"draw(): step {step} out of range for a trace of {n} events (0 to {n - 1})")
    step %= n
    if index is None:
        index = TraceIndex(trace)
    else:
        index.update()
    state = trace.state_at(step)
    ev = state.event
    roots, outputs, pass_id = _scope(trace, state, index)
    nodes = trace.nodes

    tangent_events: dict = {}

    def tangent_event(nid):
        if nid not in tangent_events:
            tangent_events[nid] = index.last_tangent(nid, step)
        return tangent_events[nid]

    def parents_of(nid):
        # forward mode records no graph (nothing requires grad): its tangent events name the parents
        parents = nodes[nid].parents or getattr(tangent_event(nid), "parents", ())
        return [p for p in parents if p in nodes and p in state.nodes]

    focus = [x for x in (state.current_node, *(state.current_edge or ())) if x is not None and x in state.nodes]
    kept, hidden = select_nodes(roots, parents_of, options.max_nodes, focus=focus if pass_id is not None else ())

    saved = {}
    for entry in state.save_stack:
        for nid, snap in entry.saved:
            saved[nid] = snap
    restored = {nid for nid, _ in ev.restored} if isinstance(ev, E.GradsRestored) else set()
    grad_update = ev.target if isinstance(ev, E.GradAccumulated) and ev.into == "grad" else None

    g = VGraph(hidden=hidden, pass_id=pass_id)
    for nid in kept:
        info = nodes[nid]
        ns = state.nodes[nid]
        if nid in outputs:
            role = "output"
        elif info.is_leaf:
            role = "param" if info.requires_grad else "input"
        else:
            role = "intermediate"
        if pass_id is not None:
            node_state = ns.status
        else:
            node_state = NodeStatus.ACTIVE if nid == state.current_node else NodeStatus.FORWARD
        g.nodes[nid] = VNode(
            id=nid,
            name=info.name,
            op=info.op,
            shape=tuple(info.shape),
            dtype=info.dtype,
            device=info.device,
            data=ns.data,
            grad=ns.grad,
            role=role,
            parents=tuple(info.parents),
            captured=_captured(index, nid, step) if options.captured else [],
            state=node_state,
            pass_grad=ns.pass_grad if pass_id is not None else None,
            created_by_pass=info.pass_id,
            freed=ns.freed,
            saved=nid in saved,
            saved_grad=saved.get(nid),
            restored=nid in restored,
            grad_update=(ev.before, ev.after) if nid == grad_update else None,
            tangents=index.tangents_at(nid, step),
        )
        if not info.parents and g.nodes[nid].tangents:
            g.nodes[nid].parents = tuple(parents_of(nid))
        if info.pass_id is not None and info.pass_id in index.pass_started:
            g.passes[info.pass_id] = f"built during {_pass_title(index, state, info.pass_id)}"
    g.add_edges_from_parents()
    if pass_id is not None:
        _mark_edges(g, index, pass_id, state, options)
    if isinstance(ev, E.TangentComputed):
        _mark_tangent_edges(g, ev, options)
    where = f"{_pass_title(index, state, pass_id)} · " if pass_id is not None else ""
    g.title = f"{step_text(step, n)} · {where}{headline(ev, trace)}"
    return g


def _mark_tangent_edges(g: VGraph, ev: E.TangentComputed, options: Options) -> None:
    """At a forward-mode step, the edges into the node carry its parents' tangents (labelled), with the arrows."""
    incoming = [e for e in g.edges if e.child == ev.node]
    for e in incoming:
        e.state = NodeStatus.ACTIVE
        if e.index < len(ev.tangents):
            e.label = format_value(ev.tangents[e.index], options.precision, options.max_inline)


def _mark_edges(g: VGraph, index: TraceIndex, pass_id: int, state, options: Options) -> None:
    """Edges a gradient already crossed in the pass become "done"; the one crossing now "active"."""
    crossed = Counter()
    for seq, src, dst in index.crossings.get(pass_id, ()):
        if seq >= state.step:
            break
        crossed[(src, dst)] += 1
    by_pair: dict = {}
    for e in g.edges:
        by_pair.setdefault((e.child, e.parent), []).append(e)
    for pair, count in crossed.items():
        for e in by_pair.get(pair, [])[:count]:
            e.state = NodeStatus.DONE
    if state.current_edge is not None:
        edges = by_pair.get(tuple(state.current_edge), [])
        k = crossed[tuple(state.current_edge)]
        if k < len(edges):
            edges[k].state = NodeStatus.ACTIVE
            edges[k].label = format_value(state.event.contribution, options.precision, options.max_inline)
