"""``torch.jit`` as a pass-through: ``script`` and ``trace`` return what they are given, saying so in one
line on stderr, as ``torch.compile`` does here; minigrad runs Python, and the debugger steps through it.
What a scripted module adds beyond calling it (``.save()``, ``.code``, ``.graph``) is missing and says so."""

from __future__ import annotations

import sys

__all__ = ["script", "trace", "is_scripting", "is_tracing", "ignore", "unused", "export"]


def _name(obj) -> str:
    return getattr(obj, "__name__", type(obj).__name__)


def script(obj, optimize=None, _frames_up: int = 0, _rcb=None, example_inputs=None):
    """Return ``obj`` (a function or Module) unchanged, with a one-line notice: minigrad does not compile."""
    print(f"minigrad: torch.jit.script({_name(obj)}) returns it unchanged (minigrad does not compile)", file=sys.stderr)
    return obj


def trace(func, example_inputs=None, optimize=None, check_trace: bool = True, *args, **kwargs):
    """Return ``func`` (a function or Module) unchanged, with a one-line notice: minigrad does not trace
    into a graph of its own (its tracing is ``minigrad trace``, of the backward pass)."""
    print(f"minigrad: torch.jit.trace({_name(func)}) returns it unchanged (minigrad does not compile)", file=sys.stderr)
    return func


def is_scripting() -> bool:
    """False: code never runs scripted under minigrad."""
    return False


def is_tracing() -> bool:
    """False: code never runs under a jit trace under minigrad."""
    return False


def _as_is(fn=None, **kwargs):
    """A decorator that leaves the function as it is (bare or called with torch's options)."""
    if fn is None:
        return lambda f: f
    return fn


ignore = unused = export = _as_is
