"""Long runs under the debugger: memory stays bounded (measured with tracemalloc, never the clock)
and every kept step can still be visited after a fast continue."""

from __future__ import annotations

import tracemalloc

from minigrad.trace.breakpoints import Breakpoint

from .helpers import current_event, debugger, debugger_screen, header, press, script, settled, text, wait_until

MEMORY_LIMIT = 300 * 1024 * 1024


async def test_a_4000_step_run_stays_under_300_mb_and_steps_back():
    tracemalloc.start()
    try:
        async with debugger(script("long_run.py"), "4000", size=(80, 24)) as (app, pilot):
            await pilot.press("c")  # a fast continue: the script pauses nowhere on the way
            await wait_until(pilot, lambda: settled(app) and app.source.state == "finished", timeout=600)
            await press(app, pilot, "end")
            _, peak = tracemalloc.get_traced_memory()
            events = app.session.events
            assert sum(e.kind == "pass_finished" for e in events) == 4000
            # back to a step of the first pass: its values are still there
            first_rule = next(e.seq for e in events if e.kind == "closure_called")
            await press(app, pilot, "g")
            await pilot.press(*str(first_rule), "enter")
            await wait_until(pilot, lambda: app.session.cursor == first_rule)
            app.screen.poll()
            assert current_event(app).kind == "closure_called"
            assert f"step {first_rule} of {len(events) - 1}" in header(app)
            assert "→ " in text(app.screen.query_one("#closure-values"))
            await press(app, pilot, "left", "left")
            assert app.session.cursor < first_rule
    finally:
        tracemalloc.stop()
    print(f"peak {peak / 2**20:.0f} MiB")
    assert peak < MEMORY_LIMIT, f"peak {peak / 2**20:.0f} MiB"


def _shown_state(app) -> str | None:
    """The state the screen has taken in from a RunStatusChanged message (never guessed from time)."""
    screen = debugger_screen(app)
    return screen.shown_status.state if screen is not None and screen.shown_status is not None else None


async def test_pause_an_endless_loop_then_memory_stays_flat_and_quit():
    async with debugger(script("endless_backward.py"), size=(80, 24)) as (app, pilot):
        await pilot.press("c")
        await wait_until(pilot, lambda: app.session.total > 3000)  # well into the loop: many passes recorded
        await pilot.press("p")
        await wait_until(pilot, lambda: _shown_state(app) == "paused" and not app.session.running)
        assert app.session.cursor > 3000
        assert "[paused]" in header(app)
        recorded = app.session.total
        screen = debugger_screen(app)
        # the graph of the paused step is laid out once (a worker thread); then nothing more is made
        await wait_until(pilot, lambda: not screen._layout_busy and screen._drawn_scope == screen._wanted_scope[0])
        tracemalloc.start()
        try:
            for _ in range(20):  # the screen keeps polling; the paused script adds nothing
                debugger_screen(app).poll()
                await pilot.pause()
            grown, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert app.session.total == recorded
        assert grown < 1024 * 1024
        runner = app.source
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert runner.state == "stopped"


async def test_quit_while_an_endless_loop_runs():
    async with debugger(script("endless_backward.py"), size=(80, 24)) as (app, pilot):
        await pilot.press("c")
        await wait_until(pilot, lambda: app.session.total > 1000)
        runner = app.source
        await pilot.press("q")
        await wait_until(pilot, lambda: not app.is_running)
    assert not runner.alive and runner.state == "stopped"


async def test_continue_pauses_the_script_only_where_it_stops():
    async with debugger(script("long_run.py"), "200", size=(80, 24)) as (app, pilot):
        runner = app.source
        pauses = []
        on_pause = runner._on_pause

        def counted(stepper, event):
            pauses.append(event.kind)
            on_pause(stepper, event)

        runner.stepper.on_pause = counted
        await pilot.press("c")
        await wait_until(pilot, lambda: settled(app) and app.source.state == "finished", timeout=120)
    assert pauses == []  # no breakpoint, no error: the script ran to its end without one pause


async def test_a_breakpoint_set_while_the_script_runs_stops_it():
    async with debugger(script("endless_backward.py"), size=(80, 24)) as (app, pilot):
        await pilot.press("c")
        await wait_until(pilot, lambda: app.session.total > 500)
        app.session.toggle(Breakpoint(op="mul"))
        await wait_until(pilot, lambda: settled(app) and _shown_state(app) == "paused")
        event = current_event(app)
        assert app.session.trace.nodes[event.node_id].op == "mul"
