"""A recording that went over its memory budget says so in one line: the passes it dropped, the values it reduced."""

from __future__ import annotations

import warnings

import numpy as np

import minigrad as mg
from minigrad.trace import record
from minigrad_tui.app import DebuggerApp
from minigrad_tui.runner import ReplaySource

from .helpers import press, settled, text, wait_until


def _over_budget_trace():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with record(max_bytes=400_000) as trace:
            w = mg.tensor(np.linspace(-1, 1, 32 * 32).reshape(32, 32), dtype=mg.float64, requires_grad=True)
            for _ in range(40):
                (w @ w).tanh().sum().backward()
                w.grad = None
    assert trace.dropped is not None and trace.summarised_before is not None
    return trace


async def test_the_inspector_says_that_earlier_passes_were_dropped_at_every_step():
    trace = _over_budget_trace()
    app = DebuggerApp(ReplaySource(trace), "over budget")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app) and app.screen.model is not None)
        notice = app.screen.query_one("#budget")
        assert notice.display
        (line,) = text(notice).strip().splitlines()
        assert f"budget: {trace.dropped.passes} earlier passes dropped" in line
        await press(app, pilot, "end")
        (line,) = text(notice).strip().splitlines()
        assert f"budget: {trace.dropped.passes} earlier passes dropped; values are summ" in line


async def test_the_inspector_says_which_values_are_summaries():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with record(max_bytes=1_500_000) as trace:
            w = mg.tensor(np.linspace(-1, 1, 32 * 32).reshape(32, 32), dtype=mg.float64, requires_grad=True)
            for _ in range(40):
                (w @ w).tanh().sum().backward()
    assert trace.dropped is None and trace.summarised_before
    app = DebuggerApp(ReplaySource(trace), "over budget")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app) and app.screen.model is not None)
        await press(app, pilot, "end")
        (line,) = text(app.screen.query_one("#budget")).strip().splitlines()
        assert f"values are summaries (from step {trace.summarised_before})" in line


async def test_no_notice_within_the_budget():
    with record() as trace:
        (mg.tensor([1.0, 2.0], requires_grad=True) ** 2).sum().backward()
    app = DebuggerApp(ReplaySource(trace), "within budget")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app) and app.screen.model is not None)
        await press(app, pilot, "end")
        assert not app.screen.query_one("#budget").display


async def test_passes_dropped_while_the_debugger_shows_the_trace_are_learnt_anew():
    trace = _over_budget_trace()
    app = DebuggerApp(ReplaySource(trace), "over budget")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app) and app.screen.model is not None)
        await press(app, pilot, "end", "up", "up")
        shown = app.session.events[app.session.cursor]
        before = trace.dropped.passes
        cut = next(i + 1 for i, e in enumerate(trace.events) if e.kind == "pass_finished")
        trace.drop(cut)  # what a live recording's budget does between two polls
        app.screen.poll()
        assert app.session.events[app.session.cursor] is shown  # the cursor follows the renumbered event
        await press(app, pilot, "end")
        (line,) = text(app.screen.query_one("#budget")).strip().splitlines()
        assert f"budget: {before + 1} earlier passes dropped" in line
        created = {e.node for e in trace.events if e.kind == "node_created"}
        assert set(app.screen._names) == created  # names learnt again from the renumbered events
