"""Comparisons, logical and bitwise ops, and value tests (isnan, allclose, ...).

None of these is differentiable: each returns a bool (or integer) tensor that is
a constant leaf, outside the graph, as in PyTorch.
"""

from __future__ import annotations

import operator

from .. import backend as B
from ..tensor import Tensor, make_leaf, shape_str
from ._util import as_tensor, binary_arrays
from .declare import BROADCASTING, LOOP, bind_methods, op
from .types import Number

__all__ = [
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "logical_and",
    "logical_or",
    "logical_xor",
    "logical_not",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_not",
    "bitwise_left_shift",
    "bitwise_right_shift",
    "isnan",
    "isinf",
    "isfinite",
    "isclose",
    "allclose",
    "equal",
]

_OPERAND_TYPES = (Tensor, int, float, bool)


def _pair(a, b, op: str):
    """Both operands' arrays, promoted as PyTorch does, and the tensor that fixes the device."""
    if (type(b) is float or type(b) is int) and isinstance(a, Tensor) and a.array.dtype.kind == "f":
        return a.array, b, a  # a float tensor and a Python number: NumPy's promotion is PyTorch's
    if not isinstance(a, Tensor):
        a = as_tensor(a, b)
    b = as_tensor(b, a)
    ad, bd = binary_arrays(a, b, op)
    return ad, bd, a


def _apply(fn, a, b, op: str) -> Tensor:
    ad, bd, like = _pair(a, b, op)
    try:
        out = fn(ad, bd)
    except ValueError:
        sa = shape_str(a.shape if isinstance(a, Tensor) else ())
        sb = shape_str(b.shape if isinstance(b, Tensor) else ())
        raise RuntimeError(f"{op}: shapes {sa} and {sb} cannot be broadcast together") from None
    return make_leaf(out, like.device)


# ---------------------------------------------------------------- comparisons
@op(batch=BROADCASTING, methods="eq")
def eq(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise ``a == b`` as a bool tensor (broadcast; scalars allowed)."""
    return _apply(lambda x, y: x == y, a, b, "eq")


@op(batch=BROADCASTING, methods=("ne", "not_equal"))
def ne(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise ``a != b`` as a bool tensor."""
    return _apply(lambda x, y: x != y, a, b, "ne")


@op(batch=BROADCASTING, methods=("lt", "less"))
def lt(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise ``a < b`` as a bool tensor."""
    return _apply(lambda x, y: x < y, a, b, "lt")


@op(batch=BROADCASTING, methods=("le", "less_equal"))
def le(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise ``a <= b`` as a bool tensor."""
    return _apply(lambda x, y: x <= y, a, b, "le")


@op(batch=BROADCASTING, methods=("gt", "greater"))
def gt(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise ``a > b`` as a bool tensor."""
    return _apply(lambda x, y: x > y, a, b, "gt")


@op(batch=BROADCASTING, methods=("ge", "greater_equal"))
def ge(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise ``a >= b`` as a bool tensor."""
    return _apply(lambda x, y: x >= y, a, b, "ge")


# ---------------------------------------------------------------- logical (any dtype: nonzero is True)
@op(batch=BROADCASTING, methods="logical_and")
def logical_and(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise AND of the operands' truth values (nonzero is True)."""
    return _apply(_xp_of(a, b).logical_and, a, b, "logical_and")


@op(batch=BROADCASTING, methods="logical_or")
def logical_or(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise OR of the operands' truth values."""
    return _apply(_xp_of(a, b).logical_or, a, b, "logical_or")


@op(batch=BROADCASTING, methods="logical_xor")
def logical_xor(a: Tensor, b: Tensor | Number) -> Tensor:
    """Elementwise XOR of the operands' truth values."""
    return _apply(_xp_of(a, b).logical_xor, a, b, "logical_xor")


@op(batch=BROADCASTING, methods="logical_not")
def logical_not(a: Tensor) -> Tensor:
    """Elementwise NOT of ``a``'s truth values (a bool tensor)."""
    return make_leaf(a.device.xp.logical_not(a.array), a.device)


def _device_of(a, b):
    return (a if isinstance(a, Tensor) else b).device


def _xp_of(a, b):
    return _device_of(a, b).xp


# ---------------------------------------------------------------- bitwise (integer and bool only)
def _check_integral(op: str, symbol: str, *operands) -> None:
    for x in operands:
        kind = x.array.dtype.kind if isinstance(x, Tensor) else ("f" if isinstance(x, float) else "i")
        if kind == "f":
            raise TypeError(f"{symbol} ({op}) is only implemented on integer and Boolean-type tensors")


@op(batch=BROADCASTING, methods=("bitwise_and", "__and__"))
def bitwise_and(a: Tensor, b: Tensor | Number) -> Tensor:
    """``a & b`` for integer and bool tensors (on bool masks: logical AND)."""
    _check_integral("operator.and_", "&", a, b)
    return _apply(_xp_of(a, b).bitwise_and, a, b, "bitwise_and")


@op(batch=BROADCASTING, methods=("bitwise_or", "__or__"))
def bitwise_or(a: Tensor, b: Tensor | Number) -> Tensor:
    """``a | b`` for integer and bool tensors."""
    _check_integral("operator.or_", "|", a, b)
    return _apply(_xp_of(a, b).bitwise_or, a, b, "bitwise_or")


@op(batch=BROADCASTING, methods=("bitwise_xor", "__xor__"))
def bitwise_xor(a: Tensor, b: Tensor | Number) -> Tensor:
    """``a ^ b`` for integer and bool tensors."""
    _check_integral("operator.xor", "^", a, b)
    return _apply(_xp_of(a, b).bitwise_xor, a, b, "bitwise_xor")


@op(batch=BROADCASTING, methods=("bitwise_left_shift", "__lshift__"))
def bitwise_left_shift(a: Tensor, b: Tensor | Number) -> Tensor:
    """``a << b`` for integer tensors, as PyTorch: a shift by the type's width or more, or by a negative
    amount, gives 0."""
    return _apply(lambda x, y: _shifted(x, y, "lshift", _device_of(a, b)), a, b, "bitwise_left_shift")


@op(batch=BROADCASTING, methods=("bitwise_right_shift", "__rshift__"))
def bitwise_right_shift(a: Tensor, b: Tensor | Number) -> Tensor:
    """``a >> b`` for integer tensors, the sign filling in; a shift by the type's width or more, or by a
    negative amount, gives 0 (or -1 for a negative ``a``), as PyTorch."""
    return _apply(lambda x, y: _shifted(x, y, "rshift", _device_of(a, b)), a, b, "bitwise_right_shift")


def _shifted(x, y, op: str, device):
    if x.dtype.kind not in "iu":
        raise NotImplementedError(f"\"{op}_{device.type}\" not implemented for '{B.scalar_type_name(x.dtype)}'")
    xp = device.xp
    in_width = (y >= 0) & (y < x.dtype.itemsize * 8)  # C leaves other shifts undefined; PyTorch defines them
    by = xp.where(in_width, y, 0).astype(x.dtype)
    if op == "lshift":
        return xp.where(in_width, xp.left_shift(x, by), 0).astype(x.dtype)
    return xp.where(in_width, xp.right_shift(x, by), xp.where(x < 0, -1, 0)).astype(x.dtype)


@op(batch=BROADCASTING, methods=("bitwise_not", "__invert__"))
def bitwise_not(a: Tensor) -> Tensor:
    """``~a``: logical NOT on bool tensors, two's-complement NOT on integer tensors."""
    _check_integral("operator.invert", "~", a)
    return make_leaf(a.device.xp.invert(a.array), a.device)


# ---------------------------------------------------------------- value tests
@op(batch=BROADCASTING, methods="isnan")
def isnan(a: Tensor) -> Tensor:
    """True where ``a`` is NaN."""
    return make_leaf(a.device.xp.isnan(a.array), a.device)


@op(batch=BROADCASTING, methods="isinf")
def isinf(a: Tensor) -> Tensor:
    """True where ``a`` is +inf or -inf."""
    return make_leaf(a.device.xp.isinf(a.array), a.device)


@op(batch=BROADCASTING, methods="isfinite")
def isfinite(a: Tensor) -> Tensor:
    """True where ``a`` is neither NaN nor infinite."""
    return make_leaf(a.device.xp.isfinite(a.array), a.device)


@op(batch=BROADCASTING, methods="isclose")
def isclose(a: Tensor, b: Tensor | Number, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> Tensor:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` as a bool tensor."""
    ad, bd, like = _pair(a, b, "isclose")
    xp = like.device.xp
    try:
        out = xp.isclose(ad, bd, rtol=rtol, atol=atol, equal_nan=equal_nan)
    except ValueError:
        raise RuntimeError(
            f"isclose: shapes {shape_str(xp.shape(ad))} and {shape_str(xp.shape(bd))} cannot be broadcast together"
        ) from None
    return make_leaf(out, like.device)


@op(batch=LOOP, methods="allclose")
def allclose(a: Tensor, b: Tensor | Number, rtol: float = 1e-5, atol: float = 1e-8, equal_nan: bool = False) -> bool:
    """True when every element of ``a`` is close to ``b`` (see ``isclose``); a Python bool."""
    return bool(isclose(a, b, rtol, atol, equal_nan).array.all())


@op(batch=LOOP, methods="equal")
def equal(a: Tensor, b: Tensor) -> bool:
    """True when ``a`` and ``b`` have the same shape and the same elements; a Python bool."""
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        raise TypeError(
            f"equal(): argument 'other' must be Tensor, not {type(b if isinstance(a, Tensor) else a).__name__}"
        )
    if a.array.shape != b.array.shape:
        return False
    ad, bd = binary_arrays(a, b, "equal")
    return bool((ad == bd).all())


# ---------------------------------------------------------------- operators
def _comparison_operator(fn, array_op):
    """The operator ``__<fn>__`` (``x < y``): ``fn``, or NotImplemented for an operand no tensor op takes;
    declared as an op of its own (vmap batches it as it batches ``fn``)."""

    def method(self, other):
        if (type(other) is float or type(other) is int) and self.array.dtype.kind == "f":
            return make_leaf(array_op(self.array, other), self.device)  # _apply's first case, without the calls
        if not isinstance(other, _OPERAND_TYPES) and not _array_like(other):
            return NotImplemented
        return fn(self, other)

    method.__name__ = method.__qualname__ = f"__{fn.__name__}__"
    method.__doc__ = fn.__doc__
    return op(batch=BROADCASTING, methods=method.__name__)(method)


def _array_like(x) -> bool:
    """An array a comparison operator takes (a list or tuple is not: Python's TypeError, as PyTorch)."""
    return hasattr(x, "__array_interface__") or B.is_cupy_array(x)


def _reflected(fn, name: str):
    """The reflected operator ``name`` (``2 & x``): ``fn(other, self)``, declared as an op of its own."""

    def method(self, other):
        if not isinstance(other, _OPERAND_TYPES) and not _array_like(other):
            return NotImplemented
        return fn(other, self)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``{fn.__name__}(other, self)``, the reflected operator."
    return op(batch=BROADCASTING, methods=name)(method)


_OPERATORS = (
    *(_comparison_operator(fn, getattr(operator, fn.__name__)) for fn in (eq, ne, lt, le, gt, ge)),
    _reflected(bitwise_and, "__rand__"),
    _reflected(bitwise_or, "__ror__"),
    _reflected(bitwise_xor, "__rxor__"),
    _reflected(bitwise_left_shift, "__rlshift__"),
    _reflected(bitwise_right_shift, "__rrshift__"),
)

bind_methods(Tensor, __name__)
# Tensor defines __eq__ (above); it stays hashable by identity, as torch's does.
Tensor.__hash__ = object.__hash__
