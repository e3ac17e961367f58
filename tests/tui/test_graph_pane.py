"""The graph pane at 80 columns (the tree) and at 120 and more (the drawing)."""

from __future__ import annotations

import pytest

from minigrad_tui.layout import BOX_ROWS, GraphLayout, fit_width, layout_graph

from .helpers import current_event, debugger, laid_out, press, script, wait_until

LESSON_7 = "lessons/07_training/demo.py"
LESSON_8 = "lessons/08_debugging_gradients/demo.py"


def _tree_rows(app) -> list:
    tree = app.screen.query_one("#tree")
    return [tree.render_line(y).text for y in range(tree.size.height)]


async def test_the_tree_at_80_columns_never_cuts_the_names_around_the_current_node():
    async with debugger(script("long_names.py"), size=(80, 24)) as (app, pilot):
        screen = app.screen
        tree = screen.query_one("#tree")
        seen = 0
        while not app.session.at_last:
            await press(app, pilot, "s")
            await pilot.pause(0.05)
            event = current_event(app)
            if event.pass_id is None or event.kind != "node_entered":
                continue
            node = event.node
            near = {node, *tree.parents.get(node, ()), *tree.consumers.get(node, ())}
            rows = _tree_rows(app)
            for nid in near:  # whole, each on a row of its own (not cut to "…")
                name = screen._names[nid]
                assert any(f" {name}" in row and f"{name[:-1]}…" not in row for row in rows), (name, rows)
            seen += 1
        assert seen >= 4


async def test_the_tree_shows_values_only_on_the_current_path():
    async with debugger(script("long_names.py"), size=(80, 24)) as (app, pilot):
        screen = app.screen
        while not (
            current_event(app).kind == "node_entered" and screen._names[current_event(app).node] == "first_weights"
        ):
            await press(app, pilot, "s")
        await pilot.pause(0.05)
        rows = _tree_rows(app)
        (batch,) = [row for row in rows if "input_batch" in row]
        (weights,) = [row for row in rows if "first_weights" in row]
        assert batch.split("input_batch")[1].strip() == ""  # off the path: its name alone
        assert "[0." in weights  # the current node: its value


def _rank(*widths, gap: int = 4) -> GraphLayout:
    """Boxes side by side on row 0, ``gap`` columns apart, with an edge down to a box below the first."""
    out, col = GraphLayout(), 0
    for i, w in enumerate(widths):
        out.boxes[i] = (col, 0, w, BOX_ROWS)
        col += w + gap
    out.boxes["child"] = (0, 6, 16, BOX_ROWS)
    out.edges = [(0, "child", [(8, 3), (8, 5)])]
    out.width, out.height = col - gap + 2, 10
    return out


def test_a_layout_wider_than_its_pane_is_squeezed_sideways_without_boxes_meeting():
    wide = _rank(16, 16, 16, 16)  # 76 columns drawn
    assert fit_width(wide, 200) is wide
    squeezed = fit_width(wide, 72)
    assert squeezed is not None and squeezed.width <= 72
    row = sorted((c, w) for c, r, w, _ in squeezed.boxes.values() if r == 0)
    assert all(c1 >= c0 + w0 + 1 for (c0, w0), (c1, _) in zip(row, row[1:]))  # a column between neighbours
    assert fit_width(wide, 60) is None  # four 16-wide boxes need 67 columns: not without overlapping


async def test_the_drawing_fits_its_pane_at_120_columns_and_up_and_is_drawn_again_on_resize(fresh_ids):
    """(fresh_ids: the labels' ``#id``s, and so the drawing's width, do not depend on what ran before.)"""
    async with debugger(LESSON_8, size=(250, 60)) as (app, pilot):
        await press(app, pilot, "g", "p", "1", "enter")
        await wait_until(pilot, lambda: laid_out(app))  # the pass's graph is laid out in a worker thread
        screen = app.screen
        pane, canvas = screen.query_one("#graph-pane"), screen.query_one("#canvas")
        drawn = canvas.raster.width
        assert not pane.has_class("tree") and drawn <= pane.scrollable_content_region.width
        await pilot.resize_terminal(220, 60)  # narrower than the drawing: squeezed into the pane
        await wait_until(pilot, lambda: canvas.raster.width < drawn)  # fitted again after the resize
        assert not pane.has_class("tree")
        assert canvas.raster.width <= pane.scrollable_content_region.width < drawn
        await pilot.resize_terminal(120, 36)  # too narrow for its ranks even squeezed: the straight layout
        await wait_until(pilot, lambda: canvas.raster.width <= pane.scrollable_content_region.width)
        assert not pane.has_class("tree")
        await pilot.resize_terminal(100, 30)  # too narrow for the straight layout too: the tree, never clipped
        await wait_until(pilot, lambda: pane.has_class("tree"))
        await pilot.resize_terminal(250, 60)
        await wait_until(pilot, lambda: not pane.has_class("tree") and canvas.raster.width == drawn)


def _chain(layers: int) -> tuple[dict, list]:
    """Lesson 8's shape: ``h = sigmoid(h @ W)`` ``layers`` times, each weight a leaf beside the chain."""
    labels, edges, h = {"h": "h"}, [], "h"
    for k in range(layers):
        labels |= {f"W{k}": f"W{k}", f"mm{k}": f"matmul#{k}", f"s{k}": f"sigmoid#{k}"}
        edges += [(h, f"mm{k}"), (f"W{k}", f"mm{k}"), (f"mm{k}", f"s{k}")]
        h = f"s{k}"
    return labels, edges


def test_the_straight_layout_keeps_a_chain_straight_down_with_its_leaves_beside_it():
    labels, edges = _chain(12)
    plain, straight = layout_graph(labels, edges), layout_graph(labels, edges, straight=True)
    assert plain.width > 100  # dot centres each matmul under h and W: the chain drifts sideways
    assert straight.width < 3 * 16  # the chain and a leaf beside it (the first rank, h and W0, half a box off)
    chain = {straight.boxes[n][0] for n in labels if n.startswith(("mm", "s"))}
    assert len(chain) == 1  # every box of the chain in one column
    assert sorted(straight.boxes) == sorted(labels) and len(straight.edges) == len(edges)


def test_the_straight_layout_puts_the_chain_between_a_linear_layers_weight_and_bias():
    labels = {n: n for n in ("x", "w1", "b1", "lin1", "tanh", "w2", "b2", "lin2")}
    edges = [("x", "lin1"), ("w1", "lin1"), ("b1", "lin1"), ("lin1", "tanh")]
    edges += [("tanh", "lin2"), ("w2", "lin2"), ("b2", "lin2")]
    straight = layout_graph(labels, edges, straight=True)
    col = {n: straight.boxes[n][0] for n in labels}
    assert col["w2"] < col["tanh"] < col["b2"]  # the computed parent in the middle of the leaves
    assert col["tanh"] == col["lin2"] == col["lin1"]
    assert straight.width <= 3 * 16 + 2 * 2 + 2


@pytest.mark.parametrize(
    ("argv", "keys", "op"),
    [([LESSON_8], ("g", "p", "1", "enter"), "sigmoid"), (["--break", "op:linear", LESSON_7], ("c", "s"), "linear")],
    ids=["lesson_8", "lesson_7"],
)
async def test_lessons_7_and_8_draw_their_graphs_at_120x36(fresh_ids, argv, keys, op):
    """Their chains cannot be squeezed into the 62-column pane top-down (dot's layout drifts sideways): the
    straight layout fits, so the pane shows the drawing, not the tree."""
    async with debugger(*argv, size=(120, 36)) as (app, pilot):
        await press(app, pilot, *keys)
        await wait_until(pilot, lambda: laid_out(app))
        pane, canvas = app.screen.query_one("#graph-pane"), app.screen.query_one("#canvas")
        await wait_until(pilot, lambda: not pane.has_class("tree"))
        assert canvas.raster.width <= pane.scrollable_content_region.width
        assert op in "\n".join(canvas.raster.rows)


async def test_a_graphviz_that_cannot_load_leaves_the_tree_and_says_why(monkeypatch):
    # pygraphviz's wheel links the system's GLib: without it, importing pygraphviz raises ImportError.
    import minigrad_tui.screen

    def unloadable(*args, **kwargs):
        raise ImportError("libgobject-2.0.so.0: cannot open shared object file: No such file or directory")

    monkeypatch.setattr(minigrad_tui.screen, "layout_graph", unloadable)
    async with debugger(size=(160, 48)) as (app, pilot):
        await press(app, pilot, "c")
        await wait_until(pilot, lambda: app.source.state == "finished" and app.screen.tree_forced)
        await press(app, pilot, "home", "N")
        assert app.screen.query_one("#tree").display and not app.screen.query_one("#canvas").display
        assert any("Graphviz could not be loaded" in (n.title or "") for n in app._notifications)
        assert " a" in "\n".join(_tree_rows(app))  # the built-in example's leaf, in the tree
        assert app.is_running
