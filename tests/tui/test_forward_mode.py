"""The debugger steps a forward-mode run: each op's tangent is a step, with the rule that made it."""

from __future__ import annotations

from .helpers import current_event, debugger, header, press, script


async def test_n_steps_through_the_tangents_of_a_forward_mode_run():
    async with debugger(script("forward_mode.py")) as (app, pilot):
        seen = []
        for _ in range(30):
            ev = current_event(app)
            if ev is not None and ev.kind == "tangent_computed":
                seen.append(ev.op)
                if ev.op == "tanh":
                    assert "tangent of" in header(app) and "tanh's forward rule" in header(app)
            if ev is not None and ev.kind == "tangent_computed" and ev.op == "unpack_dual":
                break
            await press(app, pilot, "n")
        assert seen[:3] == ["mul", "tanh", "sum"]


async def test_a_nested_forward_run_steps_through_both_levels():
    """jvp of jvp: the inner level's tangents are steps too, their header naming the level."""
    async with debugger(script("forward_nested.py")) as (app, pilot):
        levels = set()
        for _ in range(80):
            ev = current_event(app)
            if ev is not None and ev.kind == "tangent_computed":
                levels.add(ev.level)
                if ev.level == 1:
                    assert "at level 1" in header(app)
            if levels == {0, 1}:
                break
            await press(app, pilot, "n")
        assert levels == {0, 1}
