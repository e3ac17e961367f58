"""Stepper: run user code in a worker thread and block it at each event until released.

Typical use from a UI thread::

    s = Stepper("examples/demo.py", ["--lr", "0.1"])
    s.start()                 # the script runs and pauses at its first event
    s.wait()                  # -> "paused"; s.paused_at is the event, s.trace grows
    s.step_node(); s.wait()   # run until the pass enters the next node
    s.continue_(); s.wait()   # run to a breakpoint or the end -> "finished"

Commands return at once; ``wait()`` blocks until the script pauses or ends, or
pass ``on_pause``/``on_end``/``on_event``/``on_output`` callbacks (called in the
worker thread) and poll nothing. ``stop()`` ends the script by raising
:class:`StepperStopped` in its thread. ``node_named`` events and nodes first
seen late (made before the Stepper started) are recorded but never paused at.
"""

from __future__ import annotations

import ctypes
import os
import runpy
import sys
import threading
import traceback

from .. import _events
from .breakpoints import Breakpoint, HitCounter
from .budget import DEFAULT_MAX_BYTES, Budget
from .convert import Converter, claim_thread, release_thread
from .output import OutputCapture, capture_thread_output
from .snapshot import DEFAULT_MAX_VALUES
from .trace import Trace

__all__ = ["Stepper", "StepperStopped", "STATUSES"]

STATUSES = ("created", "running", "paused", "finished", "failed", "stopped")
_ENDED = ("finished", "failed", "stopped")
_CLEANUP_KINDS = frozenset({"error", "grads_restored", "graph_freed", "pass_finished", "node_named"})
# the raw kinds whose first value is the engine's pass id (renumbered per script thread)
_PASS_KINDS = frozenset(kind for kind, names in _events.FIELDS.items() if names[0] == "pass_id")


class StepperStopped(BaseException):
    """Raised inside the script's thread when :meth:`Stepper.stop` ends it.

    A BaseException (like KeyboardInterrupt), so ``except Exception`` in the
    script does not swallow it.
    """


class Stepper:
    """Run ``target`` (a callable taking no arguments, or a script path run as ``__main__``
    with ``argv``) in a worker thread, pausing at events.

    Attributes read by viewers: ``trace`` (growing), ``status`` (one of
    STATUSES), ``paused_at`` (the event it waits at, or None), ``hit`` (the
    Breakpoint that caused the pause, or None), ``output`` (:class:`OutputCapture`
    of the script's stdout/stderr; a traceback of an uncaught error is written
    to it too), ``exception``, ``exit_code`` (SystemExit code), ``result``
    (the callable's return value). The trace numbers the script thread's passes from 1, as it ran
    them (other threads' passes, which the trace leaves out, do not count).

    ``start_paused``: pause at the first event (else run to a breakpoint).
    ``max_values``, ``max_bytes``, ``sources``, ``names``: as for :func:`minigrad.trace.record`
    (``trace.budget_message`` says what the memory budget dropped, or None).
    """

    def __init__(
        self,
        target,
        argv=(),
        *,
        start_paused: bool = True,
        max_values: int = DEFAULT_MAX_VALUES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        sources: bool = True,
        names: bool = True,
        breakpoints=(),
        on_pause=None,
        on_end=None,
        on_event=None,
        on_output=None,
    ):
        if not callable(target) and not isinstance(target, (str, os.PathLike)):
            raise TypeError(f"Stepper target must be a callable or a script path, got {type(target).__name__}")
        if not callable(target) and not os.path.isfile(target):
            raise FileNotFoundError(f"no such script: {os.fspath(target)!r}")
        self.target = target
        self.argv = [str(a) for a in argv]
        meta = {"script": os.fspath(target), "argv": self.argv} if not callable(target) else {}
        self.trace = Trace(meta=meta)
        self.hits = HitCounter(self.trace)
        self.output = OutputCapture(on_write=on_output)
        self.breakpoints: list = list(breakpoints)
        self.on_pause = on_pause
        self.on_end = on_end
        self.on_event = on_event
        self.status = "created"
        self.paused_at = None
        self.hit = None
        self.exception: BaseException | None = None
        self.exit_code = None
        self.result = None
        self._cond = threading.Condition()
        self._mode = "step" if start_paused else "continue"
        self._mode_arg = None
        self._pause_requested = False
        self._released = False
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._pass_numbers: dict = {}  # the engine's id of a pass of the script's thread -> its number there
        self._passes_counted = 0
        self._converter = Converter(max_values=max_values, sources=sources, names=names, threads=set())
        self._budget = Budget(self.trace, self._converter, max_bytes)
        self._converter.sink = self._budget.append

    # ------------------------------------------------------------ life cycle
    def start(self) -> Stepper:
        """Start the worker thread (once). Returns self."""
        with self._cond:
            if self.status != "created":
                raise RuntimeError(f"Stepper already started (status {self.status!r})")
            self.status = "running"
        self._thread = threading.Thread(target=self._work, name="minigrad-stepper", daemon=True)
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> str:
        """Block until the script is paused or has ended (or ``timeout`` seconds pass); returns the status."""
        with self._cond:
            self._cond.wait_for(lambda: self.status != "running", timeout)
            return self.status

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker thread to end; True when it has."""
        if self._thread is None:
            return True
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def ended(self) -> bool:
        return self.status in _ENDED

    # ------------------------------------------------------------ commands
    def step(self) -> None:
        """Run to the next event."""
        self._release("step")

    def step_node(self) -> None:
        """Run until the pass enters the next node (or a pass ends)."""
        self._release("node")

    def finish_node(self) -> None:
        """Run until the current node is finished (or its pass ends); like step_node when not at a node."""
        ev = self.paused_at
        if ev is None or ev.node_id is None or ev.pass_id is None:
            self._release("node")
        else:
            self._release("finish", (ev.node_id, ev.pass_id))

    def continue_(self, stop_at_errors: bool = False) -> None:
        """Run until a breakpoint, a pause() request, or the end (with ``stop_at_errors``, also
        at an ``error`` event, where a pass raised). The script pauses nowhere else: no callback
        per event, so a long run goes at recording speed."""
        self._release("continue", stop_at_errors)

    def run_to(self, node) -> None:
        """Run until the pass enters ``node`` (an id or a name), a breakpoint, or the end."""
        self._release("run_to", node)

    def pause(self) -> None:
        """Ask the running script to pause at its next event (no effect when paused or ended)."""
        with self._cond:
            self._pause_requested = True

    def stop(self, timeout: float = 5.0) -> bool:
        """End the script with StepperStopped (raised at its next event, or injected into a
        thread busy without events); returns True when the worker has ended within ``timeout``.
        """
        with self._cond:
            if self.status == "created":
                self.status = "stopped"
                return True
            self._stopping = True
            self._released = True
            if self.status == "paused":
                self.status = "running"
            self._cond.notify_all()
        thread = self._thread
        if thread is threading.current_thread():
            return False  # called from a callback in the script's thread: it stops at its next event
        if self.join(min(0.2, timeout)):
            return True
        if thread is not None and thread.ident is not None:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(StepperStopped))
        return self.join(max(timeout - 0.2, 0.0))

    def add_breakpoint(
        self, node=None, op=None, pass_kind=None, nonfinite=False, condition=None, hit_count=1
    ) -> Breakpoint:
        """Add and return a :class:`Breakpoint` (exactly one criterion; see its fields)."""
        bp = Breakpoint(node, op, pass_kind, nonfinite, condition, hit_count)
        with self._cond:
            self.breakpoints.append(bp)
        return bp

    def remove_breakpoint(self, bp: Breakpoint) -> None:
        with self._cond:
            if bp in self.breakpoints:
                self.breakpoints.remove(bp)

    def _release(self, mode: str, arg=None) -> None:
        with self._cond:
            if self.ended:
                return
            self._mode = mode
            self._mode_arg = arg
            self._pause_requested = False
            if self.status == "paused":
                self._released = True
                self.status = "running"
                self._cond.notify_all()

    # ------------------------------------------------------------ worker side
    def _listener(self, kind, values) -> None:
        if kind in _PASS_KINDS and values[0] is not None and threading.get_ident() in self._converter.threads:
            values = (self._pass_number(kind, values), *values[1:])
        for ev in self._converter.handle(kind, values):
            if self.on_event is not None:
                self.on_event(ev)
            if self._stopping:
                if ev.kind not in _CLEANUP_KINDS:
                    raise StepperStopped("stopped by the debugger")
                continue
            if ev.kind == "node_named" or (ev.kind == "node_created" and ev.late):
                continue
            hit = self._should_pause(ev)
            if hit is not False:
                self._block(ev, hit)

    def _pass_number(self, kind, values) -> int:
        """The pass's number among the script thread's passes, from 1 (the engine numbers the passes of
        every thread together: after 200 passes in other threads, the script's first would be pass 201)."""
        engine_id, depth = values[0], values[1]
        if kind == "pass_started" and depth == 1:
            self._pass_numbers.clear()  # the thread's earlier passes have all ended
        number = self._pass_numbers.get(engine_id)
        if number is None:
            self._passes_counted += 1
            number = self._pass_numbers[engine_id] = self._passes_counted
        return number

    def _should_pause(self, ev):
        """False, or the Breakpoint (None when no breakpoint) that makes the script pause at ``ev``."""
        with self._cond:
            for bp in self.breakpoints:
                if bp.matches(ev, self.hits):
                    return bp
            mode, arg = self._mode, self._mode_arg
            if self._pause_requested or mode == "step":
                return None
        if mode == "node":
            return None if ev.kind in ("node_entered", "pass_finished", "error") else False
        if mode == "finish":
            nid, pass_id = arg
            if ev.pass_id == pass_id and (
                (ev.kind == "node_finished" and ev.node == nid) or ev.kind in ("pass_finished", "error")
            ):
                return None
            return False
        if mode == "run_to":
            return None if Breakpoint(node=arg).hit(ev, self.trace.nodes) else False
        if mode == "continue" and arg and ev.kind == "error":
            return None
        return False

    def _block(self, ev, hit) -> None:
        with self._cond:
            self.paused_at = ev
            self.hit = hit
            self.status = "paused"
            self._pause_requested = False
            self._released = False
            self._cond.notify_all()
        if self.on_pause is not None:
            self.on_pause(self, ev)
        with self._cond:
            self._cond.wait_for(lambda: self._released)
            self.paused_at = None
            self.hit = None
            stopping = self._stopping
        if stopping:
            raise StepperStopped("stopped by the debugger")

    def _work(self) -> None:
        ident = threading.get_ident()
        self._converter.threads.add(ident)
        claim_thread(self._converter, ident)
        _events.add_listener(self._listener)
        status = "stopped"
        try:
            status = self._run_captured(ident)
        except StepperStopped:  # injected by stop() between two statements of the runner
            status = "stopped"
        finally:
            while True:  # an exception stop() injected late must not skip the bookkeeping
                try:
                    self._finish(status)
                    break
                except StepperStopped:
                    continue
        if self.on_end is not None:
            self.on_end(self)

    def _run_captured(self, ident) -> str:
        with capture_thread_output(self.output, ident):
            try:
                self.result = self._run_target()
            except StepperStopped as exc:
                self.exception = exc
                return "stopped"
            except SystemExit as exc:
                self.exit_code = exc.code
                if exc.code in (None, 0):
                    return "finished"
                self.exception = exc
                if not isinstance(exc.code, int):
                    self.output.write("stderr", f"{exc.code}\n")
                return "failed"
            except BaseException as exc:
                self.exception = exc
                self.output.write("stderr", "".join(traceback.format_exception(exc)))
                return "failed"
        return "finished"

    def _finish(self, status: str) -> None:
        _events.remove_listener(self._listener)
        release_thread(self._converter)
        self._converter.flush()
        with self._cond:
            if self._stopping and status == "finished":
                status = "stopped"
            self.status = status
            self.paused_at = None
            self.hit = None
            self._cond.notify_all()

    def _run_target(self):
        if callable(self.target):
            return self.target()
        path = os.path.abspath(self.target)
        saved_argv = sys.argv
        sys.argv = [path, *self.argv]
        sys.path.insert(0, os.path.dirname(path))
        try:
            runpy.run_path(path, run_name="__main__")
        finally:
            sys.argv = saved_argv
            try:
                sys.path.remove(os.path.dirname(path))
            except ValueError:
                pass
        return None
