"""What a step draws: the screen is laid out again only when a widget's height changes, and widgets whose
content did not change (the footer, the tabs, the parts of the step panel a step leaves alone) are not
drawn again. Counted, never timed (how fast a step is: bench W8)."""

from __future__ import annotations

from collections import Counter

from textual.app import App
from textual.screen import Screen
from textual.widget import Widget

import minigrad as mg
from minigrad.trace import record
from minigrad_tui.widgets.in_place_static import InPlaceStatic

from .helpers import debugger, laid_out, press, wait_until


def _count_layouts_and_drawing(monkeypatch) -> tuple:
    """(Counter of screen layouts, Counter of the widgets whose content was drawn, by id or class name)."""
    layouts, drawn = Counter(), Counter()
    refresh_layout, render_content = Screen._refresh_layout, Widget._render_content

    def counting_layout(screen, *args, **kwargs):
        layouts["layout"] += 1
        return refresh_layout(screen, *args, **kwargs)

    def counting_content(widget):
        drawn[widget.id or type(widget).__name__] += 1
        return render_content(widget)

    monkeypatch.setattr(Screen, "_refresh_layout", counting_layout)
    monkeypatch.setattr(Widget, "_render_content", counting_content)
    return layouts, drawn


async def test_stepping_through_a_forward_pass_lays_out_nothing_and_draws_only_what_changed(tmp_path, monkeypatch):
    path = tmp_path / "chain.jsonl"
    with record() as trace:
        h = mg.tensor([0.5, -0.25], requires_grad=True, name="x")
        for _ in range(40):
            h = h * 1.0001
        h.sum().backward()
    trace.save(path)
    # wide enough that the header's one line always fits: at 160 columns its words (node ids, whose digits grow
    # with every tensor the process made before) and the tmp path's length could push it onto two lines, a
    # height change that is rightly laid out, in some test orders and not others
    async with debugger("--replay", str(path), size=(240, 48)) as (app, pilot):
        await press(app, pilot, "home", "s")
        await wait_until(pilot, lambda: laid_out(app))
        await pilot.pause()
        layouts, drawn = _count_layouts_and_drawing(monkeypatch)
        await press(app, pilot, *["s"] * 8)  # eight new nodes of the chain: each step changes the same widgets
        assert app.session.events[app.session.cursor].kind == "node_created"
    assert layouts["layout"] == 0
    assert set(drawn) <= {"header", "events", "node-head", "node-info", "ScrollBar"}, drawn
    assert drawn["header"] == drawn["events"] == drawn["node-head"] == 8


class _OneStatic(App):
    def compose(self):
        yield InPlaceStatic("one line", id="text")


async def test_in_place_static_lays_out_the_screen_only_when_its_height_changes(monkeypatch):
    app = _OneStatic()
    async with app.run_test(size=(40, 10)) as pilot:
        text = app.query_one("#text", InPlaceStatic)
        await pilot.pause()  # the first layout done
        layouts, drawn = _count_layouts_and_drawing(monkeypatch)
        text.show_content("another line")
        await pilot.pause()
        assert (layouts["layout"], drawn["text"]) == (0, 1)
        text.show_content("another line")  # unchanged: not drawn again
        await pilot.pause()
        assert (layouts["layout"], drawn["text"]) == (0, 1)
        text.show_content("three\nlines\nnow")  # taller: laid out, and shown whole
        await pilot.pause()
        assert layouts["layout"] >= 1 and text.size.height == 3
        text.show_content("one again")
        await pilot.pause()
        assert text.size.height == 1
