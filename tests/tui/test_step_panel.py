"""The step panel keeps its head (why we stopped, the node, the rule) and the event log its current step."""

from __future__ import annotations

from textual.app import App

from minigrad_tui.widgets.event_log import EventLog

from .helpers import current_event, debugger, press, text

LESSON_7 = "lessons/07_training/demo.py"


def _inside(widget, pane) -> bool:
    """``widget`` is drawn, whole, within ``pane``'s region."""
    r, p = widget.region, pane.region
    return r.height > 0 and p.y <= r.y and r.bottom <= p.bottom


async def test_a_busy_step_keeps_the_node_and_its_rule_pinned_while_the_rest_scrolls():
    async with debugger("--break", "op:linear", LESSON_7, size=(80, 24)) as (app, pilot):
        inspector = app.screen.query_one("#inspector")
        body = inspector.body
        await press(app, pilot, "c")
        for _ in range(60):  # into linear's rule: its accumulations overflow the panel at 80×24
            await press(app, pilot, "s")
            await pilot.pause(0.05)
            if current_event(app).kind == "grad_accumulated" and body.max_scroll_y > 0:
                break
        else:
            raise AssertionError("no step overflowed the step panel")
        head, rule = inspector.query_one("#node-head"), inspector.query_one("#closure-info")
        assert "linear" in text(head) and ("def " in text(rule) or "lambda" in text(rule))
        assert body.scroll_y == body.max_scroll_y  # the accumulation, the step's newest value, is on screen
        assert _inside(head, inspector) and _inside(rule, inspector)
        head_at = head.region
        await press(app, pilot, "pageup")
        assert body.scroll_y < body.max_scroll_y
        await press(app, pilot, "pagedown")
        assert body.scroll_y > 0
        assert head.region == head_at and _inside(rule, inspector)  # PgUp/PgDn move only what is below


async def test_a_stop_says_why_above_the_node_and_the_traceback_scrolls_below():
    async with debugger("tests/tui/scripts/raises_in_function.py", size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c")
        inspector = app.screen.query_one("#inspector")
        reason, detail = inspector.query_one("#stop-reason"), inspector.query_one("#stop-detail")
        assert text(reason).strip().startswith("● stopped: ValueError in the pass at")
        assert len(text(reason).strip().splitlines()) <= 2 and "frames inside minigrad" in text(detail)
        assert _inside(reason, inspector) and _inside(inspector.query_one("#node-head"), inspector)


class _LogApp(App):
    CSS = "EventLog { height: 4; width: 30; }"

    def compose(self):
        yield EventLog()


async def test_the_event_log_shows_the_current_step_when_a_line_is_longer_than_the_pane():
    app = _LogApp()
    async with app.run_test(size=(40, 10)) as pilot:
        log = app.query_one(EventLog)
        events = [f"event {i}" + (" with a headline far longer than the pane" if i == 7 else "") for i in range(20)]
        log.show(events, 8, str)
        await pilot.pause()
        rows = [log.render_line(y).text.rstrip() for y in range(4)]
        assert rows[0].startswith("event 7 with") and rows[0].endswith("…")  # cut, not wrapped
        assert rows[1] == "event 8"  # the current step, where the window put it
