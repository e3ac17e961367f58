"""The debugger steps an engine of the learner's own (lesson 10's Value, through minigrad.trace.emit)."""

from __future__ import annotations

from minigrad.course import find_lesson

from .helpers import current_event, debugger, header, press, text

DEMO = str(find_lesson(10).demo)


async def test_the_debugger_steps_a_value_engine_rule_by_rule():
    async with debugger("--break", "op:tanh", DEMO, "reference") as (app, pilot):
        await press(app, pilot, "c")
        assert current_event(app).kind == "node_entered"
        assert "f" in header(app)
        await press(app, pilot, "s")
        ev = current_event(app)
        assert ev.kind == "closure_called"
        rule, values = text(app.screen.query_one("#closure-info")), text(app.screen.query_one("#closure-values"))
        assert "lambda g: (g * (1 - t * t),)" in rule and "0.9993" in values  # the rule and its captured t
        await press(app, pilot, "s")
        assert current_event(app).kind == "grad_accumulated"
        acc = text(app.screen.query_one("#accumulation-info"))
        assert "f -> e: 0 + 0.002682 = 0.002682" in acc  # before + contribution = after, parent named
