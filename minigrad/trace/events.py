"""Typed, immutable event records and the node information they refer to.

Every event has ``seq`` (its index in the trace, from 0), ``pass_id`` (the
backward()/grad() call it belongs to; None for forward events outside a pass)
and ``depth`` (1 for a top-level pass, 2 for a pass run inside another pass's
closure, 0 outside passes). Nodes are referred to by their stable integer id
(``Tensor.id``); values are :class:`~minigrad.trace.snapshot.Snapshot` copies.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, fields
from typing import ClassVar

from ..tensor import node_label
from .snapshot import Snapshot

__all__ = [
    "SourceLocation",
    "NodeInfo",
    "ClosureInfo",
    "Captured",
    "Event",
    "NodeCreated",
    "NodeNamed",
    "PassStarted",
    "GradsSaved",
    "Seeded",
    "NodeEntered",
    "ClosureCalled",
    "GradReduced",
    "TangentComputed",
    "GradAccumulated",
    "NodeFinished",
    "GraphFreed",
    "GradsRestored",
    "PassFinished",
    "ErrorEvent",
    "EVENT_TYPES",
    "BACKWARD_KINDS",
    "event_to_json",
]


@dataclass(frozen=True)
class SourceLocation:
    """Where the user's code made something: file, line number, the stripped line and the function."""

    file: str
    line: int
    text: str
    function: str


@dataclass(frozen=True)
class NodeInfo:
    """One tensor of the graph as it was created.

    ``name`` is the ``name=`` given at creation (later names arrive as
    :class:`NodeNamed` events; ``Trace.nodes`` holds the latest). ``parents``
    are parent ids. ``data`` is the value at creation. ``source`` is the user's
    line that made it (None when unknown, e.g. tensors made before recording).
    ``pass_id`` is set for tensors made inside a pass (create_graph gradients).
    ``version`` is the tensor's version counter then (in-place writes so far; an
    in-place op such as ``add_`` is a node of its own, at the version it made).
    """

    id: int
    name: str | None
    op: str | None
    parents: tuple
    shape: tuple
    dtype: str
    device: str
    requires_grad: bool
    is_leaf: bool
    data: Snapshot
    source: SourceLocation | None = None
    pass_id: int | None = None
    version: int = 0

    @property
    def label(self) -> str:
        """The name, else ``op#id`` (``leaf#id`` for leaves): :func:`minigrad.tensor.node_label`."""
        return node_label(self.name, self.op, self.id)


@dataclass(frozen=True)
class ClosureInfo:
    """A backward closure's source: qualified name, file, first and last line, dedented text."""

    name: str
    file: str
    first_line: int
    last_line: int
    source: str


@dataclass(frozen=True)
class Captured:
    """A value a closure captured (one of its free variables).

    ``kind`` is "tensor", "weakref" (a weak reference to a tensor, dereferenced:
    ``value`` is the tensor's snapshot), "dead" (a weak reference whose target is
    gone), "value" (anything else: ``text`` is its repr, shortened) or "empty"
    (a cell not yet assigned).
    """

    name: str
    kind: str
    tensor_id: int | None = None
    value: Snapshot | None = None
    text: str | None = None


@dataclass(frozen=True)
class Event:
    """Base of all event records."""

    kind: ClassVar[str] = ""

    seq: int
    pass_id: int | None
    depth: int

    @property
    def node_id(self) -> int | None:
        """The node this event is about (the source node for grad_accumulated), or None."""
        return getattr(self, "node", None)


@dataclass(frozen=True)
class NodeCreated(Event):
    """A tensor was made. ``late`` marks a tensor made before recording began, first seen now."""

    kind: ClassVar[str] = "node_created"
    node: int
    info: NodeInfo
    late: bool = False


@dataclass(frozen=True)
class NodeNamed(Event):
    """The recorder learned a node's name: the variable the user's code bound it to, or a ``name`` set later."""

    kind: ClassVar[str] = "node_named"
    node: int
    name: str


@dataclass(frozen=True)
class PassStarted(Event):
    """A backward() or grad() pass began. ``inputs`` is None for backward() without ``inputs=``."""

    kind: ClassVar[str] = "pass_started"
    pass_kind: str
    roots: tuple
    seeds: tuple
    inputs: tuple | None
    options: types.MappingProxyType


@dataclass(frozen=True)
class GradsSaved(Event):
    """grad() stashed these ``.grad`` values ((id, Snapshot or None) pairs) and these graph edges (ids)."""

    kind: ClassVar[str] = "grads_saved"
    saved: tuple
    edges: tuple


@dataclass(frozen=True)
class Seeded(Event):
    """An output of the pass received its seed gradient."""

    kind: ClassVar[str] = "seeded"
    node: int
    grad: Snapshot


@dataclass(frozen=True)
class NodeEntered(Event):
    """The pass reached ``node`` with its complete incoming gradient.

    ``data`` is the node's value now, kept for leaves only (an optimizer may
    have changed a parameter in place since it was created).
    """

    kind: ClassVar[str] = "node_entered"
    node: int
    grad: Snapshot
    data: Snapshot | None = None


@dataclass(frozen=True)
class ClosureCalled(Event):
    """The node's backward closure ran: its source, captured values, input and outputs (one per parent)."""

    kind: ClassVar[str] = "closure_called"
    node: int
    grad: Snapshot
    outputs: tuple
    closure: ClosureInfo | None
    captured: tuple


@dataclass(frozen=True)
class GradReduced(Event):
    """The engine summed a broadcast contribution along ``node -> target`` down to the target's shape.

    ``dims`` are the dims of ``from_shape`` that were summed (leading dims that
    broadcasting added, and dims where the target has size 1); ``contribution``
    is the rule's output, ``reduced`` the result.
    """

    kind: ClassVar[str] = "grad_reduced"
    node: int
    target: int
    from_shape: tuple
    to_shape: tuple
    dims: tuple
    contribution: Snapshot
    reduced: Snapshot

    @property
    def edge(self) -> tuple:
        return (self.node, self.target)


@dataclass(frozen=True)
class GradAccumulated(Event):
    """A contribution flowed along the edge ``node -> target``.

    ``into`` is "pass" (the pass's gradient buffer for ``target``) or "grad"
    (``target.grad``; then ``node == target``). ``before`` is None when first.
    """

    kind: ClassVar[str] = "grad_accumulated"
    node: int
    target: int
    contribution: Snapshot
    before: Snapshot | None
    after: Snapshot
    into: str

    @property
    def edge(self) -> tuple:
        return (self.node, self.target)


@dataclass(frozen=True)
class NodeFinished(Event):
    kind: ClassVar[str] = "node_finished"
    node: int


@dataclass(frozen=True)
class GraphFreed(Event):
    """retain_graph=False: these nodes' closures and saved values were freed."""

    kind: ClassVar[str] = "graph_freed"
    nodes: tuple


@dataclass(frozen=True)
class GradsRestored(Event):
    """grad() put back the ``.grad`` values it saved ((id, Snapshot or None) pairs) and the edges."""

    kind: ClassVar[str] = "grads_restored"
    restored: tuple


@dataclass(frozen=True)
class PassFinished(Event):
    """The pass ended normally. ``results``: grad()'s gradients (Snapshot or None each); None for backward()."""

    kind: ClassVar[str] = "pass_finished"
    results: tuple | None


@dataclass(frozen=True)
class TangentComputed(Event):
    """Forward mode: ``node``'s tangent, computed from its parents' tangents by the op's forward-mode rule.

    ``tangents`` has one snapshot per parent in ``parents`` (zeros for a parent that
    carries no tangent); ``tangent`` is the result's; ``rule`` is the rule's source
    (the JVP written beside the op's backward rule); ``level`` is the dual level's depth (0 for the
    outermost, 1 for a ``func.jvp`` inside another, ...): a node gets one tangent per level.
    """

    kind: ClassVar[str] = "tangent_computed"
    node: int
    op: str
    parents: tuple
    tangents: tuple
    tangent: Snapshot
    rule: ClosureInfo | None
    level: int = 0


@dataclass(frozen=True)
class ErrorEvent(Event):
    """An exception escaped the pass while at ``node`` (None when outside any node).

    ``raised_at`` is the user's deepest frame as ``file.py:12 in backward`` (None when no frame
    is theirs) and ``traceback`` their frames, minigrad's own folded into one line (empty in
    traces recorded before it was kept).
    """

    kind: ClassVar[str] = "error"
    node: int | None
    error_type: str
    message: str
    raised_at: str | None = None
    traceback: str = ""


EVENT_TYPES = {
    cls.kind: cls
    for cls in (
        NodeCreated,
        NodeNamed,
        PassStarted,
        GradsSaved,
        Seeded,
        NodeEntered,
        ClosureCalled,
        GradReduced,
        GradAccumulated,
        NodeFinished,
        GraphFreed,
        GradsRestored,
        PassFinished,
        ErrorEvent,
        TangentComputed,
    )
}
BACKWARD_KINDS = frozenset(EVENT_TYPES) - {"node_created", "node_named", "tangent_computed"}

_TAGS = {NodeInfo: "$node", SourceLocation: "$src", ClosureInfo: "$closure", Captured: "$cap"}


def _encode(v):
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, Snapshot):
        return {"$snap": v.to_json()}
    tag = _TAGS.get(type(v))
    if tag is not None:
        return {tag: {f.name: _encode(getattr(v, f.name)) for f in fields(v)}}
    if isinstance(v, (tuple, list)):
        return [_encode(x) for x in v]
    if isinstance(v, (dict, types.MappingProxyType)):
        return {"$map": {str(k): _encode(x) for k, x in v.items()}}
    raise TypeError(f"cannot encode {type(v).__name__} in a trace")


def event_to_json(event: Event) -> dict:
    """A JSON-ready dict of an event: ``kind`` plus every field."""
    d = {"kind": event.kind}
    for f in fields(event):
        d[f.name] = _encode(getattr(event, f.name))
    return d
