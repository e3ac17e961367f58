"""One real terminal: tmux runs ``minigrad-tui``, keys are sent, the pane is read, quitting restores the shell."""

from __future__ import annotations

import os
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
def tmux():
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    socket = f"minigrad-tui-test-{os.getpid()}"
    base = ["tmux", "-L", socket]
    env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
    env.update(TERM="xterm-256color", PS1="$ ")
    subprocess.run(
        [*base, "new-session", "-d", "-s", "t", "-x", "150", "-y", "45", "bash --norc --noprofile"],
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
    for name in ("loss", "mul", "│ a │"):
        assert name in shown
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
