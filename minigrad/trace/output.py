"""Capture what one thread prints, leaving every other thread's output alone.

``sys.stdout``/``sys.stderr`` are process-wide, so a script run in a worker
thread is captured by a router installed on them that sends the worker's
writes to an :class:`OutputCapture` and everything else to the stream it wrapped.
"""

from __future__ import annotations

import io
import sys
import threading
from collections import deque
from contextlib import contextmanager
from itertools import islice

__all__ = ["OutputCapture", "capture_thread_output"]


class OutputCapture:
    """The text a script wrote, as ``(stream, text)`` chunks ("stdout" or "stderr"), thread-safe.

    ``on_write(stream, text)``, when given, is called (in the writing thread) after each write.
    ``max_chars`` bounds the memory: the oldest chunks are dropped beyond it.
    """

    def __init__(self, on_write=None, max_chars: int = 4_000_000):
        self._chunks: deque = deque()
        self._lock = threading.Lock()
        self._chars = 0
        self._dropped = 0
        self.max_chars = max_chars
        self.on_write = on_write

    def write(self, stream: str, text: str) -> None:
        if not text:
            return
        with self._lock:
            self._chunks.append((stream, text))
            self._chars += len(text)
            while self._chars > self.max_chars and len(self._chunks) > 1:
                _, old = self._chunks.popleft()
                self._chars -= len(old)
                self._dropped += 1
        if self.on_write is not None:
            self.on_write(stream, text)

    @property
    def count(self) -> int:
        """How many chunks were ever written (an index for :meth:`chunks_since`)."""
        with self._lock:
            return self._dropped + len(self._chunks)

    def chunks_since(self, index: int) -> list:
        """Chunks written after the first ``index`` ones (those already dropped are skipped)."""
        with self._lock:
            return list(islice(self._chunks, max(0, index - self._dropped), None))

    def text(self, stream: str | None = None) -> str:
        """Everything kept, or only one stream's text."""
        with self._lock:
            return "".join(t for s, t in self._chunks if stream is None or s == stream)


class _Router(io.TextIOBase):
    def __init__(self, wrapped, name: str):
        self.wrapped = wrapped
        self.name = name
        self.targets: dict = {}  # thread ident -> OutputCapture

    def write(self, text) -> int:
        capture = self.targets.get(threading.get_ident())
        if capture is None:
            return self.wrapped.write(text)
        capture.write(self.name, str(text))
        return len(text)

    def flush(self) -> None:
        if threading.get_ident() not in self.targets:
            self.wrapped.flush()

    def isatty(self) -> bool:
        return False if threading.get_ident() in self.targets else self.wrapped.isatty()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self):
        return getattr(self.wrapped, "encoding", "utf-8")

    @property
    def buffer(self):
        """The binary stream under it, as a real ``sys.stdout`` has: a captured thread's bytes are captured too."""
        return _CapturedBytes(self) if threading.get_ident() in self.targets else self.wrapped.buffer

    def fileno(self) -> int:
        return self.wrapped.fileno()


class _CapturedBytes(io.RawIOBase):
    """``sys.stdout.buffer`` (or stderr's) for a captured thread: its bytes, decoded, go where its text goes."""

    def __init__(self, router: _Router):
        self.router = router

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.router.write(bytes(data).decode(self.router.encoding, "replace"))
        return len(data)


class _InputRouter(io.TextIOBase):
    """sys.stdin for everyone, except captured threads, which read end-of-file.

    A script under the debugger must not compete with the viewer for the keyboard:
    its ``input()`` raises EOFError instead.
    """

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.targets: dict = {}

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> str:
        return "" if threading.get_ident() in self.targets else self.wrapped.read(size)

    def readline(self, size: int = -1) -> str:
        return "" if threading.get_ident() in self.targets else self.wrapped.readline(size)

    def isatty(self) -> bool:
        return False if threading.get_ident() in self.targets else self.wrapped.isatty()

    @property
    def encoding(self):
        return getattr(self.wrapped, "encoding", "utf-8")

    @property
    def buffer(self):
        """The binary stream under it, as a real ``sys.stdin`` has: end-of-file for a captured thread."""
        return io.BytesIO() if threading.get_ident() in self.targets else self.wrapped.buffer

    def fileno(self) -> int:
        return self.wrapped.fileno()


def _input_router() -> _InputRouter:
    if isinstance(sys.stdin, _InputRouter):
        return sys.stdin
    router = _InputRouter(sys.stdin)
    sys.stdin = router
    return router


_install_lock = threading.Lock()


def _router(name: str) -> _Router:
    current = getattr(sys, name)
    if isinstance(current, _Router):
        return current
    router = _Router(current, name)
    setattr(sys, name, router)
    return router


@contextmanager
def capture_thread_output(capture: OutputCapture, ident: int | None = None):
    """Route thread ``ident``'s (default: this thread's) writes to sys.stdout/stderr into ``capture``.

    While captured, that thread reads end-of-file from sys.stdin.
    """
    ident = threading.get_ident() if ident is None else ident
    with _install_lock:
        routers = [_router("stdout"), _router("stderr"), _input_router()]
        for r in routers:
            r.targets[ident] = capture
    try:
        yield capture
    finally:
        with _install_lock:
            for r in routers:
                r.targets.pop(ident, None)
