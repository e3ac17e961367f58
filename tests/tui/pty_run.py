"""``minigrad-tui`` in a pseudo-terminal of its own: its output read as it comes, keys written, its settings read back."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class PtyRun:
    """``python -m minigrad_tui.app argv`` as the session leader of a new 80x24 pseudo-terminal, its controlling
    terminal (so ctrl+c written to it interrupts the process group, as in a shell). With ``cwd``, the
    installed ``minigrad-tui`` command runs there instead, as a user starts it from any folder."""

    def __init__(self, argv: list, cwd: Path | None = None) -> None:
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.settings_before = termios.tcgetattr(self.slave)
        self.output = b""
        env = {**os.environ, "TERM": "xterm-256color"}
        env.pop("MINIGRAD_TUI_CHILD", None)
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("minigrad-tui")) if cwd else sys.executable]
            + ([] if cwd else ["-m", "minigrad_tui.app"])
            + argv,
            stdin=self.slave,
            stdout=self.slave,
            stderr=self.slave,
            cwd=cwd or REPO,
            env=env,
            start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
        )

    def read(self, timeout: float) -> bool:
        """Add what the terminal shows within ``timeout`` seconds to ``output``; False once nothing more can come."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: every process holding the terminal is gone
            return False
        self.output += data
        return bool(data)

    def wait_for(self, condition, timeout: float = 60.0, what: str = "") -> None:
        """Read until ``condition()`` holds; fails, showing the output, after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError(f"{what or condition} never happened; the terminal got:\n{self.output[-3000:]!r}")
            self.read(0.1)

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def finish(self, timeout: float = 60.0) -> int:
        """Read everything until the process ends; its exit code."""
        self.wait_for(lambda: self.process.poll() is not None, timeout, "the end of minigrad-tui")
        while self.read(0.2) and select.select([self.master], [], [], 0)[0]:
            pass
        return self.process.returncode

    def children(self) -> list[int]:
        """Process ids of the processes minigrad-tui started."""
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    @property
    def settings(self) -> list:
        return termios.tcgetattr(self.slave)

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait()
        os.close(self.master)
        os.close(self.slave)
