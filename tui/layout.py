"""Lay a graph out in terminal cells, through :func:`minigrad.viz.layout.layout_graph` (Graphviz dot).

Each node becomes a box three rows high and as wide as its label. A terminal cell
is about twice as tall as it is wide, so dot works in square units (one column)
and rows are halved afterwards. The layout is computed once per graph; the graph
pane only re-styles cells per step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

CELL_ASPECT = 2.0
BOX_ROWS = 3


@dataclass
class GraphLayout:
    """Node boxes (col, row, width, height) and edge polylines [(col, row), ...], all in cells."""

    boxes: dict = field(default_factory=dict)
    edges: list = field(default_factory=list)
    width: int = 0
    height: int = 0


MIN_INNER = 12  # room on the bottom border for a short value and gradient (``2. g=-0.004``)


def box_width(label: str, op: str | None = None) -> int:
    """Wide enough for the label inside, the op name on the top border and a short value below."""
    return max(len(label), len(op) + 2 if op else 0, MIN_INNER) + 4


def layout_graph(labels: dict, edges: list, ops: dict | None = None) -> GraphLayout:
    """Place nodes ``labels`` (id -> label text; ``ops``: id -> op name) joined by ``edges``, top to bottom."""
    from minigrad.viz.layout import layout_graph as dot_layout

    ops = ops or {}
    widths = {node_id: box_width(label, ops.get(node_id)) for node_id, label in labels.items()}
    sizes = {node_id: (widths[node_id], BOX_ROWS * CELL_ASPECT) for node_id in labels}
    lay = dot_layout(sizes, edges, rankdir="TB", nodesep=2.0, ranksep=2.0 * CELL_ASPECT)

    def cell(x: float, y: float) -> tuple:
        return (round(x), round(y / CELL_ASPECT))

    out = GraphLayout()
    for node_id, box in lay.nodes.items():
        col, row = cell(box.x, box.y)
        out.boxes[node_id] = (max(0, col), max(0, row), widths[node_id], BOX_ROWS)
    for path in lay.edges:
        out.edges.append((path.tail, path.head, [cell(x, y) for x, y in path.points]))
    out.width = max((c + w for c, _, w, _ in out.boxes.values()), default=0) + 2
    out.height = max((r + h for _, r, _, h in out.boxes.values()), default=0) + 1
    return out
