"""``minigrad-tui --torch``: the flag, the hook around the debugger's run (gone after it), the browser
command keeping the flag, and a PyTorch script stepped through to its end."""

import asyncio

import pytest

from minigrad.cli.run import torch_imports
from minigrad.compat import torch_installed

pytest.importorskip("textual")

SCRIPT = """\
import torch
import torch.nn as nn
import torch.nn.functional as F
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
loss = F.cross_entropy(net(torch.ones(2, 3)), torch.tensor([0, 1]))
loss.backward()
print(f"loss {loss:.4f} {torch.cuda.is_available()}")
"""


def test_the_flag_is_parsed_and_kept_for_the_browser():
    from minigrad_tui.cli import parse_args
    from minigrad_tui.web import debugger_command

    options = parse_args(["--torch", "train.py", "--lr", "0.1"])
    assert options.torch and options.script_args == ["--lr", "0.1"]
    assert not parse_args(["train.py"]).torch
    command = debugger_command(options)
    assert " --torch " in command and command.endswith(" train.py --lr 0.1")


def test_the_debugger_runs_with_the_hook_installed_and_removes_it(tmp_path, monkeypatch):
    from minigrad_tui import app as tui_app

    script = tmp_path / "train.py"
    script.write_text(SCRIPT)
    seen = []

    def run(self):
        import torch

        seen.append((type(torch).__name__, torch_installed()))

    monkeypatch.setattr(tui_app.DebuggerApp, "run", run)
    assert tui_app.main(["--torch", str(script)]) == 0
    assert seen == [("TorchModule", True)] and not torch_installed()


def test_a_torch_script_steps_to_its_end(tmp_path):
    from tests.tui.helpers import debugger, press

    script = tmp_path / "train.py"
    script.write_text(SCRIPT)

    async def step_through():
        with torch_imports(True):
            async with debugger("--torch", str(script)) as (app, pilot):
                await press(app, pilot, "c")
                return app.source.state, app.source.output.text(), len(app.session.trace.nodes)

    state, output, nodes = asyncio.run(step_through())
    assert state == "finished" and output.startswith("loss ") and output.endswith(" False\n")
    assert nodes > 5
