"""Remainders: ``remainder`` (``a % b``, the sign of the divisor, as Python and PyTorch) and ``fmod``
(C's, the sign of the dividend), with broadcasting and type promotion.

Both are ``a - q * b`` for a quotient ``q`` rounded to an integer (down for ``remainder``, toward zero
for ``fmod``), a constant almost everywhere: so ``d/da = 1`` and ``d/db = -q``, PyTorch's derivatives.
Integer remainders by zero raise PyTorch's ``ZeroDivisionError``.
"""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import as_tensor, binary_arrays

__all__ = ["remainder", "fmod"]


def remainder(a, b) -> Tensor:
    """``a % b`` elementwise, with the sign of ``b`` (``-3 % 2 == 1``), as Python's ``%`` and PyTorch's."""
    return _remainder_by(a, b, "remainder")


def fmod(a, b) -> Tensor:
    """C's ``fmod`` elementwise: the remainder with the sign of ``a`` (``fmod(-3, 2) == -1``)."""
    return _remainder_by(a, b, "fmod")


def _remainder_by(a, b, op: str) -> Tensor:
    if not isinstance(a, Tensor):
        a = as_tensor(a, b)
    b = as_tensor(b, a)
    ad, bd = binary_arrays(a, b, op)
    xp = a._device.xp
    if ad.dtype.kind in "iub" and bool((bd == 0).any()):
        raise RuntimeError("ZeroDivisionError")
    if ad.dtype.kind == "b":
        ad, bd = ad.astype(B.int64), bd.astype(B.int64)
    try:
        with B.quiet(xp):  # a float remainder by zero is nan, as PyTorch's, without NumPy's warning
            out = xp.remainder(ad, bd) if op == "remainder" else xp.fmod(ad, bd)
    except ValueError:
        raise RuntimeError(
            f"{op}: shapes {shape_str(a.data.shape)} and {shape_str(b.data.shape)} cannot be broadcast together"
        ) from None
    if out.dtype.kind != "f":
        return make_leaf(out, a._device)
    with B.quiet(xp):
        quotient = xp.floor(ad / bd) if op == "remainder" else xp.trunc(ad / bd)
    q = make_leaf(quotient, a._device)  # the rounded quotient: a constant, so only a and b carry gradients

    def backward(g):
        return lambda: g, lambda: -g * q

    def jvp(ta, tb):
        return ta - tb * q

    return make(out, (a, b), backward, op, jvp)


def _bind() -> None:
    Tensor.remainder = remainder
    Tensor.fmod = fmod
    Tensor.__mod__ = remainder
    Tensor.__rmod__ = lambda self, other: remainder(other, self)


_bind()
