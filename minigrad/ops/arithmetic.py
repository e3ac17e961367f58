"""Arithmetic with broadcasting: + - * / ** neg abs and the reflected forms (in-place ones: ``inplace``).

Each op computes its result and defines its backward rule right beside it. A rule
maps the incoming gradient ``g`` to one gradient per tensor parent and is the
mathematics only, written with Tensor ops (so create_graph gives real higher-order
derivatives). The engine does the rest: it skips parents that need no gradient
(a ``lambda:`` entry is only called for a parent that does), sums a broadcast
gradient down to the parent's shape, and accumulates. Python scalars are
constants, not parents.
"""

from __future__ import annotations

import math

import numpy as np

from .. import backend as B
from .._state import extras, grad
from ..tensor import Tensor, make, shape_str
from ._util import as_tensor, binary_arrays, python_number, refuse_dtype, scalar_array
from .declare import BROADCASTING, batches_gradients, bind_methods, op
from .division import floor_divide, trunc_divide
from .elementwise import where
from .types import Number

__all__ = ["add", "sub", "mul", "div", "pow", "neg", "abs"]

_SCALARS = (int, float, bool)
_FLOAT_AND_BOOL = ("fb", "bf")  # a float tensor and a mask, either way round


def _broadcast_error(a: Tensor, b: Tensor) -> RuntimeError:
    sa, sb = a.array.shape, b.array.shape
    n = max(len(sa), len(sb))
    pa, pb = (1,) * (n - len(sa)) + sa, (1,) * (n - len(sb)) + sb
    for i in range(n - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return RuntimeError(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) at "
                f"non-singleton dimension {i - n + len(sa) if i >= n - len(sa) else i} "
                f"(shapes {shape_str(sa)} and {shape_str(sb)})"
            )
    return RuntimeError(f"shapes {shape_str(sa)} and {shape_str(sb)} cannot be broadcast together")


def _other(a: Tensor, b):
    """``b`` as a Tensor or a Python scalar; NumPy/CuPy arrays become tensors; lists and tuples are refused.

    A NumPy scalar counts as the Python number it holds (``python_number``), as in PyTorch.
    """
    b = python_number(b)  # before the test below: np.float64 is a subclass of float
    if isinstance(b, (Tensor, int, float)):
        return b
    if isinstance(b, (list, tuple)):  # PyTorch refuses them too, rather than guess a dtype and a shape
        raise TypeError(
            f"unsupported operand type(s): 'Tensor' and '{type(b).__name__}'; minigrad.tensor(...) makes it a tensor"
        )
    return as_tensor(b, a)


def _arrays(a: Tensor, b: Tensor, op: str):
    """Both operands' arrays, promoted; the common cases without a call or a cast: same dtype, and a
    floating tensor with a bool one (a mask), whose promotion NumPy does inside the operation."""
    ad, bd = a.array, b.array
    if a.device is not b.device:
        return binary_arrays(a, b, op)
    if ad.dtype is not bd.dtype and ad.dtype.kind + bd.dtype.kind not in _FLOAT_AND_BOOL:
        return binary_arrays(a, b, op)
    return ad, bd


#: The size from which a product with a bool mask casts the mask first (below it, the one product is faster).
_MASK_CAST_MIN = 4096


def _is_large_mask_product(ad, bd) -> bool:
    """Whether ``ad * bd`` is a floating array times a bool one of its shape, of at least :data:`_MASK_CAST_MIN`."""
    return ad.dtype.kind + bd.dtype.kind in ("fb", "bf") and ad.shape == bd.shape and ad.size >= _MASK_CAST_MIN


def _times_mask(values, mask):
    """``values * mask`` for a bool ``mask`` of the same shape: the mask cast to the values' dtype, then multiplied
    in place. NumPy casts a bool operand inside the product in buffered chunks, twice as slow as the cast and a
    float product (a ReLU's gradient [64, 64, 24, 24] float32: 1.0 -> 0.6 ms; even at 4 096 values)."""
    out = mask.astype(values.dtype)
    out *= values
    return out


def _add_backward(g):
    """Backward of ``a + b``: both operands get the gradient unchanged (shared: it captures nothing)."""
    return g, g


def _sub_backward(g):
    """Backward of ``a - b``."""
    return g, lambda: -g


def _neg_backward(g):
    """Backward of ``-a`` (and of ``s - a`` for a scalar ``s``)."""
    return (-g,)


def _add_jvp(ta, tb):
    """Forward-mode rule of ``a + b``: the tangents add."""
    return ta + tb


def _sub_jvp(ta, tb):
    """Forward-mode rule of ``a - b``."""
    return ta - tb


def _neg_jvp(t):
    """Forward-mode rule of ``-a`` (and of ``s - a``)."""
    return -t


def _same_jvp(t):
    """Forward-mode rule of ``a + c``, ``a - c`` (constant ``c``), ``contiguous``: the tangent passes unchanged."""
    return t


def _pass_through(g):
    """Backward of ``a + c``, ``a - c`` (constant ``c``), ``contiguous``: the gradient passes unchanged.

    One shared function, not a closure per op: it captures nothing, and on a long chain of
    scalar ops every object saved per node is work for the cyclic garbage collector.
    """
    return (g,)


# declared by a call, not a decorator: the debugger shows a rule's source, decorators included
for _rule in (_add_backward, _sub_backward, _neg_backward, _pass_through):
    batches_gradients(_rule)
del _rule


@op(batch=BROADCASTING, methods=("add", "__add__", "__radd__"))
def add(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
    """``a + alpha * b`` with broadcasting."""
    if not isinstance(a, Tensor):
        return add(as_tensor(a, b), b, alpha)
    if not isinstance(b, Tensor) and type(b) is not float and type(b) is not int:
        b = _other(a, b)
    if alpha != 1:
        b = b * alpha
    if isinstance(b, Tensor):
        ad, bd = (a.array, b.array) if a.array.dtype is b.array.dtype and a.device is b.device else _arrays(a, b, "add")
        try:
            out = ad + bd
        except ValueError:
            raise _broadcast_error(a, b) from None
        return make(out, (a, b), _add_backward, "add", _add_jvp)
    ad = a.array if a.array.dtype.kind == "f" else scalar_array(a, b)
    return make(ad + b, (a,), _pass_through, "add", _same_jvp)


@op(batch=BROADCASTING, methods=("sub", "__sub__"))
def sub(a: Tensor | Number, b: Tensor | Number, alpha: Number = 1) -> Tensor:
    """``a - alpha * b`` with broadcasting."""
    if _is_bool(a) or _is_bool(b):
        raise RuntimeError(
            "Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, "
            "use the `~` or `logical_not()` operator instead."
        )
    if not isinstance(a, Tensor):
        return rsub(b, a)
    if not isinstance(b, Tensor) and type(b) is not float and type(b) is not int:
        b = _other(a, b)
    if alpha != 1:
        b = b * alpha
    if isinstance(b, Tensor):
        ad, bd = (a.array, b.array) if a.array.dtype is b.array.dtype and a.device is b.device else _arrays(a, b, "sub")
        try:
            out = ad - bd
        except ValueError:
            raise _broadcast_error(a, b) from None
        return make(out, (a, b), _sub_backward, "sub", _sub_jvp)
    ad = a.array if a.array.dtype.kind == "f" else scalar_array(a, b)
    return make(ad - b, (a,), _pass_through, "sub", _same_jvp)


def _is_bool(x) -> bool:
    return isinstance(x, bool) or (isinstance(x, Tensor) and x.array.dtype.kind == "b")


@op(batch=BROADCASTING, methods="__rsub__")
def rsub(a: Tensor, s) -> Tensor:
    """``s - a`` for a Python scalar (or array) ``s``."""
    if type(s) is not float and type(s) is not int:
        s = _other(a, s)
        if isinstance(s, Tensor):
            return sub(s, a)
    ad = a.array if a.array.dtype.kind == "f" else scalar_array(a, s)
    return make(s - ad, (a,), _neg_backward, "rsub", _neg_jvp)


@batches_gradients
@op(
    batch=BROADCASTING,
    methods=("mul", "__mul__", "__rmul__"),
    saves={"backward": ("a", "b"), "backward_scalar": ("b",)},
)
def mul(a: Tensor | Number, b: Tensor | Number) -> Tensor:
    """Elementwise product with broadcasting."""
    if not isinstance(a, Tensor):
        return mul(b, a)
    if not isinstance(b, Tensor) and type(b) is not float and type(b) is not int:
        b = _other(a, b)
    if isinstance(b, Tensor):
        ad, bd = (a.array, b.array) if a.array.dtype is b.array.dtype and a.device is b.device else _arrays(a, b, "mul")
        if ad.dtype is not bd.dtype and _is_large_mask_product(ad, bd):
            out = _times_mask(ad, bd) if bd.dtype.kind == "b" else _times_mask(bd, ad)
        else:
            try:
                out = ad * bd
            except ValueError:
                raise _broadcast_error(a, b) from None
        if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
            return make(out, (a, b), None, "mul")

        def backward(g):
            return lambda: g * b, lambda: g * a

        def jvp(ta, tb):
            return ta * b + a * tb

        return make(out, (a, b), backward, "mul", jvp)

    ad = a.array if a.array.dtype.kind == "f" else scalar_array(a, b)
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(ad * b, (a,), None, "mul")

    def backward_scalar(g):
        return (g * b,)

    def jvp_scalar(t):
        return t * b

    return make(ad * b, (a,), backward_scalar, "mul", jvp_scalar)


@batches_gradients
@op(
    batch=BROADCASTING,
    methods=("div", "divide", "__truediv__"),
    saves={"backward": ("a", "b"), "backward_scalar": ("b",)},
)
def div(a: Tensor | Number, b: Tensor | Number, rounding_mode: str | None = None) -> Tensor:
    """True division with broadcasting (integers divide to the default float dtype)."""
    if rounding_mode is not None:
        if rounding_mode == "floor":
            return floor_divide(a, b)
        if rounding_mode == "trunc":
            return trunc_divide(a, b)
        raise ValueError(
            f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'"
        )
    if not isinstance(a, Tensor):
        return rdiv(b, a)
    b = _other(a, b)
    if isinstance(b, Tensor):
        ad, bd = binary_arrays(a, b, "div")
        if ad.dtype.kind != "f":
            ad, bd = ad.astype(B.get_default_dtype()), bd.astype(B.get_default_dtype())
        try:
            out = ad / bd
        except ValueError:
            raise _broadcast_error(a, b) from None
        if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
            return make(out, (a, b), None, "div")

        def backward(g):
            return lambda: g / b, lambda: -g * a / (b * b)

        def jvp(ta, tb):
            return ta / b - tb * a / (b * b)

        return make(out, (a, b), backward, "div", jvp)

    ad = a.array if a.array.dtype.kind == "f" else a.array.astype(B.get_default_dtype())
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(ad / b, (a,), None, "div")

    def backward_scalar(g):
        return (g / b,)

    def jvp_scalar(t):
        return t / b

    return make(ad / b, (a,), backward_scalar, "div", jvp_scalar)


@batches_gradients
@op(batch=BROADCASTING, methods="__rtruediv__", saves=("a", "s"))
def rdiv(a: Tensor, s) -> Tensor:
    """``s / a`` for a Python scalar ``s``."""
    s = _other(a, s)
    if isinstance(s, Tensor):
        return div(s, a)
    ad = a.array if a.array.dtype.kind == "f" else a.array.astype(B.get_default_dtype())

    def backward(g):
        return (-g * s / (a * a),)

    def jvp(t):
        return -t * s / (a * a)

    return make(s / ad, (a,), backward, "rdiv", jvp)


@batches_gradients
@op(
    batch=BROADCASTING,
    methods=("pow", "__pow__"),
    saves={"backward": ("a", "b"), "backward_scalar": ("a", "b")},
)
def pow(a: Tensor | Number, b: Tensor | Number) -> Tensor:
    """``a ** b`` for tensor or scalar exponents (and scalar bases)."""
    if not isinstance(a, Tensor):
        return rpow(b, a)
    _check_power_operands(a, b)
    b = _other(a, b)
    if isinstance(b, Tensor):
        ad, bd = binary_arrays(a, b, "pow")
        if ad.shape != bd.shape:
            _check_broadcast(a, b)
        out = _integer_power(a.device.xp, ad, bd) if bd.dtype.kind in "iu" else ad**bd

        # PyTorch's limits: d/da is 0 where b == 0 and d/db is 0 where a == 0 and b >= 0.
        def backward(g):
            return (
                lambda: where(b == 0, 0.0, g * b * a ** (b - 1)),
                lambda: where((a == 0) & (b >= 0), 0.0, g * a**b * a.log()),
            )

        def jvp(ta, tb):
            da = where(b == 0, 0.0, ta * b * a ** (b - 1))
            return da + where((a == 0) & (b >= 0), 0.0, tb * a**b * a.log())

        return make(out, (a, b), backward, "pow", jvp)

    if b == 0:  # a ** 0 is 1 everywhere (b * a ** -1 would be 0 * inf at a = 0)

        def backward_scalar(g):
            return (g * 0,)

        def jvp_scalar(t):
            return t * 0

    else:

        def backward_scalar(g):
            return (g * b * a ** (b - 1),)

        def jvp_scalar(t):
            return t * b * a ** (b - 1)

    ad = scalar_array(a, b)
    if ad.dtype.kind in "iu" and isinstance(b, int) and b < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return make(ad**b, (a,), backward_scalar, "pow", jvp_scalar)


_POWER_OPERANDS = (Tensor, int, float, np.ndarray, np.number, np.bool_, list, tuple)


def _check_power_operands(base, exponent) -> None:
    """Python's error for ``base ** exponent`` with an operand no tensor op takes (None, str, dict...)."""
    if not isinstance(base, _POWER_OPERANDS) or not isinstance(exponent, _POWER_OPERANDS):
        raise TypeError(
            f"unsupported operand type(s) for ** or pow(): '{type(base).__name__}' and '{type(exponent).__name__}'"
        )


def _check_broadcast(a: Tensor, b: Tensor) -> None:
    try:
        np.broadcast_shapes(a.array.shape, b.array.shape)
    except ValueError:
        raise _broadcast_error(a, b) from None


def _integer_power(xp, ad, bd):
    """``ad ** bd`` for integer exponents as PyTorch computes it: a negative power of an integer
    truncates (1 for a base of 1, +-1 for -1, else 0) where NumPy refuses."""
    negative = bd < 0
    if not bool(negative.any()):
        return ad**bd
    powered = ad ** xp.where(negative, 0, bd)
    minus_one = xp.where(bd % 2 == 0, 1, -1)
    truncated = xp.where(ad == 1, 1, xp.where(ad == -1, minus_one, 0))
    return xp.where(negative, truncated, powered).astype(powered.dtype)


@batches_gradients
@op(batch=BROADCASTING, methods="__rpow__", saves=("a", "s", "log_s"))
def rpow(a: Tensor, s) -> Tensor:
    """``s ** a`` for a Python scalar base ``s``."""
    if not isinstance(a, Tensor):
        raise TypeError(f"pow(): expected a Tensor base or exponent, got {type(s).__name__} and {type(a).__name__}")
    _check_power_operands(s, a)
    s = _other(a, s)
    if isinstance(s, Tensor):
        return pow(s, a)
    ad = scalar_array(a, s)

    log_s = _scalar_log(s)

    if s == 0:  # PyTorch's limit for a zero base: d/da 0**a is 0 where a >= 0

        def backward(g):
            return (where(a >= 0, 0.0, g * (s**a) * log_s),)

        def jvp(t):
            return where(a >= 0, 0.0, t * (s**a) * log_s)

    else:

        def backward(g):
            return (g * (s**a) * log_s,)

        def jvp(t):
            return t * (s**a) * log_s

    xp = a.device.xp
    out = _integer_power(xp, xp.asarray(s, dtype=ad.dtype), ad) if ad.dtype.kind in "iu" else s**ad
    return make(out, (a,), backward, "rpow", jvp)


def _scalar_log(s) -> float:
    """``log(s)`` of a Python scalar as a float tensor op gives it: -inf at 0, nan below."""
    if s > 0:
        return math.log(s)
    return -math.inf if s == 0 else math.nan


@op(batch=BROADCASTING, methods=("neg", "__neg__"))
def neg(a: Tensor) -> Tensor:
    """``-a``."""
    if a.array.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )

    return make(-a.array, (a,), _neg_backward, "neg", _neg_jvp)


@batches_gradients
@op(batch=BROADCASTING, methods=("abs", "__abs__"), saves=("a",))
def abs(a: Tensor) -> Tensor:
    """Elementwise absolute value (gradient sign(a), 0 at 0)."""
    refuse_dtype(a, "abs_cpu", "b")

    def backward(g):
        return (g * a.sign(),)

    def jvp(t):
        return t * a.sign()

    return make(a.device.xp.abs(a.array), (a,), backward, "abs", jvp)


bind_methods(Tensor, __name__)
