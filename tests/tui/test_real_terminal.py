"""One real terminal: tmux runs ``minigrad-tui``, keys are sent, the pane is read, quitting restores the shell.

A real terminal shows a step over more than one write (each Textual widget asks for its repaint from its own
task, and tmux 3.3 has no synchronized output), so a capture taken just as the header changes may still show
the previous step's inspector. Every check therefore waits for one capture showing all that it expects
together, and fails, showing the pane, when none does.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
_SERVERS = itertools.count()


def _command() -> str:
    exe = Path(sys.executable).parent / "minigrad-tui"
    return str(exe) if exe.exists() else f"{sys.executable} -m minigrad_tui.app"


@pytest.fixture
def tmux(request):
    """A tmux server running bash in a terminal of ``request.param`` (columns, rows), 150×45 by default."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    columns, rows = getattr(request, "param", (150, 45))
    socket = f"minigrad-tui-test-{os.getpid()}-{next(_SERVERS)}"  # one server per test: a killed one may linger
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

    def wait_for(*expected: str | re.Pattern, timeout: float = 20.0) -> str:
        """The first capture showing every text (or matching every pattern) in ``expected`` at once."""

        def shows(shown: str, what) -> bool:
            return what.search(shown) is not None if isinstance(what, re.Pattern) else what in shown

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = pane()
            if all(shows(shown, what) for what in expected):
                return shown
            time.sleep(0.1)
        shown = pane()
        missing = [what for what in expected if not shows(shown, what)]
        raise AssertionError(f"{missing!r} never appeared with the rest; the pane shows:\n{shown}")

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
    # the graph is laid out once the script pauses: a's box, and a's complete gradient 2a + b * (1 - tanh(a*b)^2)
    wait_for("tanh", "loss", "mul", re.compile(r"│\s+a\s+│"), "[4, -1.995, 0.1601]")
    send("?")
    assert "escape closes" in wait_for("minigrad-tui keys")  # how to leave, where the help opens
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
    # the accumulation into a, the edge named; the rule as written, its captured values beside it and what
    # it returned per parent
    shown = wait_for(
        re.compile(r"d -> a: 0 \+ (-?[\d.]+) = \1\b"),  # before + contribution = after
        "return lambda: g * b, lambda: g * a",
        re.compile(r"b\s+-3\b"),
        re.compile(r"a\s+2\b"),
        "→ b ",
    )
    contribution = re.search(r"d -> a: 0 \+ (-?[\d.]+)", shown).group(1)
    assert f"→ a {contribution}" in shown
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


@pytest.mark.parametrize("tmux", [(80, 24)], indirect=True)
def test_lesson_1_as_its_text_says_on_an_80x24_terminal(tmux):
    """``minigrad lesson debug 1`` (an absolute path in the header) and lesson 1's keys: the header keeps
    the step, the state and the event in words; the steps the lesson names read as it says; the current
    node's graph label is whole at 80 columns."""
    send, pane, wait_for = tmux
    send("clear; echo READY", "Enter")
    wait_for("READY")
    minigrad = Path(sys.executable).parent / "minigrad"
    lesson = str(minigrad) if minigrad.exists() else f"{sys.executable} -m minigrad"
    send(f"{lesson} lesson debug 1; echo EXIT-CODE-$?", "Enter")
    shown = wait_for("create leaf a")
    first, second = shown.splitlines()[:2]
    demo = str(REPO / "lessons" / "01_chain_rule" / "demo.py")
    shown_path = first.split()[1]  # whole, or its start given up for "…" (a deep checkout)
    assert shown_path == demo or (shown_path.startswith("…") and demo.endswith(shown_path[1:]))
    assert "step 0 of" in first and first.rstrip().endswith("[paused]") and len(first) <= 80
    assert second.strip() == "create leaf a (requires grad)"

    def press_n_until(headline: str, *expected: str) -> str:
        """Press ``n`` until the header's event is ``headline``, then wait for the step to show ``expected``."""
        for _ in range(12):
            step = re.search(r"step (\d+) of", pane()).group(1)
            send("n")
            deadline = time.monotonic() + 10
            while re.search(r"step (\d+) of", pane()).group(1) == step and time.monotonic() < deadline:
                time.sleep(0.05)
            if headline in pane().splitlines()[1]:
                return wait_for(headline, "[paused]", *expected)
        raise AssertionError(f"{headline!r} never appeared; the pane shows:\n{pane()}")

    press_n_until("backward() pass 1 from f", "step 9 of")  # "a pass_started event, step 9"
    press_n_until("tanh rule of f returns (0.7864)", "return (g * (1 - out.square()),)", "out (f) 0.4621", "→ e 0.7864")
    press_n_until("f -> e: 0.7864", "f -> e: 0 + 0.7864 = 0.7864")
    press_n_until("add rule of e returns (0.7864, 0.7864)", "step 16 of")
    # the current node's value and gradient on its line of the graph pane, whole (a level indents 2 columns there)
    press_n_until("mul rule of d returns", "step 21 of", "→ a -2.359", "→ b 1.573", "d mul -6 g=0.7864")
    send("q")
    wait_for("EXIT-CODE-0")


@pytest.mark.parametrize("tmux", [(80, 24)], indirect=True)
def test_a_value_whole_and_the_console_on_an_80x24_terminal(tmux):
    """At tanh's rule of lesson 1: ``x`` shows a value whole, ``:`` evaluates the rule by hand, an error in
    an expression is printed and the session goes on."""
    send, pane, wait_for = tmux
    send("clear; echo READY", "Enter")
    wait_for("READY")
    send(f"{_command()} --break f lessons/01_chain_rule/demo.py; echo EXIT-CODE-$?", "Enter")
    wait_for("create leaf a")
    send("c")
    wait_for("enter f with gradient")
    send("s")
    wait_for("tanh rule of f returns")
    send("x")
    wait_for("which value?", "captured out (f)", "returned for e")
    send("Enter")  # the first: the node's own value
    shown = wait_for("f data  float32[]  1 values", "0.4621172", "escape closes")
    assert all(len(line) <= 80 for line in shown.splitlines())
    send("Escape")
    wait_for("tanh rule of f returns", "[paused]", "q quit")  # the footer: the view has closed
    send(":")
    wait_for("g, out", "a Python expression")
    send("-l", "g * (1 - out**2)")
    send("Enter")
    wait_for(">>> g * (1 - out**2)", "float32[] = 0.7864477")
    send("-l", "out[0]")
    send("Enter")
    wait_for("IndexError")
    send("Escape")
    wait_for("tanh rule of f returns", "[paused]", "q quit")
    send("q")
    wait_for("EXIT-CODE-0")


@pytest.mark.parametrize("tmux", [(80, 24)], indirect=True)
def test_b_at_a_nodes_creation_stops_where_backward_enters_it_on_an_80x24_terminal(tmux):
    send, pane, wait_for = tmux
    send("clear; echo READY", "Enter")
    wait_for("READY")
    send(f"{_command()} lessons/01_chain_rule/demo.py; echo EXIT-CODE-$?", "Enter")
    wait_for("create leaf a")
    for _ in range(8):  # to d's creation: the step that makes it, before backward
        if "= mul(a, b)" in pane().splitlines()[1]:
            break
        step = re.search(r"step (\d+) of", pane()).group(1)
        send("s")
        deadline = time.monotonic() + 10
        while re.search(r"step (\d+) of", pane()).group(1) == step and time.monotonic() < deadline:
            time.sleep(0.05)
    wait_for("= mul(a, b)", "[paused]")
    send("b")
    wait_for(re.compile(r"breakpoint on \S+ \(#\d+\) set"))
    send("c")
    shown = wait_for("enter d with gradient", re.compile(r"● stopped: breakpoint on d \(#\d+\)"))
    assert all(len(line) <= 80 for line in shown.splitlines())
    send("q")
    wait_for("EXIT-CODE-0")
