"""Route one thread's ``print`` output into a bounded buffer, leaving other threads alone.

The debugged script runs in a worker thread while Textual owns the terminal; its
writes to ``sys.stdout``/``sys.stderr`` must land in the output pane, never on the
screen, and a script that prints millions of lines must not eat the memory.
"""

from __future__ import annotations

import io
import sys
import threading
from collections import deque


class OutputBuffer:
    """The last ``max_lines`` lines a script wrote, plus a count of the ones dropped."""

    def __init__(self, max_lines: int = 2000):
        self._lines: deque[str] = deque(maxlen=max_lines)
        self._partial = ""
        self._lock = threading.Lock()
        self.total_lines = 0
        self.version = 0

    def write(self, text: str) -> None:
        with self._lock:
            parts = (self._partial + text).split("\n")
            self._partial = parts.pop()
            self._lines.extend(parts)
            self.total_lines += len(parts)
            self.version += 1

    @property
    def dropped(self) -> int:
        """How many of the oldest lines are no longer kept."""
        with self._lock:
            return self.total_lines - len(self._lines)

    def lines(self) -> list[str]:
        """The kept lines, with an unfinished last line if there is one."""
        with self._lock:
            return list(self._lines) + ([self._partial] if self._partial else [])

    def text(self) -> str:
        return "\n".join(self.lines())


class _ThreadRoutedStream(io.TextIOBase):
    """A stand-in for sys.stdout/stderr: the owner thread writes to a buffer, others pass through."""

    def __init__(self, original, buffer: OutputBuffer, owner: threading.Thread):
        self._original = original
        self._buffer = buffer
        self._owner = owner

    def _routed(self) -> bool:
        return threading.current_thread() is self._owner

    def write(self, text) -> int:
        if self._routed():
            self._buffer.write(str(text))
        else:
            self._original.write(text)
        return len(text)

    def flush(self) -> None:
        if not self._routed():
            self._original.flush()

    def isatty(self) -> bool:
        return False if self._routed() else self._original.isatty()

    @property
    def encoding(self):
        return "utf-8"


class _NoInput(io.TextIOBase):
    """stdin for the script: Textual owns the keyboard, so reading gives end-of-file."""

    def __init__(self, original, owner: threading.Thread):
        self._original = original
        self._owner = owner

    def readable(self) -> bool:
        return True

    def read(self, size=-1) -> str:
        return "" if threading.current_thread() is self._owner else self._original.read(size)

    def readline(self, size=-1) -> str:
        return "" if threading.current_thread() is self._owner else self._original.readline(size)


class ThreadOutputCapture:
    """Context manager: while active, ``owner``'s stdout/stderr go to ``buffer`` and its stdin is empty."""

    def __init__(self, buffer: OutputBuffer, owner: threading.Thread):
        self.buffer = buffer
        self.owner = owner
        self._saved = None

    def __enter__(self):
        self._saved = (sys.stdout, sys.stderr, sys.stdin)
        sys.stdout = _ThreadRoutedStream(sys.stdout, self.buffer, self.owner)
        sys.stderr = _ThreadRoutedStream(sys.stderr, self.buffer, self.owner)
        sys.stdin = _NoInput(sys.stdin, self.owner)
        return self

    def __exit__(self, *exc) -> None:
        streams = (sys.stdout, sys.stderr, sys.stdin)
        for name, ours, saved in zip(("stdout", "stderr", "stdin"), streams, self._saved):
            # Only undo our own replacement: someone may have swapped the stream since.
            if isinstance(ours, (_ThreadRoutedStream, _NoInput)):
                setattr(sys, name, saved)
