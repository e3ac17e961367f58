"""layout_graph: Graphviz positions as plain numbers for the terminal debugger."""

import itertools

import pytest

from minigrad.viz import layout_graph
from minigrad.viz.layout import EdgePath, Layout, NodeBox


def _overlap(a: NodeBox, b: NodeBox) -> bool:
    return a.x < b.x + b.width and b.x < a.x + a.width and a.y < b.y + b.height and b.y < a.y + a.height


def _inside(p, box: NodeBox, tol=0.6) -> bool:
    return box.x - tol <= p[0] <= box.x + box.width + tol and box.y - tol <= p[1] <= box.y + box.height + tol


def test_boxes_keep_their_sizes_and_do_not_overlap():
    sizes = {"a": (9, 3), "b": (9, 3), "mul": (5, 1), "out": (7, 3)}
    edges = [("a", "mul"), ("b", "mul"), ("mul", "out")]
    lay = layout_graph(sizes, edges, rankdir="LR")
    assert isinstance(lay, Layout)
    for key, (w, h) in sizes.items():
        box = lay.nodes[key]
        assert (box.width, box.height) == (w, h)
        assert box.x >= -1e-6 and box.y >= -1e-6
        assert box.x + box.width <= lay.width + 1e-6 and box.y + box.height <= lay.height + 1e-6
    for p, q in itertools.combinations(lay.nodes.values(), 2):
        assert not _overlap(p, q)
    # left to right: each edge goes from a box to a box further right
    for tail, head in edges:
        assert lay.nodes[tail].x + lay.nodes[tail].width <= lay.nodes[head].x + 1e-6


def test_top_to_bottom_ranks_and_edge_polylines_join_the_boxes():
    edges = [("x", "y"), ("y", "z"), ("x", "z")]
    lay = layout_graph({"x": (6, 2), "y": (6, 2), "z": (6, 2)}, edges)
    assert lay.nodes["x"].y < lay.nodes["y"].y < lay.nodes["z"].y  # y grows downward
    assert [(e.tail, e.head) for e in lay.edges] == edges
    for e in lay.edges:
        assert isinstance(e, EdgePath) and len(e.points) >= 2
        assert _inside(e.points[0], lay.nodes[e.tail])
        assert _inside(e.points[-1], lay.nodes[e.head])


def test_iterable_of_keys_and_parallel_edges():
    lay = layout_graph([1, 2], [(1, 2), (1, 2)], nodesep=1, ranksep=3)
    assert set(lay.nodes) == {1, 2}
    assert lay.nodes[1].width == 1 and len(lay.edges) == 2
    assert lay.nodes[2].y - (lay.nodes[1].y + 1) == pytest.approx(3, abs=0.5)


def test_ordering_in_keeps_parents_in_the_order_of_the_edges():
    sizes = {k: (6, 2) for k in ("a", "b", "c", "out")}
    for order in (["a", "b", "c"], ["b", "a", "c"], ["c", "a", "b"]):
        lay = layout_graph(sizes, [(k, "out") for k in order], ordering="in")
        assert sorted(order, key=lambda k: lay.nodes[k].x) == order


def test_a_heavy_edge_is_kept_straight():
    sizes = {k: (6, 2) for k in ("h", "w", "mul", "out")}
    edges = [("h", "mul"), ("w", "mul"), ("mul", "out")]
    plain = layout_graph(sizes, edges)
    assert plain.nodes["mul"].x != plain.nodes["h"].x  # centred under both parents
    heavy = layout_graph(sizes, edges, weights={0: 20})
    assert heavy.nodes["mul"].x == pytest.approx(heavy.nodes["h"].x)  # straight under h


def test_bad_input():
    with pytest.raises(ValueError, match="edge \\('a', 'c'\\) uses 'c', which is not in nodes"):
        layout_graph(["a", "b"], [("a", "c")])
    with pytest.raises(ValueError, match="rankdir must be one of"):
        layout_graph(["a"], [], rankdir="up")
    with pytest.raises(ValueError, match="have the same str"):
        layout_graph([1, "1"], [])
    with pytest.raises(ValueError, match="ordering must be None, 'in' or 'out', got 'up'"):
        layout_graph(["a"], [], ordering="up")
