"""The screen's layout at the sizes a learner's terminal has: compact at 80×24, side by side from 120×36."""

from __future__ import annotations

import pytest

from .helpers import debugger, press

LESSON_1 = "lessons/01_chain_rule/demo.py"


@pytest.mark.parametrize("size", [(120, 36), (200, 50)])
async def test_graph_and_inspector_side_by_side(size):
    async with debugger("--break", "d", LESSON_1, size=size) as (app, pilot):
        await press(app, pilot, "c", "s")
        screen = app.screen
        assert not screen.has_class("compact")
        graph, inspector = screen.query_one("#graph-pane").region, screen.query_one("#inspector").region
        assert graph.right <= inspector.x  # the inspector to the right of the graph
        assert graph.y == inspector.y  # on the same rows
        assert graph.width >= inspector.width >= 56  # the graph gets the larger share, the rule room to be read
        assert not screen.query_one("#graph-pane").has_class("tree")
        assert screen.query_one("#passes").display


async def test_compact_at_80x24():
    async with debugger("--break", "d", LESSON_1, size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c", "s")
        screen = app.screen
        assert screen.has_class("compact")
        assert screen.query_one("#graph-pane").has_class("tree")
        assert screen.query_one("#inspector").region.width >= 48


def test_a_long_script_path_gives_up_its_start_in_the_header():
    from minigrad_tui.widgets.header import _tail

    path = "/home/learner/some/deep/checkout/lessons/01_chain_rule/demo.py"
    assert _tail(path, 80) == path
    assert _tail(path, 31) == "…/lessons/01_chain_rule/demo.py"
    assert len(_tail(path, 31)) == 31
    assert _tail(path, 3) == "…demo.py"  # never less than the file name
