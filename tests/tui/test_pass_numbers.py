"""The header numbers the script thread's passes from 1, whatever other threads ran."""

from __future__ import annotations

from .helpers import current_event, debugger, header, press, script


async def test_passes_are_counted_in_the_stepped_thread():
    async with debugger("--break", "pass:backward", script("threads_then_pass.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert current_event(app).kind == "pass_started"
        assert "backward() pass 1 from loss" in " ".join(header(app).split())
        await press(app, pilot, "c")
        assert "backward() pass 3 from again" in " ".join(header(app).split())  # pass 2 ran in a's hook
        await press(app, pilot, "c")
        events = app.session.events
        started = [(e.pass_id, e.depth) for e in events if e.kind == "pass_started"]
        assert started == [(1, 1), (2, 2), (3, 1), (4, 2)]  # the hook runs in both backward passes
        assert {e.pass_id for e in events if e.pass_id is not None} == {1, 2, 3, 4}
        # the outer pass's events after the nested pass still carry its number
        finished = [e.pass_id for e in events if e.kind == "pass_finished"]
        assert finished == [2, 1, 4, 3]
