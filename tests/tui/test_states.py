"""What the main screens show: start, mid-backward, grad() with saved grads, error, replay."""

from __future__ import annotations

import numpy as np

import minigrad as mg
from minigrad.trace import record

from .helpers import current_event, debugger, header, press, script, text


def canvas_text(app) -> str:
    canvas = app.screen.query_one("#canvas")
    return "\n".join(canvas.render_line(y).text for y in range(canvas.size.height))


async def test_start_state():
    async with debugger() as (app, pilot):
        assert "built-in example" in header(app) and "step 0 of" in header(app)
        assert "a (leaf)" in text(app.screen.query_one("#node-head"))
        node = text(app.screen.query_one("#node-info"))
        assert "[2, -1, 0.5]" in node
        assert "no pass running" in text(app.screen.query_one("#passes"))
        assert "no backward rule" in text(app.screen.query_one("#closure-info"))


async def test_mid_backward_state():
    async with debugger() as (app, pilot):
        await press(app, pilot, "N", "N", "N")  # loss, add, then the next node
        await press(app, pilot, "s", "s")  # closure_called, first accumulation
        ev = current_event(app)
        assert ev.kind == "grad_accumulated"
        names = app.screen._names
        assert f"{names[ev.node]} -> {names[ev.target]}: " in header(app)
        closure = text(app.screen.query_one("#closure-info"))
        assert "def backward" in closure and "return" in closure
        acc = text(app.screen.query_one("#accumulation-info"))
        assert (
            f"{names[ev.node]} -> {names[ev.target]}:" in acc and "+" in acc and "=" in acc
        )  # before + contribution = after, named
        assert "backward() #" in text(app.screen.query_one("#passes"))
        drawn = canvas_text(app)
        assert "loss" in drawn and "mul" in drawn
        statuses = app.screen.model.step(app.session.cursor).statuses
        loss_id = next(i for i, n in names.items() if n == "loss")
        assert statuses[loss_id] == "done"
        assert app.screen.query_one("#canvas").active_edges  # the edge carrying the gradient is highlighted


async def test_grad_with_saved_grads():
    async with debugger("--break", "pass:grad", script("nested_grad.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert current_event(app).kind == "pass_started"
        assert "from y w.r.t. x" in header(app) and "grad() pass" in header(app)
        await press(app, pilot, "s")
        assert current_event(app).kind == "grads_saved"
        passes = text(app.screen.query_one("#passes"))
        assert "grad() #" in passes and "saved" in passes and "x.grad = [2, -4, 6]" in passes
        await press(app, pilot, "u", "d")
        await press(app, pilot, "c")
        assert app.source.state == "finished"
        lines = app.screen.query_one("#output").lines
        assert "x.grad tensor([ 2., -4.,  6.])" in lines


async def test_grads_restored_shown(tmp_path):
    async with debugger("--break", "pass:grad", script("nested_grad.py")) as (app, pilot):
        await press(app, pilot, "c")
        while current_event(app).kind != "grads_restored":
            await press(app, pilot, "s")
        assert "restored" in text(app.screen.query_one("#passes"))
        assert "restores the .grad of x" in header(app)


async def test_error_state():
    async with debugger(script("raises_backward.py")) as (app, pilot):
        await press(app, pilot, "c")
        assert "[paused]" in header(app)
        errored = current_event(app).node
        statuses = app.screen.model.step(app.session.cursor).statuses
        assert statuses[errored] == "failed"
        await press(app, pilot, "c")
        assert "[error]" in header(app)


async def test_replay_of_a_saved_trace(tmp_path):
    path = tmp_path / "run.jsonl"
    with record() as trace:
        x = mg.tensor([1.0, -2.0, 3.0], requires_grad=True, name="x")
        (x * x).sum().backward()
    trace.save(path)
    np.testing.assert_allclose(x.grad.numpy(), [2.0, -4.0, 6.0])
    async with debugger("--replay", str(path)) as (app, pilot):
        assert app.session.cursor == 0 and "[replay]" in header(app)
        await press(app, pilot, "c")
        assert app.session.cursor == len(trace.events) - 1
        assert app.screen.check_action("forward", ()) is False
        await press(app, pilot, "home", "N")
        assert current_event(app).kind == "node_entered"


async def test_replay_shows_the_recorded_traceback_at_the_error_step(tmp_path):
    from minigrad.cli import main

    path = tmp_path / "run.jsonl"
    assert main(["trace", script("raises_in_function.py"), "-o", str(path)]) == 1  # the script raises: saved anyway
    async with debugger("--replay", str(path), size=(80, 24)) as (app, pilot):
        errors = text(app.screen.query_one("#errors"))
        assert "ValueError: my backward is wrong" in errors and "raises_in_function.py" in errors
        await press(app, pilot, "c")
        assert current_event(app).kind == "error"
        shown = text(app.screen.query_one("#stop-reason"))
        assert "ValueError in the pass at raises_in_function.py:15 in backward" in " ".join(shown.split())
        shown += text(app.screen.query_one("#stop-detail"))  # the traceback, under the pinned first line
        assert 'raise ValueError("my backward is wrong")' in shown and "inside minigrad" in shown
