"""Leave the terminal usable however the debugger ends, and keep its keys from the script.

The script runs in a thread of the debugger's process, so a script that calls
``os._exit()`` (whatever its code), or a ``kill`` of the process, ends the
debugger without letting Textual restore the terminal. As pudb does, a parent
process keeps the terminal's settings and runs the debugger in a child. The
child reports through a pipe when it hands the screen to Textual and when
Textual has given it back; a child that ended in between had its terminal put
back by the parent (line mode, echo, cursor, main screen, mouse reporting off).
A ctrl+c before the screen opens ends both quietly, with 130 as a shell expects.

The script shares the process's file descriptor 0, where the keys arrive: while
the debugger runs, fd 0 is ``/dev/null`` (``os.read(0, ...)`` in the script reads
end-of-file, as ``input()`` does) and Textual reads a copy of the terminal's.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys

from .child_python import python_running

CHILD_ENV = "MINIGRAD_TUI_CHILD"  # in the child: the descriptor of the pipe its reports go to
SCREEN_OPENED = b"o"
SCREEN_CLOSED = b"c"
RESTORE = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1016l"  # mouse reporting off
    "\x1b[?2004l\x1b[?1004l\x1b[?2048l"  # bracketed paste, focus events and resize reports off
    "\x1b[<u"  # the kitty keyboard protocol off (before leaving the alternate screen, whose flags they are)
    "\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"  # plain text, line wrap, cursor shown, main screen back
)
INTERRUPTED = 130  # what a shell expects of a program ended by ctrl+c

_report_fd: int | None = None  # in a guarded child: where it reports


def run_in_child(argv: list) -> int | None:
    """In an interactive POSIX terminal, run ``minigrad-tui argv`` in a child process, restore the
    terminal unless the child gave it back itself, and return its exit code; None when this process
    should run the debugger itself (already the child, not a terminal, or not POSIX)."""
    if _report_fd is not None or os.name != "posix" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    import termios

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    code, reported, interrupted = _run_child(argv)
    if reported.endswith(SCREEN_OPENED):  # Textual had the screen and never gave it back
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        sys.stdout.write(RESTORE)
        sys.stdout.flush()
        if not interrupted:
            print(
                f"minigrad-tui: the debugger ended abruptly ({_how(code)}); the terminal was restored", file=sys.stderr
            )
    if interrupted:
        return INTERRUPTED
    return 128 - code if code < 0 else code


def _run_child(argv: list) -> tuple:
    """Run the child to its end: (its exit code, what it reported, whether ctrl+c was pressed meanwhile).

    The child starts with SIGINT blocked, so a ctrl+c while Python starts (its site imports would print
    a traceback) waits until :func:`child_main` can end it quietly.
    """
    reports, report_end = os.pipe()
    os.set_blocking(reports, False)
    interrupted = []
    # ctrl+c reaches the child too, which decides what it means; this process only notes it
    previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.append(signum))
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # the child inherits the mask
    try:
        try:
            child = subprocess.Popen(
                [*python_running("from minigrad_tui.terminal_guard import child_main; child_main()"), *argv],
                env={**os.environ, CHILD_ENV: str(report_end)},
                pass_fds=(report_end,),
            )
        finally:
            os.close(report_end)
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        code = child.wait()
        reported = _available(reports)
    finally:
        os.close(reports)
        signal.signal(signal.SIGINT, previous)
    return code, reported, bool(interrupted)


def _available(reports: int) -> bytes:
    """What the child reported (a process the script forked may still hold the pipe: never wait)."""
    try:
        return os.read(reports, 1024)
    except BlockingIOError:
        return b""


def _how(code: int) -> str:
    return f"signal {-code}" if code < 0 else f"exit code {code}"


def child_main() -> None:
    """The guarded child's entry: a ctrl+c pressed while Python started (held back until now) or while
    the debugger starts ends it quietly, with 130."""
    global _report_fd
    _report_fd = int(os.environ.pop(CHILD_ENV))  # the script's own processes must not inherit it
    os.set_inheritable(_report_fd, False)
    try:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        from . import main
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    sys.exit(main())


@contextlib.contextmanager
def screen_reported():
    """In a guarded child: report that Textual has the screen for the duration, and that it gave the
    terminal back once the block ended normally (``os._exit()``, a signal or an exception skip that)."""
    _report(SCREEN_OPENED)
    yield
    _report(SCREEN_CLOSED)


def _report(what: bytes) -> None:
    if _report_fd is not None:
        with contextlib.suppress(OSError):  # a parent that is gone has nothing to restore
            os.write(_report_fd, what)


@contextlib.contextmanager
def keys_kept_from_the_script():
    """While inside, fd 0 is ``/dev/null`` and ``sys.__stdin__`` (which Textual's drivers read their
    keys from) a copy of the original fd 0; both are put back on leaving."""
    stdin = sys.__stdin__
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # no stdin at all: nothing to keep
        yield
        return
    keys = open(os.dup(fd), encoding=stdin.encoding, errors=stdin.errors)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, fd)
    os.close(null)
    sys.__stdin__ = keys
    try:
        yield
    finally:
        sys.__stdin__ = stdin
        os.dup2(keys.fileno(), fd)
        keys.close()
