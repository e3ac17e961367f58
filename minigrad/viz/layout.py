"""Graphviz's ``dot`` layout as plain numbers, for drawing a graph somewhere else (e.g. a terminal).

Example (a terminal debugger placing boxes measured in character cells)::

    from minigrad.viz.layout import layout_graph

    lay = layout_graph({"a": (9, 3), "b": (9, 3), "mul": (5, 1)}, [("a", "mul"), ("b", "mul")], rankdir="LR")
    lay.width, lay.height            # size of the whole drawing, in the units of the sizes
    box = lay.nodes["mul"]           # NodeBox(x, y, width, height): top-left corner, y grows downward
    lay.edges[0].points              # [(x, y), ...] polyline from the tail box to the arrow tip
"""

from __future__ import annotations

from dataclasses import dataclass

from .render import import_pygraphviz

__all__ = ["NodeBox", "EdgePath", "Layout", "layout_graph"]

_POINTS_PER_INCH = 72.0


@dataclass(frozen=True)
class NodeBox:
    """A laid-out node: top-left corner ``(x, y)`` and size, in the caller's units (y grows downward)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.width / 2, self.y + self.height / 2)


@dataclass(frozen=True)
class EdgePath:
    """A laid-out edge from ``tail`` to ``head``: a polyline ending at the arrow tip (``points[-1]``)."""

    tail: object
    head: object
    points: list


@dataclass(frozen=True)
class Layout:
    """The result of :func:`layout_graph`: drawing size, boxes by node key, edge polylines."""

    width: float
    height: float
    nodes: dict
    edges: list


def _bezier(p0, p1, p2, p3, samples: int) -> list:
    out = []
    for i in range(1, samples + 1):
        t = i / samples
        u = 1 - t
        out.append(
            (
                u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
                u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
            )
        )
    return out


def _parse_spline(pos: str) -> tuple[list, tuple | None]:
    """Graphviz edge ``pos`` -> (control points, arrow tip or None)."""
    points, tip = [], None
    for token in pos.split():
        if token.startswith("e,"):
            x, y = token[2:].split(",")
            tip = (float(x), float(y))
        elif token.startswith("s,"):
            continue
        else:
            x, y = token.split(",")[:2]
            points.append((float(x), float(y)))
    return points, tip


def layout_graph(
    nodes,
    edges,
    *,
    rankdir: str = "TB",
    nodesep: float = 2.0,
    ranksep: float = 2.0,
    unit: float = 0.1,
    samples: int = 4,
    weights=None,
    ordering: str | None = None,
) -> Layout:
    """Lay out a directed graph with Graphviz ``dot`` and return positions in the caller's units.

    Args:
        nodes: a mapping ``key -> (width, height)`` of box sizes, or an iterable of keys
            (every box then 1 x 1). Keys are any hashable values; ``str(key)`` must be unique.
        edges: iterable of ``(tail_key, head_key)`` pairs (both keys must be in ``nodes``).
        rankdir: ``"TB"`` (ranks top to bottom, default), ``"LR"``, ``"BT"`` or ``"RL"``.
        nodesep: minimum gap between boxes of one rank, in units.
        ranksep: minimum gap between ranks, in units.
        unit: how many inches one unit is inside Graphviz (only affects rounding; sizes,
            gaps and results are all in units).
        samples: points per Bezier segment of an edge's polyline.
        weights: optional ``edge index -> weight`` (Graphviz's edge ``weight``, default 1): a heavier
            edge is kept shorter and straighter.
        ordering: Graphviz's graph ``ordering``: ``"in"`` keeps each node's incoming edges (so its
            parents) left to right in the order ``edges`` lists them; ``"out"`` the outgoing ones.

    Returns:
        :class:`Layout` with ``width``/``height`` of the drawing, ``nodes[key]`` as a
        :class:`NodeBox` (top-left corner, size; y grows downward, as on a screen), and
        ``edges`` as :class:`EdgePath` polylines in input order, from the tail box's border to
        the arrow tip at the head box's border. Boxes never overlap; with character cells as
        units, rounding ``x``/``y`` gives cell positions (the caller corrects for cell aspect).
    """
    pygraphviz = import_pygraphviz()
    if rankdir.upper() not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"layout_graph(): rankdir must be one of TB, LR, BT, RL, got {rankdir!r}")
    sizes = dict(nodes) if hasattr(nodes, "items") else {k: (1, 1) for k in nodes}
    names = {}
    for key in sizes:
        name = str(key)
        if name in names:
            raise ValueError(f"layout_graph(): node keys {names[name]!r} and {key!r} have the same str()")
        names[name] = key
    edges = [tuple(e) for e in edges]
    for tail, head in edges:
        for end in (tail, head):
            if end not in sizes:
                raise ValueError(f"layout_graph(): edge ({tail!r}, {head!r}) uses {end!r}, which is not in nodes")
    g = pygraphviz.AGraph(directed=True, strict=False)
    if ordering not in (None, "in", "out"):
        raise ValueError(f"layout_graph(): ordering must be None, 'in' or 'out', got {ordering!r}")
    g.graph_attr.update(rankdir=rankdir.upper(), nodesep=str(nodesep * unit), ranksep=str(ranksep * unit))
    if ordering is not None:
        g.graph_attr["ordering"] = ordering
    weights = weights or {}
    g.node_attr.update(shape="box", fixedsize="true", label="", margin="0")
    for key, (w, h) in sizes.items():
        g.add_node(str(key), width=str(w * unit), height=str(h * unit))
    for i, (tail, head) in enumerate(edges):
        if i in weights:
            g.add_edge(str(tail), str(head), key=str(i), weight=str(weights[i]))
        else:
            g.add_edge(str(tail), str(head), key=str(i))
    g.layout(prog="dot")
    scale = 1.0 / (unit * _POINTS_PER_INCH)
    bb = [float(v) for v in g.graph_attr["bb"].split(",")]
    top = bb[3]

    def to_units(p):
        return ((p[0] - bb[0]) * scale, (top - p[1]) * scale)

    boxes = {}
    for name, key in names.items():
        n = g.get_node(name)
        cx, cy = to_units(tuple(float(v) for v in n.attr["pos"].split(",")))
        w, h = sizes[key]
        boxes[key] = NodeBox(cx - w / 2, cy - h / 2, float(w), float(h))
    paths = []
    for i, (tail, head) in enumerate(edges):
        e = g.get_edge(str(tail), str(head), key=str(i))
        ctrl, tip = _parse_spline(e.attr["pos"])
        polyline = [ctrl[0]]
        for j in range(0, len(ctrl) - 3, 3):
            polyline.extend(_bezier(ctrl[j], ctrl[j + 1], ctrl[j + 2], ctrl[j + 3], samples))
        if tip is not None:
            polyline.append(tip)
        paths.append(EdgePath(tail, head, [to_units(p) for p in polyline]))
    return Layout((bb[2] - bb[0]) * scale, (bb[3] - bb[1]) * scale, boxes, paths)
