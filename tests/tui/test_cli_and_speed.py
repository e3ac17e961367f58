"""Argument parsing, --device, and stepping on a 1 000-node graph."""

from __future__ import annotations

import pytest

from minigrad.trace.breakpoints import Breakpoint, parse_breakpoint
from minigrad_tui.cli import parse_args

from .helpers import debugger, laid_out, press, script, status_shown, text, wait_until


def test_parse_arguments():
    o = parse_args(["--break", "loss", "--break", "op:tanh", "--break", "nonfinite", "train.py", "--lr", "0.1"])
    assert o.script == "train.py" and o.script_args == ["--lr", "0.1"]
    assert o.breakpoints == [Breakpoint(node="loss"), Breakpoint(op="tanh"), Breakpoint(nonfinite=True)]
    assert parse_args([]).script is None
    assert parse_args(["--replay", "run.jsonl"]).replay == "run.jsonl"
    assert parse_args(["--device", "cpu"]).device == "cpu"


@pytest.mark.parametrize("argv", [["--device", "tpu"], ["--break", "op:"], ["--replay", "r.jsonl", "s.py"]])
def test_bad_arguments_exit_with_usage(argv, capsys):
    with pytest.raises(SystemExit) as info:
        parse_args(argv)
    assert info.value.code == 2
    assert "usage: minigrad-tui" in capsys.readouterr().err


def test_help_explains_everything(capsys):
    with pytest.raises(SystemExit) as info:
        parse_args(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for word in ("--replay", "--device", "--break", "nonfinite", "op:OP", "built-in example", "keys:"):
        assert word in out


def test_missing_script_exits_2_before_any_screen(capsys):
    from minigrad_tui.app import main

    assert main(["no/such/missing.py"]) == 2
    assert "can't open file 'no/such/missing.py'" in capsys.readouterr().err


def test_breakpoint_specs():
    assert parse_breakpoint("pass:grad") == Breakpoint(pass_kind="grad")
    assert str(parse_breakpoint("op:mul")) == "op:mul"
    with pytest.raises(ValueError, match="pass kind"):
        parse_breakpoint("pass:forward")
    with pytest.raises(ValueError, match="empty"):
        parse_breakpoint(" ")


async def test_stepping_works_on_a_1000_node_graph():
    # How fast each step is gets measured in the benchmarks (bench W8), never asserted here.
    async with debugger(script("chain.py"), "1000") as (app, pilot):
        await press(app, pilot, "c")
        assert app.source.state == "finished"
        await wait_until(pilot, lambda: laid_out(app), timeout=60)  # the layout lands (a worker thread)
        app.screen.poll()
        assert len(app.session.trace.nodes) >= 1000
        assert app.screen.query_one("#canvas").raster.height > 100
        await press(app, pilot, "home", "N")
        positions = [app.session.cursor]
        for key in ["N"] * 10 + ["s"] * 10 + ["left"] * 10:
            await press(app, pilot, key)
            positions.append(app.session.cursor)
        assert positions[10] > positions[0] and positions[20] > positions[10] and positions[30] < positions[20]


async def test_device_cuda_without_a_gpu_is_reported_in_the_ui():
    import minigrad as mg

    if mg.cuda_is_available():
        pytest.skip("a GPU is present")
    async with debugger("--device", "cuda") as (app, pilot):
        await wait_until(pilot, lambda: app.source.state == "error" and status_shown(app))
        assert "cuda" in text(app.screen.query_one("#errors"))
        assert app.is_running


@pytest.mark.cuda
async def test_device_cuda_runs_the_built_in_example_on_the_gpu():
    import numpy as np
    from textual.widgets import Static

    async with debugger("--device", "cuda") as (app, pilot):
        await press(app, pilot, "c")
        await wait_until(pilot, lambda: app.source.state == "finished", timeout=60)
        nodes = app.session.trace.nodes.values()
        assert nodes and {n.device for n in nodes} == {"cuda:0"}
        assert all(isinstance(n.data.values, np.ndarray) for n in nodes)  # snapshots come to the host
        await press(app, pilot, "home", "N")
        inspector = app.screen.query_one("#inspector").query(Static)
        assert "float32 cuda:0" in "".join(text(w) for w in inspector)  # the node's header names its device
