"""The learner's console (issue 28): ``x`` shows a value of the step whole, ``:`` evaluates an expression over
the step, ``b``/``i`` on a node stop where backward enters that very node, live and in replay alike."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import minigrad as mg
from minigrad.trace import Breakpoint, record
from minigrad.trace.values import VIEW_LIMIT
from minigrad_tui import console
from minigrad_tui.app import DebuggerApp
from minigrad_tui.cli import parse_args
from minigrad_tui.web import debugger_command

from .helpers import current_event, debugger, debugger_screen, header, press, text, wait_until

LESSON_1 = "lessons/01_chain_rule/demo.py"


async def _open_value(app, pilot, what: str):
    """Press x, pick the value whose label starts with ``what``, and return the value view."""
    await pilot.press("x")
    await wait_until(pilot, lambda: type(app.screen).__name__ == "ValuePicker")
    labels = [what_ for what_, _ in app.screen.values]
    picked = next(i for i, label in enumerate(labels) if what in label)
    app.screen.dismiss(picked)
    await wait_until(pilot, lambda: type(app.screen).__name__ == "ValueView")
    # the view writes its lines after its first refresh (as wide as it is laid out): wait for them, not a time
    await wait_until(pilot, lambda: app.screen.query_one("Log").lines)
    return app.screen


async def test_x_lists_the_steps_values_and_shows_one_whole():
    async with debugger("--break", "d", LESSON_1, size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c", "s")  # mul's rule: g, a and b captured
        await pilot.press("x")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ValuePicker")
        labels = [what for what, _ in app.screen.values]
        assert {"gradient in (g)", "captured a", "captured b", "returned for a", "returned for b"} <= set(labels)
        await pilot.press("escape")
        view = await _open_value(app, pilot, "captured b")
        assert "captured b  float32[]" in text(view.query_one("#value-title"))
        assert view.query_one("Log").lines == ["-3."]


def _big_trace(path, shape=(150, 100)):
    w = mg.tensor(np.arange(np.prod(shape), dtype=np.float64).reshape(shape), requires_grad=True, name="w")
    with record(max_values=20_000) as tr:
        (w * 2.0).sum().backward()
    tr.save(path)


async def test_a_large_value_opens_on_its_first_rows_and_takes_a_slice(tmp_path):
    path = tmp_path / "big.jsonl"
    _big_trace(path)
    async with debugger("--replay", str(path), size=(80, 24)) as (app, pilot):
        screen = debugger_screen(app)
        app.session.go(
            next(
                i
                for i, e in enumerate(app.session.events)
                if e.kind == "closure_called"
                and e.node == next(n for n, info in app.session.trace.nodes.items() if info.op == "mul")
            )
        )
        screen._moved()
        view = await _open_value(app, pilot, " data")  # mul's value: 2 * w
        field = view.query_one("Input")
        assert field.value == f"0:{VIEW_LIMIT // 100}"  # 15 000 values: the first 100 rows
        lines = view.query_one("Log").lines
        assert lines[0].startswith("[0, 0:") and lines[-1].startswith("[99, ")
        await pilot.press("tab")
        assert field.has_focus
        field.value = "3, 5:9"
        await pilot.press("enter")
        await wait_until(pilot, lambda: view.query_one("Log").lines == ["[3, 5:9] 610. 612. 614. 616."])
        await pilot.press("tab")
        field.value = "__import__('os')"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "invalid index" in text(view.query_one("#value-note")))
        await pilot.press("tab")
        field.value = ":, :"
        await pilot.press("enter")
        note = "15000 values: the view prints at most 10000"
        await wait_until(pilot, lambda: note in text(view.query_one("#value-note")))


async def _ask(app, pilot, expression: str) -> str:
    pane = app.screen
    pane.query_one("Input").value = expression
    before = len(pane.history.transcript)
    await pilot.press("enter")
    await wait_until(pilot, lambda: len(pane.history.transcript) >= before + 2)
    return pane.history.transcript[-1].plain


async def test_the_console_evaluates_over_the_rule_the_nodes_and_the_script():
    async with debugger("--break", "f", LESSON_1, size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c", "s")  # tanh's rule of f: g and out
        assert current_event(app).kind == "closure_called"
        await pilot.press("colon")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ConsolePane")
        assert "the script's variables" in app.screen.title_text
        assert await _ask(app, pilot, "g * (1 - out**2)") == "float32[] = 0.7864477"
        assert (await _ask(app, pilot, "a")).startswith("tensor float32[], requires_grad=True")  # the script's own a
        assert await _ask(app, pilot, "1 / 0") == "ZeroDivisionError: division by zero"
        assert (await _ask(app, pilot, "out[")).startswith("SyntaxError")
        assert await _ask(app, pilot, "np.arange(3) * 2") == "int64[3]\n[0, 2, 4]"
        assert await _ask(app, pilot, "_ + 1") == "int64[3]\n[1, 3, 5]"
        await pilot.press("up")
        assert app.screen.query_one("Input").value == "_ + 1"
        await pilot.press("up", "up", "down")
        assert app.screen.query_one("Input").value == "np.arange(3) * 2"
        await pilot.press("escape")
        assert app.session.source.alive  # nothing the console did ended the session
        await pilot.press("colon")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ConsolePane")
        assert [t.plain for t in app.screen.history.transcript][:2] == [">>> g * (1 - out**2)", "float32[] = 0.7864477"]


async def test_the_console_in_replay_offers_the_recorded_values(tmp_path):
    a = mg.tensor([0.5, -1.0, 2.0], requires_grad=True, name="a")
    with record() as tr:
        h = a.tanh()
        h.name = "h"
        h.sum().backward()
    path = tmp_path / "run.jsonl"
    tr.save(path)
    async with debugger("--replay", str(path), size=(80, 24)) as (app, pilot):
        screen = debugger_screen(app)
        tanh = next(
            i
            for i, e in enumerate(app.session.events)
            if e.kind == "closure_called" and app.session.trace.nodes[e.node].op == "tanh"
        )
        app.session.go(tanh)
        screen._moved()
        await pilot.press("colon")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ConsolePane")
        assert "recorded values only" in app.screen.title_text
        answer = await _ask(app, pilot, "g * (1 - out**2) - (1 - np.tanh(a)**2)")
        assert answer == "float32[3]\n[0., 0., 0.]"
        assert await _ask(app, pilot, "h is out or np.array_equal(h, out)") == "True"


def test_the_console_scope_order():
    scope = console.build_scope({"x": 1, "out": 0}, {"x": 2, "y": 3}, {"out": 4})
    assert (scope["x"], scope["y"], scope["out"]) == (2, 3, 4)  # nodes < the script's variables < the rule's names
    assert scope["np"] is np and scope["mg"] is mg


async def test_the_console_is_off_in_a_browser_without_a_token(monkeypatch):
    monkeypatch.setattr(DebuggerApp, "is_web", property(lambda self: True))
    async with debugger("--break", "f", LESSON_1, size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c")
        app.web_token = False
        await pilot.press("colon")
        await wait_until(pilot, lambda: any("console off" in (n.title or "") for n in app._notifications))
        assert type(app.screen).__name__ == "DebuggerScreen"
        app.web_token = True  # what minigrad_tui.web passes when the server asked for its token
        await pilot.press("colon")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "ConsolePane")


def test_a_web_tab_knows_the_token_was_asked_only_when_it_was():
    assert "--web-token" in debugger_command(parse_args(["--web", LESSON_1]))
    assert "--web-token" not in debugger_command(parse_args(["--web", "--no-token", LESSON_1]))
    assert parse_args(["--web-token", LESSON_1]).web_token


async def test_b_at_creation_stops_where_backward_enters_that_node_live_and_in_replay(tmp_path):
    async with debugger(LESSON_1) as (app, pilot):
        events = app.session.events
        while not (current_event(app).kind == "node_created" and current_event(app).info.op == "mul"):
            await press(app, pilot, "s")
        d = current_event(app).node  # d = a * b, just made: not yet named
        await press(app, pilot, "b")
        assert app.session.breakpoints == [Breakpoint(node=d)]
        await press(app, pilot, "c")
        stop = current_event(app)
        assert stop.kind == "node_entered" and stop.node == d
        assert f"breakpoint on {app.session.trace.nodes[d].label} (#{d})" in text(app.screen.query_one("#stop-reason"))
        live_stop = stop.seq
        await press(app, pilot, "end")
        path = tmp_path / "run.jsonl"
        app.session.trace.save(path)
    async with debugger("--replay", str(path)) as (app, pilot):
        app.session.breakpoints.append(Breakpoint(node=d))
        await press(app, pilot, "c")
        assert current_event(app).seq == live_stop and events is not app.session.events


async def test_i_puts_a_hit_count_and_a_condition_on_the_node_itself():
    async with debugger("tests/tui/scripts/two_passes.py") as (app, pilot):
        while not (
            current_event(app).kind == "node_created"
            and current_event(app).node is not None
            and app.session.trace.nodes[current_event(app).node].name == "w"
        ):
            await press(app, pilot, "s")
        w = current_event(app).node
        await pilot.press("i")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "Prompt")
        app.screen.query_one("Input").value = "hit 2 if |g| > 1"
        await press(app, pilot, "enter")
        assert app.session.breakpoints == [Breakpoint(node=w, hit_count=2, condition="|g| > 1")]
        await press(app, pilot, "c")
        stop = current_event(app)
        assert stop.kind == "node_entered" and stop.node == w and stop.pass_id == 2  # the second pass's entry


async def test_e_asks_once_for_a_folder_and_refuses_a_git_checkouts_root(tmp_path, monkeypatch):
    lesson = str(Path(LESSON_1).resolve())
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()  # the working directory is a checkout's root
    async with debugger(lesson, size=(80, 24)) as (app, pilot):
        await press(app, pilot, "s")
        await pilot.press("e")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "Prompt")
        assert app.screen.query_one("Input").value == "minigrad-exports"
        app.screen.query_one("Input").value = "."
        await pilot.press("enter")
        await wait_until(pilot, lambda: any("root of a git checkout" in n.message for n in app._notifications))
        assert not list(tmp_path.glob("*.svg")) and app.export_dir is None
        await pilot.press("e")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "Prompt")
        await pilot.press("enter")  # the folder offered
        await wait_until(pilot, lambda: list((tmp_path / "minigrad-exports").glob("*.svg")))
        await press(app, pilot, "s")
        await pilot.press("e")  # named once: no question the second time
        await wait_until(pilot, lambda: len(list((tmp_path / "minigrad-exports").glob("*.svg"))) == 2)
        assert type(app.screen).__name__ == "DebuggerScreen"


async def test_nonfinite_stops_once_where_the_inf_is_born_and_names_the_line_that_made_its_node():
    async with debugger("--break", "nonfinite", "tests/tui/scripts/nonfinite.py", size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c")
        stop = current_event(app)
        assert stop.kind == "closure_called" and app.session.trace.nodes[stop.node].op == "log"
        reason = text(app.screen.query_one("#stop-reason"))
        assert "● stopped: nonfinite: gradient of x has inf at [1]" in reason
        assert "y = log(x) made at nonfinite.py:4  y = x.log()" in reason
        await press(app, pilot, "c")  # the inf flows on into x.grad: no second stop
        assert app.source.state == "finished"


async def test_grads_stack_reads_on_80x24_and_the_header_names_the_grad_pass():
    async with debugger("tests/tui/scripts/nested_grad.py", size=(80, 24)) as (app, pilot):
        while current_event(app).kind != "grads_saved":
            await press(app, pilot, "s")
        assert "grad() p2, depth 1 · grad() saves the .grad of x" in header(app)
        shown = text(app.screen.query_one("#grad-stack"))
        assert "grad() saves:" in shown and "x.grad = [2, -4, 6]" in shown  # backward() left x.grad = 2x
        while current_event(app).kind != "grads_restored":
            await press(app, pilot, "s")
        shown = text(app.screen.query_one("#grad-stack"))
        assert "grad() restores:" in shown and "x.grad = [2, -4, 6]" in shown
        assert app.screen.query_one("#grad-stack").region.height > 0  # on screen at 80×24, not scrolled away
        await press(app, pilot, "s")
        assert current_event(app).kind != "grads_restored" and not app.screen.query_one("#grad-stack").display


async def test_another_node_selected_is_shown_alone_and_pgdn_scrolls_the_panel():
    async with debugger("--break", "d", LESSON_1, size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c", "s")  # mul's rule of d
        inspector = app.screen.query_one("#inspector")
        assert inspector.query_one("#closure-info").display
        a = next(i for i, n in app.session.trace.nodes.items() if n.label == "a")
        for _ in range(len(app.session.trace.nodes)):
            if app.screen.selected == a:
                break
            await press(app, pilot, "]")
        assert text(inspector.query_one("#node-head")).startswith("a (leaf)")
        assert not inspector.query_one("#closure-info").display  # not a's header over d's rule
        assert "made at" in text(inspector.query_one("#node-info"))  # a alone, whole
        await press(app, pilot, "s")
        assert inspector.query_one("#closure-info").display and app.screen.selected is None
        body = inspector.body
        body.scroll_home(animate=False)
        await wait_until(pilot, lambda: body.scroll_y == 0)
        if body.max_scroll_y:
            await press(app, pilot, "pagedown")
            assert body.scroll_y > 0
            await press(app, pilot, "pageup")
            assert body.scroll_y == 0
