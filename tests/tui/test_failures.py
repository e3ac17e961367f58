"""Scripts that fail in every way keep the debugger alive and say what happened."""

from __future__ import annotations

import threading

import minigrad_tui.runner
from minigrad_tui.screen import DebuggerScreen

from .helpers import current_event, debugger, header, press, script, status_shown, text, wait_until


def errors_text(app) -> str:
    return text(app.screen.query_one("#errors"))


async def test_missing_script_is_reported_in_the_ui():
    async with debugger("no/such/script.py") as (app, pilot):
        await wait_until(pilot, lambda: app.source.state == "error" and status_shown(app))
        assert "FileNotFoundError" in errors_text(app)
        assert "no/such/script.py" in errors_text(app)
        assert app.screen.query_one("#bottom").active == "tab-errors"
        assert "[error]" in header(app)
        await press(app, pilot, "s", "left", "c")  # keys do nothing harmful
        assert app.is_running


async def test_syntax_error_shows_line():
    async with debugger(script("syntax_error.txt")) as (app, pilot):
        await wait_until(pilot, lambda: app.source.state == "error" and status_shown(app))
        shown = errors_text(app)
        assert "SyntaxError" in shown and "line 3" in shown


async def test_exception_in_forward_shows_traceback_and_output():
    async with debugger(script("raises_forward.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert app.source.state == "error"
        shown = errors_text(app)
        assert "ValueError: boom in forward" in shown
        assert "raises_forward.py" in shown and "line 5" in shown
        assert "minigrad_tui/runner.py" not in shown
        assert "made a" in app.screen.query_one("#output").lines
        # the recorded steps can still be browsed
        await press(app, pilot, "home")
        assert app.session.cursor == 0


async def test_exception_in_backward_stops_at_the_error_event():
    async with debugger(script("raises_backward.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert current_event(app).kind == "error"
        # as in PyTorch, sum saved nothing and runs again: the error is at the mul, which saved x
        shown = " ".join(header(app).split())
        assert "error at mul#" in shown and "RuntimeError: Trying to backward through the graph" in shown
        await press(app, pilot, "c")
        assert app.source.state == "error"
        assert "RuntimeError: Trying to backward through the graph a second time" in errors_text(app)


async def test_error_state_and_error_panel_change_together(monkeypatch):
    """Hold the runner between the Stepper's end and the formatted traceback: the screen must not say
    [error] over an empty error panel in that window (the race of issue 16)."""
    formatting = threading.Event()
    release = threading.Event()
    plain_format = minigrad_tui.runner._format

    def held_format(exc):
        formatting.set()
        release.wait(10)
        return plain_format(exc)

    monkeypatch.setattr(minigrad_tui.runner, "_format", held_format)
    async with debugger(script("raises_backward.py")) as (app, pilot):
        await press(app, pilot, "c")
        at_the_stop = errors_text(app)  # the stop at the error event shows its short traceback
        await pilot.press("c")
        await wait_until(pilot, formatting.is_set)
        for _ in range(5):  # several polls of the screen while the error is being formatted
            await pilot.pause(0.06)
            assert "[error]" not in header(app)
            assert errors_text(app) == at_the_stop
        release.set()
        await wait_until(pilot, lambda: app.source.state == "error" and status_shown(app))
        assert "[error]" in header(app)
        assert "RuntimeError: Trying to backward through the graph a second time" in errors_text(app)


async def test_a_stop_at_an_error_shows_it_in_the_errors_panel_with_the_step(monkeypatch):
    """Paused at the error event (the script has not ended): the Errors tab shows the error and the
    learner's folded traceback, and no screen ever shows the error step over "no errors"."""
    seen_apart = []

    def check(screen):  # what the step panel and the Errors tab show, after each poll and each status taken in
        step_says_error = "ValueError in the pass" in text(screen.query_one("#stop-reason"))
        if step_says_error and "no errors" in text(screen.query_one("#errors")):
            seen_apart.append(screen.session.cursor)

    plain_poll, plain_changed = DebuggerScreen.poll, DebuggerScreen.on_debugger_screen_run_status_changed

    def poll(screen):
        plain_poll(screen)
        check(screen)

    def changed(screen, message):
        plain_changed(screen, message)
        check(screen)

    monkeypatch.setattr(DebuggerScreen, "poll", poll)
    monkeypatch.setattr(DebuggerScreen, "on_debugger_screen_run_status_changed", changed)
    async with debugger(script("raises_in_function.py"), size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c")  # waits on the screen taking in the RunStatusChanged of the stop
        assert current_event(app).kind == "error" and app.source.state == "paused"
        panel = errors_text(app)
        assert "ValueError: my backward is wrong" in panel
        assert "raises_in_function.py:15 in backward" in panel and "... 4 frames inside minigrad" in panel
        assert app.screen.query_one("#bottom").active == "tab-errors"
        assert "[paused]" in header(app)
        await press(app, pilot, "c")
        assert app.source.state == "error"
        assert sum("my backward is wrong" in str(n.message) for n in app._notifications) == 1
    assert not seen_apart


async def test_no_key_moves_from_a_stop_before_its_status_is_shown(monkeypatch):
    """Between the poll that finds the stop at the error and the RunStatusChanged that shows it, the
    movement keys are disabled: no key can leave a step whose error the screen has not shown."""
    held = []
    plain_changed = DebuggerScreen.on_debugger_screen_run_status_changed
    async with debugger(script("raises_backward.py")) as (app, pilot):
        screen = app.screen
        monkeypatch.setattr(DebuggerScreen, "on_debugger_screen_run_status_changed", lambda s, m: held.append(m))
        await pilot.press("c")
        await wait_until(pilot, lambda: any(m.status.error for m in held))
        assert not app.session.running and current_event(app).kind == "error"
        assert not any(screen.check_action(a, ()) for a in ("step", "next", "continue", "back", "goto"))
        assert "no errors" in errors_text(app)
        monkeypatch.setattr(DebuggerScreen, "on_debugger_screen_run_status_changed", plain_changed)
        for message in held:
            plain_changed(screen, message)
        assert screen.check_action("step", ()) and screen.check_action("back", ())
        assert "RuntimeError: Trying to backward through the graph" in errors_text(app)


async def test_script_that_never_calls_backward():
    async with debugger(script("no_backward.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert app.source.state == "finished"
        assert not any(e.kind == "pass_started" for e in app.session.events)
        assert "sum is 6.0" in app.screen.query_one("#output").lines
        assert any("without calling backward" in str(n.message) for n in app._notifications)


async def test_script_that_loops_forever_is_ended_on_quit():
    async with debugger(script("forever.py")) as (app, pilot):
        await pilot.press("c")
        await pilot.pause(0.3)
        assert app.session.running and app.source.alive
        runner = app.source
        await pilot.press("q")
        await pilot.pause(0.1)
        assert not app.is_running
    assert not runner.alive
    assert runner.state == "stopped"


async def test_script_that_prints_a_lot():
    async with debugger(script("chatty.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert app.source.state == "finished"
        lines = app.screen.query_one("#output").lines
        assert "line 49999" in lines and "x.grad tensor([6.])" in lines
        assert len(lines) <= 2001 and "line 10" not in lines


async def test_error_in_a_custom_function_shows_the_learners_line_and_traceback():
    async with debugger(script("raises_in_function.py"), size=(80, 24)) as (app, pilot):
        await press(app, pilot, "c")
        assert current_event(app).kind == "error"
        shown = text(app.screen.query_one("#stop-reason"))  # pinned; the traceback scrolls below
        assert "ValueError in the pass at raises_in_function.py:15 in backward" in " ".join(shown.split())
        shown += text(app.screen.query_one("#stop-detail"))
        lines = [line.strip() for line in shown.splitlines()]
        # the learner's frames in order, minigrad's own folded into one line between them
        call, folded, raised = (
            lines.index(s)
            for s in ("y.backward()", "... 4 frames inside minigrad", 'raise ValueError("my backward is wrong")')
        )
        assert call < folded < raised
        assert "engine.py" not in shown
        await press(app, pilot, "c")
        assert app.source.state == "error"
        panel = errors_text(app)
        assert 'raises_in_function.py", line 15, in backward' in panel and "engine.py" not in panel
