"""One real terminal: tmux runs ``minigrad-tui``, keys are sent, the pane is read, quitting restores the shell."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _command() -> str:
    exe = Path(sys.executable).parent / "minigrad-tui"
    return str(exe) if exe.exists() else f"{sys.executable} -m tui.app"


@pytest.fixture
def tmux(request):
    """A tmux server running bash in a terminal of ``request.param`` (columns, rows), 150×45 by default."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    columns, rows = getattr(request, "param", (150, 45))
    socket = f"minigrad-tui-test-{os.getpid()}-{columns}x{rows}"
    base = ["tmux", "-L", socket]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(TERM="xterm-256color", PS1="$ ")
    subprocess.run(
        [*base, "new-session", "-d", "-s", "t", "-x", str(columns), "-y", str(rows), "bash --norc --noprofile"],
        check=True,
        env=env,
        cwd=REPO,
    )

    def send(*keys):
        subprocess.run([*base, "send-keys", "-t", "t", *keys], check=True)

    def pane() -> str:
        return subprocess.run(
            [*base, "capture-pane", "-p", "-t", "t"], check=True, capture_output=True, text=True
        ).stdout

    def wait_for(text: str, timeout: float = 20.0) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = pane()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the pane shows:\n{pane()}")

    try:
        yield send, pane, wait_for
    finally:
        subprocess.run([*base, "kill-server"], check=False)


def test_debugger_in_a_real_terminal(tmux):
    send, pane, wait_for = tmux
    send("clear; echo READY", "Enter")
    wait_for("READY")
    send(f"{_command()} --break a; echo EXIT-CODE-$?", "Enter")
    wait_for("step 0 of")
    send("c")
    wait_for("enter a with gradient")
    shown = wait_for("tanh")  # the graph is laid out once the script pauses
    for name in ("loss", "mul"):
        assert name in shown
    assert re.search(r"│\s+a\s+│", shown)  # a's box
    # a's complete gradient: 2a + b * (1 - tanh(a*b)^2)
    assert "4.0001" in shown and "-1.9946" in shown and "0.1601" in shown
    send("?")
    wait_for("minigrad-tui keys")
    send("Escape")
    deadline = time.monotonic() + 10
    while "minigrad-tui keys" in pane() and time.monotonic() < deadline:
        time.sleep(0.1)
    send("q")
    shown = wait_for("EXIT-CODE-0")
    assert "step 0 of" not in shown and "minigrad-tui keys" not in shown
    assert "READY" in shown  # the shell's screen is back as it was


@pytest.mark.parametrize("tmux", [(80, 24)], indirect=True)
def test_a_lesson_step_reads_on_an_80x24_terminal(tmux):
    """Lesson 1 at mul's accumulation: the rule, a captured value and before + contribution = after
    are all on the 80×24 screen, with no scrolling."""
    send, pane, wait_for = tmux
    send("clear; echo READY", "Enter")
    wait_for("READY")
    send(f"{_command()} --break d lessons/01_chain_rule/demo.py; echo EXIT-CODE-$?", "Enter")
    wait_for("create leaf a")
    send("c")
    wait_for("enter d with gradient")
    send("s")
    wait_for("mul rule of d")
    send("s")
    shown = wait_for("d -> a: 0 + -2.3593 = -2.3593")  # the accumulation into a, parent named (lesson 1: c = 6.5)
    assert "return lambda: g * b, lambda: g * a" in shown  # the rule, as written
    assert "b   -3." in shown and "a   2." in shown  # captured values beside it
    assert "→ a -2.3593" in shown and "→ b 1.5729" in shown  # what the rule returned per parent
    assert all(len(line) <= 80 for line in shown.splitlines())
    send("q")
    wait_for("EXIT-CODE-0")


def test_a_script_calling_os_exit_leaves_the_terminal_usable(tmux):
    send, pane, wait_for = tmux
    send("clear; echo READY", "Enter")
    wait_for("READY")
    send(f"{_command()} tests/tui/scripts/hard_exit.py; echo EXIT-CODE-$?", "Enter")
    wait_for("step 0 of")
    send("c")
    shown = wait_for("EXIT-CODE-3")
    assert "terminal was restored" in shown
    assert "READY" in shown and "step 0 of" not in shown  # the shell's screen is back
    send("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | sort | tr '\\n' ,; echo", "Enter")
    assert "echo,icanon," in wait_for("echo,icanon,")  # line mode and echo are on again
