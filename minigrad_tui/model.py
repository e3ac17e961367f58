"""Build a :class:`~minigrad_tui.view.StepView` for one step of a trace (recorded or still growing).

Node values, gradients and statuses come from ``Trace.state_at`` (derived from
the events alone, so stepping back works the same as forward); the closure and
last accumulation are found by looking back from the step within its pass.
"""

from __future__ import annotations

import os

from minigrad.tensor import shape_str
from minigrad.trace.describe import (
    RULE_NAMES,
    event_values,
    headline,
    node_label,
    reduction_text,
    rule_name,
    rule_source,
)
from minigrad.trace.status import NodeStatus
from minigrad.trace.values import format_value

from .view import AccumulationView, ClosureView, NodeView, PassView, ReturnedView, StepView

VALUE_WIDTH = 60
INSPECTOR_WIDTH = 48  # the inspector's text width at 80 columns, until the screen says what it is
NODE_LABELS = len("incoming g") + 1  # the node's label column, and the space after it
ACCUMULATION_LABELS = len("+ contribution") + 1  # an accumulation's, when it takes a row per term
SHORT_SIZE = 6  # arrays up to this size are written in the describer's short form in accumulations
LOOK_BACK = 20_000  # events scanned backwards for a closure or an accumulation


def _fmt(snap, width: int = VALUE_WIDTH, room: int | None = None) -> str | None:
    """``snap`` as text: its values when they fit ``width``, else a summary cut to ``room`` columns."""
    return None if snap is None else snap.format(width, room)


def _compact(snap, room: int) -> str | None:
    """A small array as the describer's short form (``[2.456e-05, 0.001341, 0.42]``), so that an
    accumulation of it fits one line; larger values as :func:`_fmt`."""
    if snap is None:
        return None
    if snap.values is not None and snap.values.size <= SHORT_SIZE:
        return format_value(snap)
    return _fmt(snap, room=room)


def _return_line(source: str) -> int | None:
    lines = source.splitlines()
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].lstrip().startswith("return"):
            return i
    return None


class StepModel:
    """Turns (trace, step) into what the screen shows."""

    def __init__(self, trace) -> None:
        self.trace = trace
        self._cache: dict = {}
        self.width = INSPECTOR_WIDTH  # the screen sets the inspector's real width: summaries fit one line of it

    def label(self, node_id) -> str:
        return node_label(self.trace, node_id)

    def forget(self) -> None:
        """Drop cached views (names changed, or the trace grew past a cached total)."""
        self._cache.clear()

    def state(self, index: int):
        key = (index, len(self.trace.events))
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) > 64:
                self._cache.clear()
            hit = self._cache[key] = self.trace.state_at(index)
        return hit

    def step(self, index: int) -> StepView:
        events = self.trace.events
        event = events[index]
        state = self.state(index)
        forward = state.shown_pass is None
        statuses = {nid: (NodeStatus.FORWARD if forward else ns.status) for nid, ns in state.nodes.items()}
        view = StepView(
            index=index,
            total=len(events),
            title=headline(event, self.trace),
            kind=event.kind,
            node_id=state.current_node,
            edge=state.current_edge,
            statuses=statuses,
        )
        closure, reductions, accumulations = self._visit(events, index, state.current_node, event.pass_id)
        view.closure = self._closure_view(closure, reductions) if closure is not None else None
        view.accumulations = [self._accumulation_view(e) for e in accumulations]
        view.accumulation = self._accumulation(events, index, event.pass_id)
        view.passes = self._passes(state, event)
        if event.kind in ("grads_saved", "grads_restored"):
            pairs = event.saved if event.kind == "grads_saved" else event.restored
            room = self._room(max((len(self.label(n)) + 8 for n, _ in pairs), default=8))
            words = "grad() saves" if event.kind == "grads_saved" else "grad() restores"
            view.grad_stack = (words, [(f"{self.label(n)}.grad", _fmt(g, room=room) or "None") for n, g in pairs])
        if state.error is not None:
            view.error = f"{state.error.error_type}: {state.error.message}"
        if state.reduced is not None or state.dropped is not None:
            view.dropped = self._budget_line(index, state)
        return view

    def _budget_line(self, index: int, state) -> str:
        """What the memory budget did to this step, in one line (``State.reduced`` and ``State.dropped``
        say it at length): the earlier passes it dropped first, then what became of this step's values."""
        trace = self.trace
        said = []
        if state.dropped is not None:
            n = state.dropped.passes
            said.append(f"{n} earlier pass{'' if n == 1 else 'es'} dropped")
        if trace.outlined_before is not None and index < trace.outlined_before:
            said.append("values dropped here (outline only)")
        elif state.reduced is not None:
            said.append(f"values are summaries (from step {trace.summarised_before})")
        return "budget: " + "; ".join(said)

    def node(self, index: int, node_id, breakpoints: set) -> NodeView | None:
        info = self.trace.nodes.get(node_id)
        if info is None:
            return None
        state = self.state(index)
        ns = state.nodes.get(node_id)
        src = info.source
        room = self._room(NODE_LABELS)
        return NodeView(
            id=node_id,
            name=self.label(node_id),
            op=info.op,
            shape=shape_str(info.shape),
            dtype=info.dtype,
            device=info.device,
            data=_fmt(ns.data if ns is not None else info.data, room=room) or "",
            grad=_fmt(ns.grad, room=room) if ns is not None else None,
            pass_grad=_fmt(ns.pass_grad, room=room) if ns is not None else None,
            status=(NodeStatus.FORWARD if state.shown_pass is None else ns.status)
            if ns is not None
            else "not created yet",
            parents=tuple(self.label(p) for p in info.parents),
            created_at=f"{os.path.basename(src.file)}:{src.line}  {src.text}" if src is not None else None,
            breakpoint=node_id in breakpoints,
        )

    def values(self, index: int, node_id) -> list:
        """Every value the step panel shows at step ``index``, as (what it is, Snapshot) pairs: the node's
        (``node_id``, the selected one) data, incoming gradient and ``.grad``, then the rule's (``g``, each
        captured value, what it returned), the reductions' and the accumulations'. The value view lists them."""
        events, state = self.trace.events, self.state(index)
        out = []
        info = self.trace.nodes.get(node_id) if node_id is not None else None
        if info is not None:
            label, ns = self.label(node_id), state.nodes.get(node_id)
            out.append((f"{label} data", ns.data if ns is not None else info.data))
            if ns is not None:
                out += [(f"{label} incoming g", ns.pass_grad), (f"{label}.grad", ns.grad)]
        event = events[index]
        closure, reductions, accumulations = self._visit(events, index, state.current_node, event.pass_id)
        last = self._last_accumulation(events, index, event.pass_id)
        shown = [closure, *reductions.values(), *accumulations, last if not accumulations else None, event]
        seen = set()
        for e in shown:
            if e is None or id(e) in seen:
                continue
            seen.add(id(e))
            where = ""
            if e.kind in ("grad_accumulated", "grad_reduced"):
                target = self.label(e.target)
                where = f"{target}.grad " if getattr(e, "into", "") == "grad" else f"{self.label(e.node)} -> {target} "
            out += [(where + what, snap) for what, snap in event_values(e, self.trace)]
        return [(what, snap) for what, snap in out if snap is not None]

    def scope_values(self, index: int) -> tuple:
        """The console's recorded names at step ``index``: ((name, Snapshot) of each node's value there,
        (name, Snapshot) of the rule's ``g`` and captured values as the rule's source names them)."""
        events, state = self.trace.events, self.state(index)
        nodes = [
            (info.name or info.label, state.nodes[nid].data)
            for nid, info in self.trace.nodes.items()
            if nid in state.nodes
        ]
        event = events[index]
        closure, _, _ = self._visit(events, index, state.current_node, event.pass_id)
        rule = []
        node = state.nodes.get(state.current_node) if state.current_node is not None else None
        if node is not None and node.pass_grad is not None:
            rule.append(("g", node.pass_grad))
        if closure is not None:
            rule.append(("g", closure.grad))
            rule += [(rule_name(cap.name), cap.value) for cap in closure.captured]
        return nodes, rule

    def _visit(self, events, index, node_id, pass_id) -> tuple:
        """The current node's visit up to ``index``: its closure_called event (or None), its
        grad_reduced events by target, and its grad_accumulated events in order."""
        closure, reductions, accumulations = None, {}, []
        if node_id is None or pass_id is None:
            return closure, reductions, accumulations
        for i in range(index, max(-1, index - LOOK_BACK), -1):
            e = events[i]
            if e.pass_id != pass_id or getattr(e, "node", None) != node_id:
                if e.kind == "pass_started" and e.pass_id == pass_id:
                    break
                continue
            if e.kind == "grad_accumulated":
                accumulations.append(e)
            elif e.kind == "grad_reduced":
                reductions.setdefault(e.target, e)
            elif e.kind == "closure_called":
                closure = e
            elif e.kind == "node_entered":
                break
        accumulations.reverse()
        return closure, reductions, accumulations

    def _room(self, labels: int) -> int:
        """The columns left for a value beside a label column ``labels`` wide (never under 16)."""
        return max(self.width - labels, 16)

    def _closure_view(self, e, reductions: dict) -> ClosureView:
        info = self.trace.nodes.get(e.node)
        parents = info.parents if info is not None else ()
        labels = ["g", *(rule_name(cap.name) for cap in e.captured), *(f"→ {self.label(p)}" for p in parents)]
        room = self._room(max(map(len, labels)) + 1)
        captured = []
        for cap in e.captured:
            name = rule_name(cap.name)
            if cap.kind == "dead":
                captured.append((name, "dead weak reference"))
            elif cap.kind == "empty":
                captured.append((name, "(not assigned)"))
            elif cap.value is not None:
                who = self.label(cap.tensor_id) if cap.tensor_id is not None else name
                alias = f"({who}) " if who != name else ""
                # the op's own output, as lessons write it, is no weak reference to the learner
                ref = "weak ref " if cap.kind == "weakref" and cap.name not in RULE_NAMES else ""
                captured.append((name, f"{alias}{ref}{_fmt(cap.value, 48, room - len(alias + ref))}"))
            else:
                captured.append((name, cap.text or ""))
        returned = []
        for parent, out in zip(parents, e.outputs, strict=False):
            red = reductions.get(parent)
            returned.append(
                ReturnedView(
                    parent=self.label(parent),
                    value=_fmt(out, 48, room),
                    reduced=_fmt(red.reduced, 48) if red is not None else None,
                    reduction=reduction_text(red) if red is not None else None,
                )
            )
        closure = e.closure
        common = dict(captured=captured, incoming=_fmt(e.grad, room=room), returned=returned)
        if closure is None or not closure.source:
            return ClosureView(**common)
        source = rule_source(closure.source)
        ret = _return_line(source)
        return ClosureView(
            source=source.rstrip("\n").splitlines(),
            first_line=closure.first_line,
            highlight=None if ret is None else closure.first_line + ret,
            filename=closure.file,
            **common,
        )

    def _accumulation_view(self, e) -> AccumulationView:
        room = self._room(ACCUMULATION_LABELS)
        return AccumulationView(
            source=self.label(e.node),
            target=self.label(e.target),
            contribution=_compact(e.contribution, room),
            before=_compact(e.before, room),
            after=_compact(e.after, room),
            into=e.into,
        )

    def _accumulation(self, events, index, pass_id) -> AccumulationView | None:
        e = self._last_accumulation(events, index, pass_id)
        return self._accumulation_view(e) if e is not None else None

    def _last_accumulation(self, events, index, pass_id):
        """The pass's last grad_accumulated event up to ``index`` (None before its first)."""
        if pass_id is None:
            return None
        for i in range(index, max(-1, index - LOOK_BACK), -1):
            e = events[i]
            if e.pass_id != pass_id:
                continue
            if e.kind == "grad_accumulated":
                return e
            if e.kind == "pass_started":
                return None
        return None

    def _passes(self, state, event) -> list:
        views = []
        for p in state.passes:
            saved = []
            for entry in state.save_stack:
                if entry.pass_id == p.pass_id:
                    saved.extend((self.label(nid), _fmt(g, 40) or "None") for nid, g in entry.saved)
            restored = []
            if event.kind == "grads_restored" and event.pass_id == p.pass_id:
                restored = [(self.label(nid), _fmt(g, 40) or "None") for nid, g in event.restored]
            node = state.current_node if p is state.passes[-1] else None
            views.append(
                PassView(
                    pass_id=p.pass_id,
                    kind=p.kind,
                    depth=p.depth,
                    node=self.label(node) if node is not None else None,
                    saved=saved,
                    restored=restored,
                )
            )
        return views


def breakpoint_text(bp, trace) -> str:
    """``breakpoint on h (#12) hit 2 if |g| > 10``: a breakpoint on a node by its id says the node's label too."""
    if isinstance(bp.node, int):
        return f"breakpoint on {node_label(trace, bp.node)} (#{bp.node}){str(bp)[len(str(bp.node)) :]}"
    return f"breakpoint {bp}"


def stop_reason(bp, event, hits) -> str:
    """Why a breakpoint stopped here, in words (``hits``: the session's HitCounter). For ``nonfinite``,
    where the NaN or Inf was born and, as anomaly mode says it, the forward line that made the node whose
    rule (or accumulation) made it: ``nonfinite: gradient of x has inf at [1]`` then
    ``y = log(x) made at demo.py:4  y = x.log()``."""
    trace = hits.trace
    if not bp.nonfinite:
        return breakpoint_text(bp, trace)
    text = bp.reason(event, hits).replace(": the gradient of ", ": gradient of ", 1)  # one line at 80 columns
    info = trace.nodes.get(event.node_id)
    if info is not None and info.source is not None:
        made = f"{info.op}({', '.join(node_label(trace, p) for p in info.parents)})" if info.op else "a leaf"
        where = f"{os.path.basename(info.source.file)}:{info.source.line}  {info.source.text}"
        text += f"\n{node_label(trace, info.id)} = {made} made at {where}"
    return text
