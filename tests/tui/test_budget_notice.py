"""A recording that went over its memory budget says so in one line, at each step it reduced."""

from __future__ import annotations

import warnings

import numpy as np

import minigrad as mg
from minigrad.trace import record
from tui.app import DebuggerApp
from tui.runner import ReplaySource

from .helpers import press, settled, text, wait_until


def _over_budget_trace():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with record(max_bytes=400_000) as trace:
            w = mg.tensor(np.linspace(-1, 1, 32 * 32).reshape(32, 32), dtype=mg.float64, requires_grad=True)
            for _ in range(40):
                (w @ w).tanh().sum().backward()
                w.grad = None
    assert trace.outlined_before is not None
    return trace


async def test_the_inspector_says_what_the_budget_dropped():
    trace = _over_budget_trace()
    app = DebuggerApp(ReplaySource(trace), "over budget")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app) and app.screen.model is not None)
        notice = app.screen.query_one("#budget")
        assert notice.display
        (line,) = text(notice).strip().splitlines()
        assert "values dropped here (outline only)" in line
        await press(app, pilot, "end")
        (line,) = text(notice).strip().splitlines()
        assert f"values are summaries (from step {trace.summarised_before})" in line


async def test_no_notice_within_the_budget():
    with record() as trace:
        (mg.tensor([1.0, 2.0], requires_grad=True) ** 2).sum().backward()
    app = DebuggerApp(ReplaySource(trace), "within budget")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: settled(app) and app.screen.model is not None)
        await press(app, pilot, "end")
        assert not app.screen.query_one("#budget").display
