"""The script's side of the debugger: a :class:`minigrad.trace.Stepper` and a recorded trace.

:class:`ScriptRunner` drives the Stepper for the viewer. The viewer asks for a
:class:`~minigrad_tui.navigation.Movement`; the runner picks the Stepper command that
gets closest (step_node, finish_node, run_to, continue_, else step) and, when the
Stepper pauses at an event the movement does not accept (``n`` stepping over
a nested pass, say), re-issues the command from the script's thread at once,
with no round trip through the screen. :class:`ReplaySource` offers the same
face over a trace loaded from a file.
"""

from __future__ import annotations

import threading
import traceback
from dataclasses import dataclass

from minigrad.trace import Stepper
from minigrad.trace.output import OutputCapture
from minigrad.trace.tracebacks import user_traceback
from minigrad.trace.values import VIEW_LIMIT

from . import navigation

STATES = {"created": "starting", "failed": "error"}
ENDED_STATES = ("finished", "error", "stopped")


@dataclass(frozen=True)
class RunStatus:
    """What the script is doing, where it waits and how it failed, published together in one assignment.

    ``state``: starting, running, paused, finished, error, stopped or replay;
    ``error``: (title, traceback) or None, also while paused at an error event;
    ``paused_at``: index of the event a paused script waits at; ``generation``: the
    request that pause answers. A viewer that reads one RunStatus never sees a
    failed state, or a stop at an error, without its error.
    """

    state: str
    error: tuple | None = None
    paused_at: int | None = None
    generation: int = -1

    @property
    def ended(self) -> bool:
        return self.state in ENDED_STATES


class _StatusSource:
    """A source whose ``state`` and ``error`` are read from its one :class:`RunStatus`."""

    status: RunStatus

    @property
    def state(self) -> str:
        return self.status.state

    @property
    def error(self) -> tuple | None:
        return self.status.error


class ScriptRunner(_StatusSource):
    """A script run under a Stepper.

    Viewer-facing attributes: ``trace``, ``output``, ``status`` (a :class:`RunStatus`,
    replaced whole when the state changes; ``state`` and ``error`` read it) and
    ``generation`` (bumped by each :meth:`advance`). A script that cannot be
    started is reported through ``error``.
    """

    live = True

    def __init__(self, path: str, argv=(), device: str | None = None, breakpoints=None):
        self.path = path
        self.argv = list(argv)
        self.device = device
        self.breakpoints = breakpoints if breakpoints is not None else []
        self.output = OutputCapture()
        self.status = RunStatus("starting")
        self.generation = 0
        self.stepper: Stepper | None = None
        self.trace = None
        self._movement = navigation.step_into()
        self._pause_requested = False
        self._lock = threading.Lock()

    # ------------------------------------------------------------ viewer side
    def start(self) -> None:
        try:
            self._set_device()
            # every value up to the value view's size is kept whole (x shows it); larger ones are summaries
            self.stepper = Stepper(
                self.path, self.argv, on_pause=self._on_pause, on_end=self._on_end, max_values=VIEW_LIMIT
            )
        except Exception as exc:  # missing script, bad device: shown by the debugger, not a crash
            from minigrad.trace import Trace

            self.trace = Trace()
            self.status = RunStatus("error", (f"{type(exc).__name__}: {exc}", ""))
            return
        self.stepper.output = self.output
        self.trace = self.stepper.trace
        self.status = RunStatus("running")
        self.stepper.start()

    @property
    def alive(self) -> bool:
        """The script may still emit events: started and its end not yet published."""
        return self.stepper is not None and not self.status.ended

    def advance(self, movement: navigation.Movement) -> int:
        """Let the script run until an event satisfies ``movement`` (or a breakpoint); returns the request's id."""
        with self._lock:
            self.generation += 1
            self._movement = movement
            self._pause_requested = False
            if not self.status.ended:
                self.status = RunStatus("running")
        self.stepper.breakpoints = self.breakpoints  # one list: a breakpoint set while the script runs applies at once
        self._issue(movement)
        return self.generation

    def pause(self) -> None:
        """Stop at the next event, wherever the current movement was going."""
        if self.stepper is not None:
            self._pause_requested = True
            self.stepper.pause()

    def stop(self, timeout: float = 2.0) -> None:
        """End the script now (it gets StepperStopped), whatever it is doing."""
        if self.stepper is not None and not self.stepper.ended:
            self.stepper.stop(timeout)

    # ------------------------------------------------------------ script side (callbacks of the Stepper)
    def _issue(self, movement: navigation.Movement) -> None:
        s = self.stepper
        if movement.name == "next node":
            s.step_node()
        elif movement.name == "finish":
            s.finish_node()
        elif movement.name == "run to":
            s.run_to(movement.target)
        elif movement.name == "continue":  # the Stepper checks the breakpoints: no round trip per event
            s.continue_(stop_at_errors=True)
        else:  # step, next: stop at each event and let the movement decide (errors included)
            s.step()
        if self._pause_requested:  # a pause() that came while the command was re-issued must not be lost
            s.pause()

    def _on_pause(self, stepper: Stepper, event) -> None:
        with self._lock:
            movement = self._movement
            accept = (
                self._pause_requested
                or movement is None
                or stepper.hit is not None
                or event.kind == "error"
                or movement.matches(event)
            )
            if accept:
                self._pause_requested = False
                self.status = RunStatus("paused", error_of(event), event.seq, self.generation)
                return
        self._issue(movement)

    def _on_end(self, stepper: Stepper) -> None:
        exc = stepper.exception
        error = None
        if stepper.status == "failed" and exc is not None:
            error = (_title(exc), _format(exc))
        with self._lock:
            self.status = RunStatus(STATES.get(stepper.status, stepper.status), error)

    def _set_device(self) -> None:
        if self.device is None:
            return
        import minigrad

        minigrad.set_default_device(self.device)  # a clear error when CUDA is not usable


def error_of(event) -> tuple | None:
    """(title, traceback) of an error event as the error panel shows it; None for any other event."""
    if event.kind != "error":
        return None
    title = f"{event.error_type}: {event.message}"
    return title, event.traceback.removesuffix(title).rstrip()


def _title(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"SyntaxError: {exc.msg} ({exc.filename}, line {exc.lineno})"
    if isinstance(exc, SystemExit):
        return f"SystemExit: {exc.code}"
    return f"{type(exc).__name__}: {exc}"


def _format(exc: BaseException) -> str:
    """The traceback from the script's first frame on, minigrad's own frames folded into one line
    (a syntax error keeps Python's own text, with its caret)."""
    if isinstance(exc, SyntaxError):
        return "".join(traceback.format_exception(type(exc), exc, None))
    return user_traceback(traceback.extract_tb(exc.__traceback__), _title(exc))[1]


class ReplaySource(_StatusSource):
    """A recorded trace opened with ``--replay``: nothing runs, every step is already there."""

    live = False
    alive = False

    def __init__(self, trace) -> None:
        self.trace = trace
        # a recording of a run that raised shows its error in the Errors tab, as the live run did
        self.status = RunStatus("replay", next((error_of(e) for e in trace.events if e.kind == "error"), None))
        self.output = OutputCapture()
        self.generation = 0

    def start(self) -> None:
        return None

    def advance(self, movement) -> int:
        return self.generation

    def pause(self) -> None:
        return None

    def stop(self, timeout: float = 1.0) -> None:
        return None
