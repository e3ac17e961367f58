"""Lay a graph out in terminal cells, through :func:`minigrad.viz.layout.layout_graph` (Graphviz dot).

Each node becomes a box three rows high and as wide as its label. A terminal cell
is about twice as tall as it is wide, so dot works in square units (one column)
and rows are halved afterwards. The layout is computed once per graph; the graph
pane only re-styles cells per step.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
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


SPINE_WEIGHT = 20  # how much more a straight layout cares that an edge from a computed tensor stays straight


def layout_graph(labels: dict, edges: list, ops: dict | None = None, *, straight: bool = False) -> GraphLayout:
    """Place nodes ``labels`` (id -> label text; ``ops``: id -> op name) joined by ``edges``, top to bottom.

    ``straight``: the layout for a pane too narrow for the plain one. Dot centres each op under all its
    parents, so a chain of layers, each with a weight beside it, drifts sideways by half a box per layer
    (lesson 8's twelve layers: 134 columns). Here the edges from computed tensors (the spine of a chain)
    are kept straight down, and such a parent is placed in the middle of the leaves beside it, so the
    chain stays one box wide with its leaves on either side (lesson 8: 45 columns, lesson 7's MLP: 54 instead of 72).
    """
    from minigrad.viz.layout import layout_graph as dot_layout

    ops = ops or {}
    widths = {node_id: box_width(label, ops.get(node_id)) for node_id, label in labels.items()}
    sizes = {node_id: (widths[node_id], BOX_ROWS * CELL_ASPECT) for node_id in labels}
    if straight:
        edges = _spine_in_the_middle(edges)
        computed = {dst for _, dst in edges}
        weights = {i: SPINE_WEIGHT for i, (src, _) in enumerate(edges) if src in computed}
        lay = dot_layout(
            sizes, edges, rankdir="TB", nodesep=2.0, ranksep=2.0 * CELL_ASPECT, weights=weights, ordering="in"
        )
    else:
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


def _spine_in_the_middle(edges: list) -> list:
    """``edges`` with each node's first computed parent moved to the middle of its parents (the order the
    straight layout draws them in, left to right); the rest keep their order."""
    computed = {dst for _, dst in edges}
    parents: dict = {}
    for src, dst in edges:
        parents.setdefault(dst, []).append(src)
    out = []
    for dst, srcs in parents.items():
        spine = next((src for src in srcs if src in computed), None)
        if spine is not None and len(srcs) > 2:
            rest = list(srcs)
            rest.remove(spine)
            srcs = [*rest[: len(rest) // 2], spine, *rest[len(rest) // 2 :]]
        out += [(src, dst) for src in srcs]
    return out


def fit_width(layout: GraphLayout, width: int) -> GraphLayout | None:
    """``layout`` squeezed sideways into ``width`` columns, or None where boxes side by side would overlap.

    Columns are scaled, rows kept, and boxes of a rank that would touch move apart: two boxes on the
    same rows stay at least one column apart.
    A layout that already fits is returned as it is.
    """
    if layout.width <= width:
        return layout
    right = max((c + w for c, _, w, _ in layout.boxes.values()), default=0)
    widest = max((w for _, _, w, _ in layout.boxes.values()), default=0)
    if right <= widest or width - 2 < widest:
        return None
    scale = (width - 2 - widest) / (right - widest)  # the rightmost start moves to where the widest box still fits
    boxes = {nid: (round(c * scale), r, w, h) for nid, (c, r, w, h) in layout.boxes.items()}
    by_row: dict = {}
    for nid, (c, r, _, _) in boxes.items():
        by_row.setdefault(r, []).append((c, nid))
    for row in by_row.values():  # boxes of a rank that rounding pushed together move apart, one column between
        free = 0
        for c, nid in sorted(row):
            _, r, w, h = boxes[nid]
            boxes[nid] = (max(c, free), r, w, h)
            free = max(c, free) + w + 1
    if any(c + w > width - 2 for c, _, w, _ in boxes.values()):
        return None
    starts = sorted((r, c, w) for c, r, w, _ in boxes.values())
    rows = [r for r, _, _ in starts]
    for r, c, w in starts:  # boxes of rows that meet (every box is BOX_ROWS high) must not overlap either
        below = starts[bisect_right(rows, r) : bisect_left(rows, r + BOX_ROWS)]
        if any(c2 < c + w + 1 and c < c2 + w2 + 1 for _, c2, w2 in below):
            return None
    edges = [(src, dst, [(round(x * scale), y) for x, y in path]) for src, dst, path in layout.edges]
    squeezed = GraphLayout(boxes=boxes, edges=edges, height=layout.height)
    squeezed.width = max(c + w for c, _, w, _ in boxes.values()) + 2
    return squeezed
