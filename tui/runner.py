"""Run the debugged script in a worker thread, recording its events and pausing it between moves.

The script runs under :func:`minigrad.trace.record`. A gate listener on the raw
event bus, registered after the recorder, looks at the typed events each raw
event produced and blocks the script's thread when one of them is where the
viewer asked to go (a :class:`~tui.navigation.Movement`). The viewer reads the
growing trace from its own thread and calls :meth:`ScriptRunner.advance` to let
the script run to the next place. :meth:`ScriptRunner.stop` ends the script at
its next event, or, for a script busy in plain Python, by raising
:class:`ScriptStopped` asynchronously in its thread.
"""

from __future__ import annotations

import ctypes
import linecache
import os
import sys
import threading
import traceback

from . import navigation
from .capture import OutputBuffer, ThreadOutputCapture


class ScriptStopped(BaseException):
    """Raised in the script's thread when the debugger quits (not an Exception: scripts should not catch it)."""


def load_script(path: str) -> tuple[str, str]:
    """(source, filename) of a script; OSError/UnicodeDecodeError propagate with their messages."""
    with open(path, encoding="utf-8") as fh:
        return fh.read(), os.path.abspath(path)


class ScriptRunner:
    """The script's thread, its trace and its output; states: starting, paused, running, finished, error, stopped.

    ``source`` None means: read ``filename`` in the thread, so an unreadable script
    is reported by the debugger like any other error.
    """

    live = True

    def __init__(self, source: str | None, filename: str, argv: list, device: str | None = None, max_lines: int = 2000):
        self.source = source
        self.filename = filename
        self.argv = argv
        self.device = device
        self.output = OutputBuffer(max_lines)
        self.trace = None
        self.state = "starting"
        self.error: tuple | None = None
        self.paused_at: int | None = None
        self.generation = 0
        self.paused_generation = -1
        self._movement = navigation.step_into()
        self._checked = 0
        self._pause_requested = False
        self._stop_requested = False
        self._cond = threading.Condition()
        self._blocked = False
        self._thread = threading.Thread(target=self._main, name="minigrad-script", daemon=True)
        self._ready = threading.Event()

    # ------------------------------------------------------------ viewer side
    def start(self) -> None:
        self._thread.start()
        self._ready.wait(5.0)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def advance(self, movement: navigation.Movement) -> int:
        """Let the script run until an event satisfies ``movement``; returns the request's generation."""
        with self._cond:
            self.generation += 1
            self._movement = movement
            self._cond.notify_all()
            return self.generation

    def pause(self) -> None:
        """Stop at the next event, wherever the current movement was going."""
        with self._cond:
            self._pause_requested = True

    def stop(self, timeout: float = 1.0) -> None:
        """End the script: at its next event, or by an asynchronous exception if it is busy elsewhere."""
        with self._cond:
            self._stop_requested = True
            self._cond.notify_all()
        if not self._thread.is_alive() or self._thread is threading.current_thread():
            return
        self._thread.join(0.05)
        if self._thread.is_alive() and not self._blocked:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(self._thread.ident), ctypes.py_object(ScriptStopped)
            )
        self._thread.join(timeout)

    # ------------------------------------------------------------ script side
    def _gate(self, kind, fields) -> None:
        if threading.current_thread() is not self._thread:
            return
        if self._stop_requested:
            raise ScriptStopped()
        events = self.trace.events
        with self._cond:
            n = len(events)
            hit = None
            movement = self._movement
            if movement is not None:
                for i in range(self._checked, n):
                    if movement.matches(events[i]):
                        hit = i
                        break
            self._checked = n
            if hit is None and not (self._pause_requested and n):
                return
            self.paused_at = hit if hit is not None else n - 1
            self._pause_requested = False
            self._movement = None
            self.paused_generation = self.generation
            self.state = "paused"
            self._blocked = True
            try:
                while self._movement is None and not self._stop_requested:
                    self._cond.wait()
            finally:
                self._blocked = False
            if self._stop_requested:
                raise ScriptStopped()
            self.state = "running"

    def _main(self) -> None:
        from minigrad import _events
        from minigrad.trace import record

        globals_ = {"__name__": "__main__", "__file__": self.filename, "__builtins__": __builtins__}
        saved_argv, saved_path = sys.argv, list(sys.path)
        try:
            with ThreadOutputCapture(self.output, self._thread):
                if self.source is None:
                    self.source, self.filename = load_script(self.filename)
                linecache.cache[self.filename] = (len(self.source), None, self.source.splitlines(True), self.filename)
                code = compile(self.source, self.filename, "exec")
                self._set_device()
                with record(meta={"script": self.filename, "argv": self.argv}) as trace:
                    self.trace = trace
                    self._ready.set()
                    _events.add_listener(self._gate)
                    try:
                        sys.argv = [self.filename, *self.argv]
                        sys.path.insert(0, os.path.dirname(self.filename))
                        self.state = "running"
                        exec(code, globals_)
                    finally:
                        _events.remove_listener(self._gate)
            self.state = "finished"
        except ScriptStopped:
            self.state = "stopped"
        except SyntaxError as exc:
            self.error = (f"SyntaxError: {exc.msg} ({exc.filename}, line {exc.lineno})", _format(exc, None))
            self.state = "error"
        except BaseException as exc:
            self.error = (f"{type(exc).__name__}: {exc}", _format(exc, self.filename))
            self.state = "error"
        finally:
            sys.argv = saved_argv
            sys.path[:] = saved_path
            if self.trace is None:
                from minigrad.trace import Trace

                self.trace = Trace()
            self._ready.set()

    def _set_device(self) -> None:
        if self.device is None:
            return
        import minigrad

        if self.device == "cuda" and not minigrad.cuda_is_available():
            raise RuntimeError("--device cuda: no CUDA device is available (CuPy missing or no GPU)")
        setter = getattr(minigrad, "set_default_device", None)
        if setter is None:
            if self.device != "cpu":
                raise RuntimeError("--device cuda needs minigrad.set_default_device, which this minigrad lacks")
            return
        setter(self.device)


def _format(exc: BaseException, script: str | None) -> str:
    """The traceback from the script's first frame on (the debugger's own frames left out)."""
    tb = exc.__traceback__
    if script is not None:
        first = tb
        while first is not None and first.tb_frame.f_code.co_filename != script:
            first = first.tb_next
        tb = first or tb
    return "".join(traceback.format_exception(type(exc), exc, tb))


class ReplaySource:
    """A recorded trace opened with ``--replay``: nothing runs, every step is already there."""

    live = False
    alive = False

    def __init__(self, trace) -> None:
        self.trace = trace
        self.output = OutputBuffer()
        self.state = "replay"
        self.error = None
        self.paused_at = None
        self.generation = 0
        self.paused_generation = 0

    def start(self) -> None:
        return None

    def advance(self, movement) -> int:
        return self.generation

    def pause(self) -> None:
        return None

    def stop(self, timeout: float = 1.0) -> None:
        return None
