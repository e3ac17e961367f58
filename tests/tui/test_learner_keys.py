"""The keys a lesson names: n walks a pass event by event, r, g, /, w and a; what the step panel shows."""

from __future__ import annotations

from .helpers import current_event, debugger, press, script, text

LESSON_1 = "lessons/01_chain_rule/demo.py"


async def test_n_at_the_top_level_walks_the_backward_pass_event_by_event():
    async with debugger(LESSON_1) as (app, pilot):
        kinds = []
        for _ in range(30):
            await press(app, pilot, "n")
            kinds.append(current_event(app).kind)
            if kinds[-1] == "pass_finished":
                break
        assert "node_named" not in kinds  # naming is part of the creation step
        assert kinds.count("node_entered") == 6 and "closure_called" in kinds and "grad_accumulated" in kinds


async def test_n_steps_over_a_nested_pass_and_s_steps_into_it():
    async with debugger("--break", "pass:grad", script("nested_grad.py")) as (app, pilot):
        await press(app, pilot, "c")
        outer = current_event(app)
        assert outer.kind == "pass_started"
        await press(app, pilot, "r")
        assert current_event(app).kind in ("pass_finished", "error")
        assert current_event(app).pass_id == outer.pass_id


async def test_step_panel_shows_rule_values_and_accumulation():
    async with debugger(LESSON_1) as (app, pilot):
        while current_event(app).kind != "grad_accumulated" or current_event(app).into != "pass":
            await press(app, pilot, "n")
        rule, values = text(app.screen.query_one("#closure-info")), text(app.screen.query_one("#closure-values"))
        assert "return" in rule and "g " in values and "→ " in values
        acc = text(app.screen.query_one("#accumulation-info"))
        names = app.screen._names
        ev = current_event(app)
        assert f"{names[ev.node]} -> {names[ev.target]}: 0 + " in acc and " = " in acc


async def test_goto_search_watch_and_all_nodes():
    async with debugger(LESSON_1) as (app, pilot):
        await press(app, pilot, "g")
        await pilot.press(*"12", "enter")
        await press(app, pilot)
        assert current_event(app).seq == 12, "g goes to the step the header and `trace show` call 12"
        await press(app, pilot, "slash")
        await pilot.press("b", "enter")
        await press(app, pilot)
        b = app.screen.selected
        assert app.screen._names[b] == "b"
        assert current_event(app).seq == 12, "/ selects a node, it never moves execution"
        assert text(app.screen.query_one("#node-head")).startswith("b ")  # b alone, not step 12's node
        await press(app, pilot, "t")
        assert current_event(app).kind == "node_entered" and current_event(app).node == b
        await press(app, pilot, "w")
        watch = app.screen.query_one("#watch")
        assert watch.display and "b" in text(watch) and "g=" in text(watch)
        title = app.screen.query_one("#graph-pane").border_title
        await press(app, pilot, "a")
        assert app.screen.query_one("#graph-pane").border_title != title
        assert "all" in app.screen.query_one("#graph-pane").border_title


async def test_graph_is_the_pass_not_every_node_ever_made():
    async with debugger(script("two_passes.py")) as (app, pilot):
        await press(app, pilot, "c")
        key, ids = app.screen._wanted_scope
        names = {app.screen._names[i] for i in ids}
        assert "loss2" in names and "loss1" not in names
        await press(app, pilot, "a")
        assert app.screen._wanted_scope[1] is None
