"""Leave the terminal usable however the debugger ends.

The script runs in a thread of the debugger's process, so a script that calls
``os._exit()``, or a ``kill`` of the process, ends the debugger without letting
Textual restore the terminal. As pudb does, a parent process keeps the
terminal's settings, runs the debugger in a child, and puts the terminal back
(line mode, echo, cursor, main screen, mouse reporting off) if the child ends
abruptly.
"""

from __future__ import annotations

import os
import subprocess
import sys

CHILD_ENV = "MINIGRAD_TUI_CHILD"
CLEAN_EXITS = (0, 1, 2)  # finished, the script raised, bad arguments: Textual restored the terminal itself
RESTORE = (
    "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse reporting off
    "\x1b[?2004l\x1b[?1004l"  # bracketed paste and focus events off
    "\x1b[0m\x1b[?25h\x1b[?1049l"  # plain text, cursor shown, main screen back
)


def run_in_child(argv: list) -> int | None:
    """In an interactive POSIX terminal, run ``minigrad-tui argv`` in a child process, restore the
    terminal if it ends abruptly, and return its exit code; None when this process should run the
    debugger itself (already the child, not a terminal, or not POSIX)."""
    if os.environ.get(CHILD_ENV) or os.name != "posix" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    import termios

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys, tui; sys.exit(tui.main())", *argv], env={**os.environ, CHILD_ENV: "1"}
    )
    while True:
        try:
            code = child.wait()
            break
        except KeyboardInterrupt:  # ctrl+c reaches the child too; the debugger decides what it means
            continue
    if code in CLEAN_EXITS:
        return code
    termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    sys.stdout.write(RESTORE)
    sys.stdout.flush()
    how = f"signal {-code}" if code < 0 else f"exit code {code}"
    print(f"minigrad-tui: the debugger ended abruptly ({how}); the terminal was restored", file=sys.stderr)
    return 128 - code if code < 0 else code
