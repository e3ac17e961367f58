"""Turn a :class:`~minigrad_tui.layout.GraphLayout` into rows of box-drawing characters.

The raster is built once per layout. Every cell remembers what owns it (a node
or an edge), grouped into spans per row, so the graph pane can re-colour a step
by mapping owners to styles without touching the characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .layout import GraphLayout

UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
_LINES = {
    UP: "│",
    DOWN: "│",
    UP | DOWN: "│",
    LEFT: "─",
    RIGHT: "─",
    LEFT | RIGHT: "─",
    DOWN | RIGHT: "┌",
    DOWN | LEFT: "┐",
    UP | RIGHT: "└",
    UP | LEFT: "┘",
    UP | DOWN | RIGHT: "├",
    UP | DOWN | LEFT: "┤",
    DOWN | LEFT | RIGHT: "┬",
    UP | LEFT | RIGHT: "┴",
    UP | DOWN | LEFT | RIGHT: "┼",
}
_ARROWS = {DOWN: "▼", UP: "▲", RIGHT: "▶", LEFT: "◀"}


@dataclass
class Raster:
    """Characters per row, and per row the spans ``(start, end, owner)``; owner is ("n", id), ("e", i) or None."""

    rows: list = field(default_factory=list)
    spans: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    boxes: dict = field(default_factory=dict)
    width: int = 0
    height: int = 0

    def owner_at(self, col: int, row: int):
        if not 0 <= row < self.height:
            return None
        for start, end, owner in self.spans[row]:
            if start <= col < end:
                return owner
        return None


def _four_connected(a: tuple, b: tuple) -> list:
    """Cells from a to b (inclusive), each a horizontal or vertical neighbour of the one before."""
    (x0, y0), (x1, y1) = a, b
    cells = [(x0, y0)]
    steps = max(abs(x1 - x0), abs(y1 - y0))
    x, y = x0, y0
    for i in range(1, steps + 1):
        nx = round(x0 + (x1 - x0) * i / steps)
        ny = round(y0 + (y1 - y0) * i / steps)
        if nx != x and ny != y:
            cells.append((x, ny))
        cells.append((nx, ny))
        x, y = nx, ny
    return cells


def _direction(a: tuple, b: tuple) -> int:
    if b[1] > a[1]:
        return DOWN
    if b[1] < a[1]:
        return UP
    return RIGHT if b[0] > a[0] else LEFT


_OPPOSITE = {UP: DOWN, DOWN: UP, LEFT: RIGHT, RIGHT: LEFT}


def _attach(path: list, src_box, dst_box) -> list:
    """Start the path on the source box's bottom row and end it on the target box's top row.

    Graphviz stops edges at the box outline (and short of it for the arrowhead); after
    rounding to cells they may float a cell away, so both ends are pulled onto the boxes.
    """
    if not path or src_box is None or dst_box is None:
        return path
    col, row, w, h = src_box
    first = path[0]
    start = (min(max(first[0], col + 1), col + w - 2), row + h - 1)
    col, row, w, _ = dst_box
    last = path[-2] if len(path) > 1 else path[-1]
    end = (min(max(last[0], col + 1), col + w - 2), row)
    return [start, (start[0], max(first[1], start[1]))] + list(path) + [(end[0], min(last[1], end[1] - 1)), end]


def rasterize(layout: GraphLayout, labels: dict, ops: dict) -> Raster:
    """Draw boxes (label inside, op on the top border) and edges with arrowheads into the child."""
    width, height = layout.width, layout.height
    inside = [[None] * width for _ in range(height)]
    for node_id, (col, row, w, h) in layout.boxes.items():
        for r in range(row, min(row + h, height)):
            for c in range(col, min(col + w, width)):
                inside[r][c] = node_id
    bits = [[0] * width for _ in range(height)]
    owner = [[None] * width for _ in range(height)]
    arrows = {}
    edges = []
    for index, (src, dst, path) in enumerate(layout.edges):
        edges.append((src, dst))
        path = _attach(path, layout.boxes.get(src), layout.boxes.get(dst))
        cells = []
        for a, b in zip(path, path[1:]):
            seg = _four_connected(a, b)
            cells.extend(seg if not cells else seg[1:])
        cells = [(min(max(c, 0), width - 1), min(max(r, 0), height - 1)) for c, r in cells]
        last_outside = None
        for a, b in zip(cells, cells[1:]):
            if a == b:
                continue
            d = _direction(a, b)
            a_in, b_in = inside[a[1]][a[0]] is not None, inside[b[1]][b[0]] is not None
            if not a_in:
                bits[a[1]][a[0]] |= d
                owner[a[1]][a[0]] = ("e", index)
            if not b_in:
                bits[b[1]][b[0]] |= _OPPOSITE[d]
                owner[b[1]][b[0]] = ("e", index)
            if not a_in and inside[b[1]][b[0]] == dst:
                last_outside = (a, d)
        if last_outside is not None:
            arrows[last_outside[0]] = _ARROWS[last_outside[1]]
    rows = []
    for r in range(height):
        chars = [_LINES.get(bits[r][c], " ") if bits[r][c] else " " for c in range(width)]
        rows.append(chars)
    for (c, r), ch in arrows.items():
        rows[r][c] = ch
    for node_id, (col, row, w, _h) in layout.boxes.items():
        if row + 2 >= height or col + w > width:
            continue
        op = ops.get(node_id) or ""
        top = "─" * (w - 2)
        if op and len(op) + 2 <= w - 2:
            top = "─" + op + "─" * (w - 3 - len(op))
        label = labels[node_id][: w - 4].center(w - 4)
        for c, ch in enumerate("┌" + top + "┐"):
            rows[row][col + c] = ch
        for c, ch in enumerate("│ " + label + " │"):
            rows[row + 1][col + c] = ch
        for c, ch in enumerate("└" + "─" * (w - 2) + "┘"):
            rows[row + 2][col + c] = ch
        for r in range(row, row + 3):
            for c in range(col, col + w):
                owner[r][c] = ("n", node_id)
    spans = []
    for r in range(height):
        row_spans = []
        start = 0
        for c in range(1, width + 1):
            if c == width or owner[r][c] != owner[r][start]:
                row_spans.append((start, c, owner[r][start]))
                start = c
        spans.append(row_spans)
    return Raster(
        rows=["".join(chars) for chars in rows],
        spans=spans,
        edges=edges,
        boxes=dict(layout.boxes),
        width=width,
        height=height,
    )
