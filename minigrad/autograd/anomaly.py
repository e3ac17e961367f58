"""Anomaly mode: remember where each node was made; fail loudly on NaN/Inf in backward.

While anomaly mode is on, ``tensor.make`` stores the user's forward stack on
every recorded node (``minigrad._tensor_state.creation_stack(node)`` reads it). During backward the
engine then checks each closure's gradients for NaN/Inf, and any error raised
while processing a node carries the forward traceback of the line that made it.
"""

from __future__ import annotations

import functools
import traceback
import warnings

from .. import _state
from .._tensor_state import creation_stack
from ..tensor import node_label

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]

state = _state.anomaly


def is_anomaly_enabled() -> bool:
    """True while anomaly detection is on."""
    return state.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """True while anomaly detection also checks backward results for NaN/Inf."""
    return state.check_nan


class detect_anomaly:
    """Context manager (and decorator) that turns on anomaly detection.

    While on, every recorded op remembers the user's code that created it, and a
    backward closure that produces NaN or Inf (with ``check_nan=True``) raises a
    RuntimeError naming the node and op, with the forward traceback of the line
    that created it. Other errors raised during backward get that traceback as a
    note. Entering warns that the mode slows everything down, as PyTorch does.
    """

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan

    def __enter__(self):
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be "
            "enabled for debugging.",
            stacklevel=2,
        )
        self._prev = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc):
        state.enabled, state.check_nan = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._ctor_args()):
                return fn(*args, **kwargs)

        return wrapper

    def _ctor_args(self):
        return (self.check_nan,)


class set_detect_anomaly(detect_anomaly):
    """Switch anomaly detection on or off at once; as a context manager, restore the previous mode on exit."""

    def __init__(self, mode: bool, check_nan: bool = True):
        self.mode, self.check_nan = bool(mode), check_nan
        self._before_init = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = self.mode, check_nan

    def __enter__(self):
        self._prev = self._before_init
        state.enabled, state.check_nan = self.mode, self.check_nan
        return self

    def __call__(self, fn):
        # Used as a decorator, construction must not leave the mode switched.
        state.enabled, state.check_nan = self._before_init
        return super().__call__(fn)

    def _ctor_args(self):
        return (self.mode, self.check_nan)


def _node_description(node) -> str:
    return f"node {node_label(node.name, node.op, node.id)}, op {node.op}"


def forward_trace(node) -> str:
    """The recorded forward traceback of ``node``, formatted (empty when none was recorded)."""
    stack = creation_stack(node)
    if not stack:
        return ""
    return "Traceback of forward call that caused the error:\n" + "".join(traceback.format_list(stack))


def note_forward_trace(exc: BaseException, node) -> None:
    """Attach ``node``'s forward traceback to an error raised while it was processed (once per error)."""
    if getattr(exc, "_minigrad_anomaly_noted", False):
        return
    try:
        exc._minigrad_anomaly_noted = True
    except AttributeError:
        return
    trace = forward_trace(node)
    exc.add_note(f"Error detected in {node.grad_fn.name()} ({_node_description(node)}).")
    if trace:
        exc.add_note(trace)


def check_outputs(node, outputs) -> None:
    """Raise if a backward closure returned a non-finite gradient (anomaly mode only)."""
    if not state.check_nan:
        return
    for i, g in enumerate(outputs):
        if g is None:
            continue
        xp = g.device.xp
        if g.array.dtype.kind == "f" and not bool(xp.isfinite(g.array).all()):
            bad = "nan" if bool(xp.isnan(g.array).any()) else "inf"
            trace = forward_trace(node)
            err = RuntimeError(
                f"Function '{node.grad_fn.name()}' returned {bad} values in its {i}th output "
                f"({_node_description(node)})." + ("\n\n" + trace if trace else "")
            )
            err._minigrad_anomaly_noted = True
            raise err
