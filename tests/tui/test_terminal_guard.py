"""The terminal survives every way the debugger ends, and its keys never reach the script (a real pseudo-terminal)."""

from __future__ import annotations

import os
import sys

import pytest

import minigrad_tui
import minigrad_tui.app
from minigrad_tui.terminal_guard import RESTORE

from .pty_run import PtyRun

pytestmark = pytest.mark.skipif(
    sys.platform != "linux", reason="a pseudo-terminal as controlling terminal and /proc: Linux"
)


@pytest.fixture
def pty_run():
    runs = []

    def start(*argv: str) -> PtyRun:
        runs.append(PtyRun(list(argv)))
        return runs[-1]

    yield start
    for run in runs:
        run.close()


def test_a_script_calling_os_exit_0_leaves_the_terminal_usable(pty_run):
    run = pty_run("tests/tui/scripts/exit_zero.py")
    assert run.finish() == 0
    after_the_debugger = run.output.rsplit(b"\x1b[?1049h", 1)[-1]  # what came once Textual took the screen
    assert RESTORE.encode() in after_the_debugger  # main screen, mouse reporting off, cursor shown
    assert b"the terminal was restored" in after_the_debugger
    assert run.settings == run.settings_before  # line mode and echo back


def test_the_script_reads_end_of_file_from_fd_0_and_the_debugger_its_keys(pty_run, tmp_path):
    report = tmp_path / "fd0.txt"
    run = pty_run("tests/tui/scripts/reads_fd0.py", str(report))
    run.wait_for(lambda: report.exists() and report.read_text().endswith("\n"), what="the script's report")
    assert report.read_text().splitlines()[0] == "fd 0 is /dev/null: True"
    run.wait_for(lambda: report.read_text().count("\n") == 2, what="the script's read")
    assert report.read_text().splitlines()[1] == "read: b''"  # end-of-file at once
    run.wait_for(lambda: b"finished" in run.output, what="the finished script")
    run.send(b"q")  # the debugger still gets its keys
    assert run.finish() == 0
    assert b"the terminal was restored" not in run.output  # Textual gave it back itself
    assert run.settings == run.settings_before


def test_ctrl_c_while_it_starts_exits_quietly_with_130(pty_run):
    run = pty_run()
    run.wait_for(lambda: run.children(), what="the debugger's process")  # it is importing, the screen not yet open
    assert b"\x1b[?1049h" not in run.output
    run.send(b"\x03")  # ctrl+c, as typed: SIGINT to every process of the terminal's foreground group
    assert run.finish() == 130
    assert b"Traceback" not in run.output and b"KeyboardInterrupt" not in run.output
    assert run.settings == run.settings_before


def test_ctrl_c_before_the_debugger_starts_exits_quietly_with_130(monkeypatch, capsys):
    def interrupted(argv):
        raise KeyboardInterrupt

    monkeypatch.setattr(minigrad_tui.app, "main", interrupted)
    assert minigrad_tui.main([]) == 130
    assert capsys.readouterr() == ("", "")


def test_fd_0_is_the_terminal_again_once_the_debugger_returned():
    """main() runs in-process for ``minigrad lesson debug``: fd 0 comes back after the debugger."""
    from minigrad_tui.terminal_guard import keys_kept_from_the_script

    before = os.fstat(0)
    with keys_kept_from_the_script():
        assert os.path.samestat(os.fstat(0), os.stat(os.devnull))
        assert os.path.samestat(os.fstat(sys.__stdin__.fileno()), before)
    assert os.path.samestat(os.fstat(0), before)
    assert sys.__stdin__.fileno() == 0


def test_the_script_imports_as_python_script_py_would_from_any_folder(tmp_path):
    """Started from a folder holding a folder named ``minigrad`` (a clone's parent), the script still
    imports the package: its own folder comes first on sys.path, the working directory not at all."""
    workdir = tmp_path / "work"
    (workdir / "minigrad").mkdir(parents=True)
    report = tmp_path / "path.txt"
    script = os.path.join(os.path.dirname(__file__), "scripts", "reports_its_path.py")
    run = PtyRun([script, str(report)], cwd=workdir)
    try:
        run.wait_for(lambda: report.exists() and report.read_text().count("\n") == 3, what="the script's report")
        lines = report.read_text().splitlines()
        assert lines[0] == "tensor is a function"
        assert lines[1] == f"path[0] {os.path.dirname(script)}"
        assert lines[2] == f"name __main__ file {script} argv [{str(report)!r}]"
        run.send(b"q")
        assert run.finish() == 0
    finally:
        run.close()
