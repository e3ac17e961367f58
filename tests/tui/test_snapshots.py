"""Screens a learner sees, as SVG snapshots (pytest-textual-snapshot) at 80×24, 120×36 and 160×48.

Update after a deliberate change with ``pytest tests/tui/test_snapshots.py --snapshot-update``
and look at the new SVGs in ``tests/tui/__snapshots__/`` before committing them.
"""

from __future__ import annotations

import pytest

from minigrad_tui.app import build_app
from minigrad_tui.cli import parse_args

from .helpers import debugger_screen, laid_out, settled, wait_until

pytest.importorskip("pytest_textual_snapshot")
pytestmark = pytest.mark.usefixtures("fresh_ids")  # tests/tui/conftest.py

LESSON_1 = "lessons/01_chain_rule/demo.py"
SCRIPTS = "tests/tui/scripts/"  # relative to the repository root, where pytest runs: the header shows the path
SIZES = {"80x24": (80, 24), "120x36": (120, 36), "160x48": (160, 48)}
CASES = {
    "start": ([LESSON_1], ()),
    "captures": (["--break", "d", LESSON_1], ("c", "s")),  # mul's rule with a and b captured
    "accumulation": (["--break", "d", LESSON_1], ("c", "s", "s")),  # d -> a: before + contribution = after
    "nested_grad": (["--break", "pass:grad", SCRIPTS + "nested_grad.py"], ("c", "s")),  # grad() saves x.grad
    "breakpoint": (["--break", "nonfinite", SCRIPTS + "nonfinite.py"], ("c",)),
    "error": ([SCRIPTS + "raises_backward.py"], ("c",)),  # the error event of the second backward()
    "search": (["--break", "d", LESSON_1], ("c", "slash", "a", "enter")),  # a selected, shown alone; still at d
    # linear's accumulations overflow the step panel at 80×24: node and rule pinned, the sums scrolled below
    "busy": (["--break", "op:linear", "lessons/07_training/demo.py"], ("c", "s", "s", "s", "s", "s")),
}


def _drive(keys):
    async def run_before(pilot) -> None:
        app = pilot.app
        await wait_until(pilot, lambda: settled(app) and debugger_screen(app).model is not None)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.02)
            await wait_until(pilot, lambda: settled(app))
            debugger_screen(app).poll()
        await wait_until(pilot, lambda: laid_out(app))
        app.clear_notifications()
        await pilot.pause(0.1)

    return run_before


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("case", CASES)
def test_screen(snap_compare, case, size):
    argv, keys = CASES[case]
    app = build_app(parse_args(argv))
    try:
        assert snap_compare(app, terminal_size=SIZES[size], run_before=_drive(keys))
    finally:
        app.source.stop()
