"""Rounded division and remainders, with broadcasting and type promotion: ``floor_divide`` (``//``),
``div``'s ``rounding_mode="trunc"``, ``remainder`` (``%``, the sign of the divisor, as Python and
PyTorch) and ``fmod`` (C's, the sign of the dividend).

A rounded quotient is a constant almost everywhere, so it carries no gradient, as in PyTorch. A
remainder is ``a - q * b`` for that quotient ``q`` (rounded down for ``remainder``, toward zero for
``fmod``): ``d/da = 1`` and ``d/db = -q``, PyTorch's derivatives. Integer division or remainder by
zero raises PyTorch's ``ZeroDivisionError``; a float one gives inf or nan, silently, as PyTorch's.
"""

from __future__ import annotations

import contextlib

from .. import backend as B
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import as_tensor, binary_arrays
from .declare import BROADCASTING, bind_methods, op, rules_saving
from .types import Number

__all__ = ["floor_divide", "remainder", "fmod"]


@op(batch=BROADCASTING, methods=("floor_divide", "__floordiv__"))
def floor_divide(a: Tensor, b: Tensor | Number) -> Tensor:
    """Division rounded down (``a // b``); not differentiable (the result is a constant)."""
    a, b, ad, bd, xp = _operands(a, b, "floor_divide")
    with _named_failure(a, b, "floor_divide"), B.quiet(xp):
        return make_leaf(xp.floor_divide(ad, bd), a.device)


def trunc_divide(a, b) -> Tensor:
    """Division rounded toward zero (``div(a, b, rounding_mode="trunc")``); not differentiable."""
    a, b, ad, bd, xp = _operands(a, b, "div")
    with _named_failure(a, b, "div"), B.quiet(xp):
        if ad.dtype.kind == "f":
            return make_leaf(xp.trunc(ad / bd), a.device)
        down = xp.floor_divide(ad, bd)  # an integer quotient rounded down: one up where negative and inexact
        return make_leaf(down + ((down < 0) & (down * bd != ad)), a.device)


@op(batch=BROADCASTING, methods=("remainder", "__mod__"))
def remainder(a: Tensor, b: Tensor | Number) -> Tensor:
    """``a % b`` elementwise, with the sign of ``b`` (``-3 % 2 == 1``), as Python's ``%`` and PyTorch's."""
    return _remainder_by(a, b, "remainder")


@op(batch=BROADCASTING, methods="fmod")
def fmod(a: Tensor, b: Tensor | Number) -> Tensor:
    """C's ``fmod`` elementwise: the remainder with the sign of ``a`` (``fmod(-3, 2) == -1``)."""
    return _remainder_by(a, b, "fmod")


def _operands(a, b, op: str) -> tuple:
    """Both operands as tensors, their promoted arrays (bools as int64) and their array module."""
    if not isinstance(a, Tensor):
        a = as_tensor(a, b)
    b = as_tensor(b, a)
    ad, bd = binary_arrays(a, b, op)
    if ad.dtype.kind in "iub" and bool((bd == 0).any()):
        raise RuntimeError("ZeroDivisionError")
    if ad.dtype.kind == "b":
        ad, bd = ad.astype(B.int64), bd.astype(B.int64)
    return a, b, ad, bd, a.device.xp


@contextlib.contextmanager
def _named_failure(a: Tensor, b: Tensor, op: str):
    """NumPy's broadcasting ValueError as PyTorch's RuntimeError, naming the op and both shapes."""
    try:
        yield
    except ValueError:
        raise RuntimeError(
            f"{op}: shapes {shape_str(a.shape)} and {shape_str(b.shape)} cannot be broadcast together"
        ) from None


@rules_saving(("q",))
def _remainder_by(a, b, op: str) -> Tensor:
    a, b, ad, bd, xp = _operands(a, b, op)
    with _named_failure(a, b, op), B.quiet(xp):  # a float remainder by zero is nan, without NumPy's warning
        out = xp.remainder(ad, bd) if op == "remainder" else xp.fmod(ad, bd)
        if out.dtype.kind != "f":
            return make_leaf(out, a.device)
        quotient = xp.floor(ad / bd) if op == "remainder" else xp.trunc(ad / bd)
    q = make_leaf(quotient, a.device)  # the rounded quotient: a constant, so only a and b carry gradients

    def backward(g):
        return lambda: g, lambda: -g * q

    def jvp(ta, tb):
        return ta - tb * q

    return make(out, (a, b), backward, op, jvp)


@op(batch=BROADCASTING, methods="__rfloordiv__")
def rfloor_divide(a: Tensor, other) -> Tensor:
    """``other // a``, the reflected ``//`` (``7 // x``)."""
    return floor_divide(other, a)


@op(batch=BROADCASTING, methods="__rmod__")
def rremainder(a: Tensor, other) -> Tensor:
    """``other % a``, the reflected ``%`` (``7 % x``)."""
    return remainder(other, a)


bind_methods(Tensor, __name__)
