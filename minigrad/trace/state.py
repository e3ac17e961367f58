"""The state of a recorded run at one step, derived from the events alone.

``Replay`` applies events one by one to a small mutable model (node values,
``.grad`` values, each pass's gradient buffer and node statuses, the grad()
save stack); ``State`` is its immutable picture after a given event.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from . import events as E
from .chunked import ChunkedMap
from .snapshot import Snapshot
from .status import NodeStatus

__all__ = ["NodeState", "NodeStates", "PassState", "SavedGrads", "State", "Replay", "APPLY"]


@dataclass(frozen=True)
class NodeState:
    """One node at one step.

    ``data``: its value; ``grad``: its ``.grad`` (None when unset);
    ``pass_grad``: the gradient the shown pass has gathered for it so far
    (its complete incoming gradient once ``ACTIVE``); ``status``: a
    :class:`~minigrad.trace.status.NodeStatus` in the shown pass (UNTOUCHED: no
    gradient yet, PENDING: gradient arriving, not yet entered, ACTIVE: entered,
    its rule running, DONE, or FAILED: the pass raised while here); ``freed``: its
    graph edge was freed (retain_graph=False).
    """

    id: int
    data: Snapshot
    grad: Snapshot | None
    pass_grad: Snapshot | None
    status: NodeStatus
    freed: bool


@dataclass(frozen=True)
class PassState:
    """A pass that has started and not yet ended."""

    pass_id: int
    kind: str
    depth: int
    roots: tuple
    inputs: tuple | None
    options: types.MappingProxyType


@dataclass(frozen=True)
class SavedGrads:
    """One entry of grad()'s save stack: the ``.grad`` values and edges a pass stashed."""

    pass_id: int
    depth: int
    saved: tuple
    edges: tuple


@dataclass(frozen=True)
class State:
    """Everything a viewer shows at step ``step`` (after ``event`` happened).

    ``shown_pass`` is the innermost active pass, or the last pass that ended when
    none is active (statuses and pass gradients refer to it). ``current_node`` and
    ``current_edge`` ((source, target) ids) are what the event is about.
    ``passes`` are the active passes, outermost first; ``save_stack`` grad()'s
    stashes, outermost first; ``error`` the last error event of the shown pass;
    ``reduced``: a sentence when the recording's memory budget reduced this step's
    values (to summaries, or to an outline without values), else None;
    ``dropped``: a :class:`~minigrad.trace.trace.Dropped` listing the earlier passes the
    budget dropped from the trace (``dropped.pass_ids``), else None.
    """

    step: int
    event: E.Event | None
    nodes: Mapping
    current_node: int | None
    current_edge: tuple | None
    shown_pass: int | None
    passes: tuple
    save_stack: tuple
    error: E.ErrorEvent | None
    reduced: str | None = None
    dropped: object = None  # a trace.Dropped (trace.py imports this module)


class NodeStates(Mapping):
    """node id -> :class:`NodeState`, read-only, built on access from the replay's shared maps
    (a State costs what its maps' chunk tables cost, not one record per node)."""

    __slots__ = ("_data", "_grad", "_pass_grad", "_status", "_freed")

    def __init__(self, data, grad, pass_grad, status, freed):
        self._data, self._grad, self._pass_grad, self._status, self._freed = data, grad, pass_grad, status, freed

    def __getitem__(self, nid) -> NodeState:
        data = self._data[nid]
        return NodeState(
            nid,
            data,
            self._grad.get(nid),
            self._pass_grad.get(nid),
            self._status.get(nid, NodeStatus.UNTOUCHED),
            nid in self._freed,
        )

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, nid) -> bool:
        return nid in self._data

    def __repr__(self) -> str:
        return f"<NodeStates of {len(self)} nodes>"


_EMPTY = ChunkedMap()


def _add(a: Snapshot, b: Snapshot) -> Snapshot:
    """a + b for snapshots holding full values (the shown buffer of a root seeded twice)."""
    if a.values is None or b.values is None:
        return b
    values = np.asarray(a.values + b.values)
    values.flags.writeable = False
    return Snapshot(a.shape, a.dtype, a.device, values, None, a.tensor_id)


class Replay:
    """Mutable replay model; ``apply(event)`` advances it, ``state(step, event)`` pictures it."""

    def __init__(self):
        self.data = ChunkedMap()  # node id -> Snapshot
        self.grad = ChunkedMap()  # node id -> Snapshot or None
        self.pass_grad: dict = {}  # pass_id -> ChunkedMap(node id -> Snapshot)
        self.status: dict = {}  # pass_id -> ChunkedMap(node id -> NodeStatus)
        self.errors: dict = {}  # pass_id -> ErrorEvent
        self.freed = ChunkedMap()  # node id -> True
        self.passes: list = []
        self.save_stack: list = []
        self.last_pass: int | None = None

    @property
    def size(self) -> int:
        """The cost of one copy, in chunk-table slots."""
        maps = (self.data, self.grad, self.freed, *self.pass_grad.values(), *self.status.values())
        return sum(m.chunk_count for m in maps)

    def copy(self) -> Replay:
        """A copy sharing every unchanged chunk with this one."""
        r = Replay.__new__(Replay)
        r.data = self.data.copy()
        r.grad = self.grad.copy()
        r.pass_grad = {k: v.copy() for k, v in self.pass_grad.items()}
        r.status = {k: v.copy() for k, v in self.status.items()}
        r.errors = dict(self.errors)
        r.freed = self.freed.copy()
        r.passes = list(self.passes)
        r.save_stack = list(self.save_stack)
        r.last_pass = self.last_pass
        return r

    @staticmethod
    def _buffer(per_pass: dict, pass_id) -> ChunkedMap:
        m = per_pass.get(pass_id)
        if m is None:
            m = per_pass[pass_id] = ChunkedMap()
        return m

    def _end_pass(self, pass_id: int, depth: int) -> None:
        """Drop the pass and the passes nested in it; another thread's pass (in a trace of every
        thread) started after it at its depth or above stays."""
        at = next((i for i, p in enumerate(self.passes) if p.pass_id == pass_id), None)
        if at is None:
            self.passes = [p for p in self.passes if p.depth < depth]
        else:
            self.passes = self.passes[:at] + [p for p in self.passes[at + 1 :] if p.depth <= depth]
        self.last_pass = pass_id

    def apply(self, ev: E.Event) -> None:
        """Advance the model past ``ev`` (one handler per event class: :data:`APPLY`)."""
        APPLY[type(ev)](self, ev)

    def _node_created(self, ev: E.NodeCreated) -> None:
        self.data[ev.node] = ev.info.data
        self.grad.setdefault(ev.node, None)

    def _pass_started(self, ev: E.PassStarted) -> None:
        self.passes = [p for p in self.passes if p.depth < ev.depth]
        self.passes.append(PassState(ev.pass_id, ev.pass_kind, ev.depth, ev.roots, ev.inputs, ev.options))
        self.pass_grad[ev.pass_id] = ChunkedMap()
        self.status[ev.pass_id] = ChunkedMap()
        # keep only the passes a viewer can still show: the active ones and the latest
        live = {p.pass_id for p in self.passes}
        for old in [k for k in {**self.status, **self.pass_grad} if k not in live]:
            self.status.pop(old, None)
            self.pass_grad.pop(old, None)
            self.errors.pop(old, None)

    def _grads_saved(self, ev: E.GradsSaved) -> None:
        for nid, _ in ev.saved:
            self.grad[nid] = None
        self.save_stack.append(SavedGrads(ev.pass_id, ev.depth, ev.saved, ev.edges))

    def _seeded(self, ev: E.Seeded) -> None:
        buf = self._buffer(self.pass_grad, ev.pass_id)
        prev = buf.get(ev.node)
        buf[ev.node] = ev.grad if prev is None else _add(prev, ev.grad)
        self._buffer(self.status, ev.pass_id)[ev.node] = NodeStatus.PENDING

    def _node_entered(self, ev: E.NodeEntered) -> None:
        self._buffer(self.pass_grad, ev.pass_id)[ev.node] = ev.grad
        self._buffer(self.status, ev.pass_id)[ev.node] = NodeStatus.ACTIVE
        if ev.data is not None:
            self.data[ev.node] = ev.data

    def _grad_accumulated(self, ev: E.GradAccumulated) -> None:
        if ev.into == "grad":
            self.grad[ev.target] = ev.after
            return
        self._buffer(self.pass_grad, ev.pass_id)[ev.target] = ev.after
        st = self._buffer(self.status, ev.pass_id)
        if st.get(ev.target, NodeStatus.UNTOUCHED) == NodeStatus.UNTOUCHED:
            st[ev.target] = NodeStatus.PENDING

    def _node_finished(self, ev: E.NodeFinished) -> None:
        self._buffer(self.status, ev.pass_id)[ev.node] = NodeStatus.DONE

    def _graph_freed(self, ev: E.GraphFreed) -> None:
        for nid in ev.nodes:
            self.freed[nid] = True

    def _grads_restored(self, ev: E.GradsRestored) -> None:
        for nid, g in ev.restored:
            self.grad[nid] = g
        for i in range(len(self.save_stack) - 1, -1, -1):
            if self.save_stack[i].pass_id == ev.pass_id:
                del self.save_stack[i:]
                break

    def _pass_finished(self, ev: E.PassFinished) -> None:
        self._end_pass(ev.pass_id, ev.depth)

    def _error(self, ev: E.ErrorEvent) -> None:
        if ev.node is not None:
            self._buffer(self.status, ev.pass_id)[ev.node] = NodeStatus.FAILED
        self.errors[ev.pass_id] = ev
        self._end_pass(ev.pass_id, ev.depth)

    def _unchanged(self, ev: E.Event) -> None:
        """Events that change no value, status or stack (names live in ``Trace.nodes``)."""

    def state(self, step: int, ev: E.Event | None) -> State:
        """The immutable picture after ``ev`` (step ``step``); later ``apply`` calls do not change it."""
        shown = self.passes[-1].pass_id if self.passes else self.last_pass
        buf = self.pass_grad.get(shown, _EMPTY).copy()
        status = self.status.get(shown, _EMPTY).copy()
        nodes = NodeStates(self.data.copy(), self.grad.copy(), buf, status, self.freed.copy())
        current_node = ev.node_id if ev is not None else None
        current_edge = None
        if isinstance(ev, E.GradReduced) or (isinstance(ev, E.GradAccumulated) and ev.into == "pass"):
            current_edge = ev.edge
        return State(
            step=step,
            event=ev,
            nodes=nodes,
            current_node=current_node,
            current_edge=current_edge,
            shown_pass=shown,
            passes=tuple(self.passes),
            save_stack=tuple(self.save_stack),
            error=self.errors.get(shown),
        )


#: Event class -> how it changes the replay model.
APPLY = {
    E.NodeCreated: Replay._node_created,
    E.NodeNamed: Replay._unchanged,
    E.PassStarted: Replay._pass_started,
    E.GradsSaved: Replay._grads_saved,
    E.Seeded: Replay._seeded,
    E.NodeEntered: Replay._node_entered,
    E.ClosureCalled: Replay._unchanged,
    E.GradReduced: Replay._unchanged,
    E.GradAccumulated: Replay._grad_accumulated,
    E.NodeFinished: Replay._node_finished,
    E.GraphFreed: Replay._graph_freed,
    E.GradsRestored: Replay._grads_restored,
    E.PassFinished: Replay._pass_finished,
    E.ErrorEvent: Replay._error,
    E.TangentComputed: Replay._unchanged,
}
