"""The graph a diagram draws, independent of where it came from (live tensors or a recorded trace).

``VGraph`` holds one ``VNode`` per tensor and one ``VEdge`` per (parent, child)
argument edge. Builders (``minigrad.viz.live`` for tensors, ``minigrad.viz.steps``
for traces) fill it; ``minigrad.viz.dot`` turns it into DOT text.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..tensor import node_label
from ..trace.status import NodeStatus

__all__ = ["ROLES", "VNode", "VEdge", "VGraph", "select_nodes"]

#: What a tensor is in its graph: a leaf that requires grad (a parameter), a leaf that does
#: not (an input or constant), a computed tensor, or one of the tensors the diagram was drawn from.
ROLES = ("param", "input", "intermediate", "output")


@dataclass
class VNode:
    """One tensor as a diagram shows it. ``data`` and ``grad`` are arrays, numbers, text or None.

    ``state`` is its :class:`~minigrad.trace.status.NodeStatus` at the step drawn (None for live tensors).
    """

    id: int
    name: str | None = None
    op: str | None = None
    shape: tuple = ()
    dtype: str = ""
    device: str = ""
    data: object = None
    grad: object = None
    role: str = "intermediate"
    parents: tuple = ()
    captured: list = field(default_factory=list)
    state: NodeStatus | None = None
    pass_grad: object = None
    created_by_pass: int | None = None
    created_depth: int = 0
    freed: bool = False
    saved: bool = False
    saved_grad: object = None
    restored: bool = False
    grad_update: tuple | None = None
    tangents: tuple = ()  # forward mode: (dual level, tangent) pairs, outermost level first

    @property
    def title(self) -> str:
        """The name if it has one, else ``op#id``: :func:`minigrad.tensor.node_label`."""
        return node_label(self.name, self.op, self.id)


@dataclass
class VEdge:
    """The edge from ``parent`` to ``child`` (argument ``index`` of ``child``'s op).

    ``state`` is ``NodeStatus.ACTIVE`` for the edge carrying a gradient at this step (its
    ``label`` is the contribution), ``NodeStatus.DONE`` for edges a gradient already crossed.
    """

    parent: int
    child: int
    index: int = 0
    state: NodeStatus | None = None
    label: str | None = None


@dataclass
class VGraph:
    """Nodes in drawing order, edges, and what was left out (``hidden`` nodes behind ``boundary``).

    ``pass_id`` is the backward pass whose state is shown (trace diagrams only);
    ``passes`` labels the clusters of nodes built by a pass (create_graph).
    """

    nodes: dict = field(default_factory=dict)
    edges: list = field(default_factory=list)
    hidden: int = 0
    boundary: list = field(default_factory=list)
    title: str | None = None
    pass_id: int | None = None
    passes: dict = field(default_factory=dict)

    def add_edges_from_parents(self) -> None:
        """Add one edge per (parent, child) pair whose both ends are shown; note the cut ones."""
        cut = []
        for node in self.nodes.values():
            hidden_parent = False
            for index, pid in enumerate(node.parents):
                if pid in self.nodes:
                    self.edges.append(VEdge(pid, node.id, index))
                else:
                    hidden_parent = True
            if hidden_parent:
                cut.append(node.id)
        self.boundary = cut


def select_nodes(roots, parents_of, max_nodes: int | None, focus=()) -> tuple[list, int]:
    """Breadth-first from ``focus`` then ``roots`` along ``parents_of``; keep at most ``max_nodes``.

    Returns ``(kept, hidden)``: the kept keys in visiting order (nearest the
    roots first) and how many reachable keys were left out. The walk is
    iterative, so deep graphs are fine.
    """
    seen = set()
    order = []
    queue = deque()
    for key in (*focus, *roots):
        if key not in seen:
            seen.add(key)
            queue.append(key)
    while queue:
        key = queue.popleft()
        order.append(key)
        for p in parents_of(key):
            if p not in seen:
                seen.add(p)
                queue.append(p)
    if max_nodes is None or len(order) <= max_nodes:
        return order, 0
    return order[:max_nodes], len(order) - max_nodes
