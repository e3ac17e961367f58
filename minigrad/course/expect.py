"""Assertions for lesson checks that say what was expected and what the learner's code gave.

Each raises AssertionError with a message ``"<what>: expected <want>, got <got>"``, where
``what`` names the thing in the lesson's terms ("the gradient entering a", "grad_via_backward's
first result"). Values may be Tensors, NumPy arrays, Python numbers or sequences of them.

A prediction exercise's answer is checked by :func:`expect_prediction`, whose message never
shows the right answer: it names the first entry that differs, or says too high or too low.
"""

from __future__ import annotations

import numpy as np

from ..autograd import GradcheckError, gradcheck, gradgradcheck

__all__ = [
    "expect",
    "expect_close",
    "expect_equal",
    "expect_type",
    "expect_len",
    "expect_raises",
    "expect_prediction",
    "expect_gradcheck",
    "show",
]


def show(value) -> str:
    """A short text for a value in a message (Tensors and arrays as their numbers)."""
    from ..tensor import Tensor

    if isinstance(value, Tensor):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        text = np.array2string(value, separator=", ", threshold=20, precision=6)
        return " ".join(text.split())
    if isinstance(value, np.generic):  # a NumPy scalar reads as its number, not np.float64(...)
        value = value.item()
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
        return value.detach().cpu().numpy()
    if value is None:
        raise AssertionError(f"{what}: expected numbers, got None")
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise AssertionError(f"{what}: expected numbers, got {type(value).__name__} {show(value)}") from None
    return arr


def expect_close(got, want, what: str, rtol: float = 1e-6, atol: float = 1e-9) -> None:
    """``got`` equals ``want`` to the tolerances, element by element, with the same shape."""
    w = _numbers(want, what)
    if got is None:
        raise AssertionError(f"{what}: expected {show(w)}, got None")
    g = _numbers(got, what)
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


def expect_raises(fn, error: type, text: str, what: str):
    """``fn()`` must raise ``error`` with ``text`` in its message (it is re-raised when it raises anything else)."""
    try:
        fn()
    except error as exc:
        if text not in str(exc):
            raise
        return exc
    raise AssertionError(f"{what}: expected {error.__name__}({text!r}) to reach the caller, got no error")


def _is_number(value) -> bool:
    from ..tensor import Tensor

    return isinstance(value, (int, float, np.number, np.ndarray, Tensor)) and not isinstance(value, (bool, np.bool_))


def expect_prediction(got, want, what: str, rtol: float = 1e-6, atol: float = 1e-9) -> None:
    """The learner predicted ``got`` for what the recorded run shows as ``want``; the message never shows ``want``.

    Numbers are compared to the tolerances (a scalar is said to be too high or too low; an array
    names its first differing element); sequences name their first differing entry.
    """
    if want is None or got is None:
        if got is not want:
            raise AssertionError(f"{what}: you predicted {show(got)}; the run shows something else")
        return
    if isinstance(want, (list, tuple)) and isinstance(got, np.ndarray):
        got = got.tolist()
    if _is_number(want) and not isinstance(got, (str, bool, type(None))):
        g, w = _numbers(got, what), _numbers(want, what)
        if g.shape != w.shape:
            raise AssertionError(f"{what}: the run's value has shape {list(w.shape)}; yours has shape {list(g.shape)}")
        close = np.isclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        if close.all():
            return
        if g.ndim == 0:
            side = "too high" if g > w else "too low" if g < w else "not it"
            raise AssertionError(f"{what}: you predicted {show(got)}, which is {side}")
        first = tuple(int(i) for i in np.argwhere(~close)[0])
        at = first[0] if len(first) == 1 else list(first)
        raise AssertionError(f"{what}: your entry {at} ({show(g[first])}) is not what the run shows")
    if isinstance(want, (list, tuple)) and isinstance(got, (list, tuple)):
        if len(got) != len(want):
            raise AssertionError(f"{what}: the run has {len(want)} entries; you gave {len(got)}")
        for k, (g, w) in enumerate(zip(got, want)):
            try:
                expect_prediction(g, w, what, rtol, atol)
            except AssertionError:
                raise AssertionError(f"{what}: your entry {k} ({show(g)}) is not what the run shows") from None
        return
    if isinstance(want, dict) and isinstance(got, dict):
        if set(got) != set(want):
            raise AssertionError(f"{what}: the run has the keys {sorted(want)}; you gave {sorted(got)}")
        for key in want:
            expect_prediction(got[key], want[key], f"{what}, {key!r}", rtol, atol)
        return
    if got != want:
        raise AssertionError(f"{what}: you predicted {show(got)}; the run shows something else")


def expect_gradcheck(fn, inputs: tuple, what: str, names: tuple = (), second_order: bool = False) -> None:
    """``gradcheck`` (or ``gradgradcheck`` with ``second_order``) of ``fn`` at ``inputs`` must pass. A failure
    says which input and element disagree with finite differences and the two numbers, in one line, with the
    inputs by ``names`` where given (not the two whole Jacobians)."""
    try:
        (gradgradcheck if second_order else gradcheck)(fn, inputs)
    except GradcheckError as exc:
        first = str(exc).split("\nNumerical Jacobian")[0].replace("\n", " ")
        for k, name in enumerate(names):
            first = first.replace(f"input {k},", f"input {k} ({name}),")
        order = "second derivatives" if second_order else "backward"
        raise AssertionError(f"{what}: your {order} disagrees with finite differences\n      {first}") from None
