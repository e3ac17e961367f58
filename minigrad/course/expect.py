"""Assertions for lesson checks that say what was expected and what the learner's code gave.

Each raises AssertionError with a message ``"<what>: expected <want>, got <got>"``, where
``what`` names the thing in the lesson's terms ("the gradient entering a", "grad_via_backward's
first result"). Values may be Tensors, NumPy arrays, Python numbers or sequences of them.
"""

from __future__ import annotations

import numpy as np

__all__ = ["expect", "expect_close", "expect_equal", "expect_type", "expect_len", "show"]


def show(value) -> str:
    """A short text for a value in a message (Tensors and arrays as their numbers)."""
    from ..tensor import Tensor

    if isinstance(value, Tensor):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        text = np.array2string(value, separator=", ", threshold=20, precision=6)
        return " ".join(text.split())
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def expect(condition: bool, what: str, want, got) -> None:
    """Fail with ``what: expected want, got got`` unless ``condition``."""
    if not condition:
        raise AssertionError(f"{what}: expected {want}, got {show(got)}")


def expect_type(got, types, what: str):
    """``got`` must be an instance of ``types`` (a type or tuple); returns it."""
    if not isinstance(got, types):
        names = " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
        raise AssertionError(f"{what}: expected a {names}, got {type(got).__name__} {show(got)}")
    return got


def expect_len(got, n: int, what: str):
    """``got`` must be a sequence of ``n`` items; returns it."""
    try:
        size = len(got)
    except TypeError:
        raise AssertionError(f"{what}: expected {n} values, got {type(got).__name__} {show(got)}") from None
    if size != n:
        raise AssertionError(f"{what}: expected {n} values, got {size}: {show(got)}")
    return got


def _numbers(value, what: str) -> np.ndarray:
    from ..tensor import Tensor

    if isinstance(value, Tensor):
        return value.numpy()
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise AssertionError(f"{what}: expected numbers, got {type(value).__name__} {show(value)}") from None
    return arr


def expect_close(got, want, what: str, rtol: float = 1e-6, atol: float = 1e-9) -> None:
    """``got`` equals ``want`` to the tolerances, element by element, with the same shape."""
    g, w = _numbers(got, what), _numbers(want, what)
    if g.shape != w.shape:
        raise AssertionError(
            f"{what}: expected shape {list(w.shape)} ({show(w)}), got shape {list(g.shape)} ({show(g)})"
        )
    if not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
        raise AssertionError(f"{what}: expected {show(w)}, got {show(g)}")


def expect_equal(got, want, what: str) -> None:
    """``got == want`` (exactly: counts, names, orders)."""
    if got != want:
        raise AssertionError(f"{what}: expected {show(want)}, got {show(got)}")
