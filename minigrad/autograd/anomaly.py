"""Anomaly mode: remember where each node was made; fail loudly on NaN/Inf in backward."""

from __future__ import annotations

import traceback

from .. import _state

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled"]

state = _state.anomaly


def is_anomaly_enabled() -> bool:
    return state.enabled


class detect_anomaly:
    """Context manager (and decorator) that turns on anomaly detection.

    While on, every recorded op remembers the user's code that created it, and a
    backward closure that produces NaN or Inf raises an error naming the node and
    op, with the forward traceback of the line that created it.
    """

    def __init__(self, check_nan: bool = True):
        self.check_nan = check_nan

    def __enter__(self):
        self._prev = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc):
        state.enabled, state.check_nan = self._prev
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)

        return wrapper


class set_detect_anomaly(detect_anomaly):
    """Switch anomaly detection on or off; as a context manager, restore on exit."""

    def __init__(self, mode: bool, check_nan: bool = True):
        self.mode, self.check_nan = mode, check_nan
        self._before_init = (state.enabled, state.check_nan)
        state.enabled, state.check_nan = mode, check_nan

    def __enter__(self):
        self._prev = self._before_init
        state.enabled, state.check_nan = self.mode, self.check_nan
        return self


def record_creation(node) -> None:
    """Remember the forward stack (without minigrad's own frames) that created ``node``."""
    stack = [f for f in traceback.extract_stack()[:-1] if not _is_internal(f.filename)]
    node.meta()["creation_stack"] = stack


def _is_internal(filename: str) -> bool:
    import os

    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return os.path.abspath(filename).startswith(pkg + os.sep)


def check_outputs(node, outputs) -> None:
    """Raise if a backward closure returned a non-finite gradient (anomaly mode only)."""
    if not state.check_nan:
        return
    for i, g in enumerate(outputs):
        if g is None:
            continue
        xp = g.device.xp
        if g.dtype.kind == "f" and not bool(xp.isfinite(g.data).all()):
            bad = "nan" if bool(xp.isnan(g.data).any()) else "inf"
            where = ""
            stack = (node._meta or {}).get("creation_stack")
            if stack:
                where = "\n\nTraceback of forward call that caused the error:\n" + "".join(traceback.format_list(stack))
            raise RuntimeError(
                f"Function '{node.grad_fn.name()}' returned {bad} values in its {i}th output "
                f"(node {node.name or node.op + '#' + str(node.id)}, op {node.op}).{where}"
            )
