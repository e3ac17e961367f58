"""Build a :class:`~tui.view.StepView` for one step of a trace (recorded or still growing).

Node values, gradients and statuses come from ``Trace.state_at`` (derived from
the events alone, so stepping back works the same as forward); the closure and
last accumulation are found by looking back from the step within its pass.
"""

from __future__ import annotations

from minigrad.tensor import shape_str
from minigrad.trace.describe import headline, node_label
from minigrad.trace.status import NodeStatus

from .view import AccumulationView, ClosureView, NodeView, PassView, StepView

VALUE_WIDTH = 60
LOOK_BACK = 20_000  # events scanned backwards for a closure or an accumulation


def _fmt(snap, width: int = VALUE_WIDTH) -> str | None:
    return None if snap is None else snap.format(width)


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
        view.closure = self._closure(events, index, state.current_node, event.pass_id)
        view.accumulation = self._accumulation(events, index, event.pass_id)
        view.passes = self._passes(state, event)
        if state.error is not None:
            view.error = f"{state.error.error_type}: {state.error.message}"
        return view

    def node(self, index: int, node_id, breakpoints: set) -> NodeView | None:
        info = self.trace.nodes.get(node_id)
        if info is None:
            return None
        state = self.state(index)
        ns = state.nodes.get(node_id)
        src = info.source
        return NodeView(
            id=node_id,
            name=self.label(node_id),
            op=info.op,
            shape=shape_str(info.shape),
            dtype=info.dtype,
            device=info.device,
            data=_fmt(ns.data if ns is not None else info.data) or "",
            grad=_fmt(ns.grad) if ns is not None else None,
            pass_grad=_fmt(ns.pass_grad) if ns is not None else None,
            status=(NodeStatus.FORWARD if state.shown_pass is None else ns.status)
            if ns is not None
            else "not created yet",
            parents=tuple(self.label(p) for p in info.parents),
            created_at=f"{src.file}:{src.line}  {src.text}" if src is not None else None,
            breakpoint=node_id in breakpoints,
        )

    def _closure(self, events, index, node_id, pass_id) -> ClosureView | None:
        if node_id is None or pass_id is None:
            return None
        for i in range(index, max(-1, index - LOOK_BACK), -1):
            e = events[i]
            if e.pass_id != pass_id:
                continue
            if e.kind == "closure_called" and e.node == node_id:
                return self._closure_view(e)
            if (e.kind == "node_entered" and e.node == node_id) or e.kind == "pass_started":
                return None
        return None

    def _closure_view(self, e) -> ClosureView:
        captured = []
        for cap in e.captured:
            if cap.kind in ("tensor", "weakref"):
                who = self.label(cap.tensor_id) if cap.tensor_id is not None else "tensor"
                ref = " (weak ref)" if cap.kind == "weakref" else ""
                captured.append((cap.name, f"{who}{ref} = {_fmt(cap.value, 48)}"))
            elif cap.kind == "dead":
                captured.append((cap.name, "dead weak reference"))
            elif cap.kind == "empty":
                captured.append((cap.name, "(not assigned)"))
            else:
                captured.append((cap.name, cap.text or ""))
        info = e.closure
        if info is None or not info.source:
            return ClosureView(captured=captured)
        ret = _return_line(info.source)
        return ClosureView(
            source=info.source.rstrip("\n").splitlines(),
            first_line=info.first_line,
            highlight=None if ret is None else info.first_line + ret,
            captured=captured,
            filename=info.file,
        )

    def _accumulation(self, events, index, pass_id) -> AccumulationView | None:
        if pass_id is None:
            return None
        for i in range(index, max(-1, index - LOOK_BACK), -1):
            e = events[i]
            if e.pass_id != pass_id:
                continue
            if e.kind == "grad_accumulated":
                return AccumulationView(
                    source=self.label(e.node),
                    target=self.label(e.target),
                    contribution=_fmt(e.contribution),
                    before=_fmt(e.before),
                    after=_fmt(e.after),
                    into=e.into,
                )
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
