"""Arithmetic with broadcasting: + - * / ** neg abs, reflected and in-place forms.

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

from .. import backend as B
from ..tensor import Tensor, _check_inplace, make, shape_str
from ._util import as_tensor, binary_arrays, scalar_array

__all__ = ["add", "sub", "mul", "div", "pow", "neg", "abs"]

_SCALARS = (int, float, bool)
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}  # bool < integer < floating, for in-place cast checks


def _broadcast_error(a: Tensor, b: Tensor) -> RuntimeError:
    sa, sb = a.data.shape, b.data.shape
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
    """``b`` as a Tensor or a Python scalar; NumPy/CuPy arrays and lists become tensors."""
    if isinstance(b, (Tensor, int, float)):
        return b
    return as_tensor(b, a)


def _arrays(a: Tensor, b: Tensor, op: str):
    """Both operands' arrays, promoted; the common case (same dtype and device) without a call."""
    ad, bd = a.data, b.data
    if ad.dtype is not bd.dtype or a._device is not b._device:
        return binary_arrays(a, b, op)
    return ad, bd


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
    """Forward-mode rule of ``a + c`` and ``a - c`` for a constant ``c``: the tangent passes unchanged."""
    return t


def _pass_through(g):
    """Backward of ``a + c`` and ``a - c`` for a constant ``c``: the gradient passes unchanged.

    One shared function, not a closure per op: it captures nothing, and on a long chain of
    scalar ops every object saved per node is work for the cyclic garbage collector.
    """
    return (g,)


def add(a, b, alpha=1) -> Tensor:
    """``a + alpha * b`` with broadcasting."""
    if not isinstance(a, Tensor):
        return add(as_tensor(a, b), b, alpha)
    if not isinstance(b, Tensor) and type(b) is not float and type(b) is not int:
        b = _other(a, b)
    if alpha != 1:
        b = b * alpha
    if isinstance(b, Tensor):
        ad, bd = _arrays(a, b, "add")
        try:
            out = ad + bd
        except ValueError:
            raise _broadcast_error(a, b) from None
        return make(out, (a, b), _add_backward, "add", _add_jvp)
    ad = a.data if a.data.dtype.kind == "f" else scalar_array(a, b)
    return make(ad + b, (a,), _pass_through, "add", _same_jvp)


def sub(a, b, alpha=1) -> Tensor:
    """``a - alpha * b`` with broadcasting."""
    if not isinstance(a, Tensor):
        return rsub(b, a)
    if not isinstance(b, Tensor) and type(b) is not float and type(b) is not int:
        b = _other(a, b)
    if alpha != 1:
        b = b * alpha
    if isinstance(b, Tensor):
        ad, bd = _arrays(a, b, "sub")
        try:
            out = ad - bd
        except ValueError:
            raise _broadcast_error(a, b) from None
        return make(out, (a, b), _sub_backward, "sub", _sub_jvp)
    ad = a.data if a.data.dtype.kind == "f" else scalar_array(a, b)
    return make(ad - b, (a,), _pass_through, "sub", _same_jvp)


def rsub(a: Tensor, s) -> Tensor:
    """``s - a`` for a Python scalar (or array) ``s``."""
    if type(s) is not float and type(s) is not int:
        s = _other(a, s)
        if isinstance(s, Tensor):
            return sub(s, a)
    ad = a.data if a.data.dtype.kind == "f" else scalar_array(a, s)
    return make(s - ad, (a,), _neg_backward, "rsub", _neg_jvp)


def mul(a, b) -> Tensor:
    """Elementwise product with broadcasting."""
    if not isinstance(a, Tensor):
        return mul(b, a)
    if not isinstance(b, Tensor) and type(b) is not float and type(b) is not int:
        b = _other(a, b)
    if isinstance(b, Tensor):
        ad, bd = _arrays(a, b, "mul")
        try:
            out = ad * bd
        except ValueError:
            raise _broadcast_error(a, b) from None

        def backward(g):
            return lambda: g * b, lambda: g * a

        def jvp(ta, tb):
            return ta * b + a * tb

        return make(out, (a, b), backward, "mul", jvp)

    def backward_scalar(g):
        return (g * b,)

    def jvp_scalar(t):
        return t * b

    ad = a.data if a.data.dtype.kind == "f" else scalar_array(a, b)
    return make(ad * b, (a,), backward_scalar, "mul", jvp_scalar)


def div(a, b, rounding_mode=None) -> Tensor:
    """True division with broadcasting (integers divide to the default float dtype)."""
    if rounding_mode is not None:
        from .elementwise import floor_divide

        if rounding_mode == "floor":
            return floor_divide(a, b)
        raise ValueError(f"div expected rounding_mode to be one of None or 'floor', but found '{rounding_mode}'")
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

        def backward(g):
            return lambda: g / b, lambda: -g * a / (b * b)

        def jvp(ta, tb):
            return ta / b - tb * a / (b * b)

        return make(out, (a, b), backward, "div", jvp)

    ad = a.data if a.data.dtype.kind == "f" else a.data.astype(B.get_default_dtype())

    def backward_scalar(g):
        return (g / b,)

    def jvp_scalar(t):
        return t / b

    return make(ad / b, (a,), backward_scalar, "div", jvp_scalar)


def rdiv(a: Tensor, s) -> Tensor:
    """``s / a`` for a Python scalar ``s``."""
    s = _other(a, s)
    if isinstance(s, Tensor):
        return div(s, a)
    ad = a.data if a.data.dtype.kind == "f" else a.data.astype(B.get_default_dtype())

    def backward(g):
        return (-g * s / (a * a),)

    def jvp(t):
        return -t * s / (a * a)

    return make(s / ad, (a,), backward, "rdiv", jvp)


def pow(a, b) -> Tensor:
    """``a ** b`` for tensor or scalar exponents (and scalar bases)."""
    if not isinstance(a, Tensor):
        return rpow(b, a)
    b = _other(a, b)
    if isinstance(b, Tensor):
        ad, bd = binary_arrays(a, b, "pow")
        try:
            out = ad**bd
        except ValueError:
            raise _broadcast_error(a, b) from None

        def backward(g):
            return lambda: g * b * a ** (b - 1), lambda: g * a**b * a.log()

        def jvp(ta, tb):
            return ta * b * a ** (b - 1) + tb * a**b * a.log()

        return make(out, (a, b), backward, "pow", jvp)

    def backward_scalar(g):
        if b == 0:
            return (g * 0,)
        return (g * b * a ** (b - 1),)

    def jvp_scalar(t):
        if b == 0:
            return t * 0
        return t * b * a ** (b - 1)

    return make(scalar_array(a, b) ** b, (a,), backward_scalar, "pow", jvp_scalar)


def rpow(a: Tensor, s) -> Tensor:
    """``s ** a`` for a Python scalar base ``s``."""
    s = _other(a, s)
    if isinstance(s, Tensor):
        return pow(s, a)
    ad = scalar_array(a, s)

    def backward(g):
        return (g * (s**a) * math.log(s),)

    def jvp(t):
        return t * (s**a) * math.log(s)

    return make(s**ad, (a,), backward, "rpow", jvp)


def neg(a: Tensor) -> Tensor:
    """``-a``."""
    if a.data.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )

    return make(-a.data, (a,), _neg_backward, "neg", _neg_jvp)


def abs(a: Tensor) -> Tensor:
    """Elementwise absolute value (gradient sign(a), 0 at 0)."""

    def backward(g):
        return (g * a.sign(),)

    def jvp(t):
        return t * a.sign()

    return make(a._device.xp.abs(a.data), (a,), backward, "abs", jvp)


# ---------------------------------------------------------------- in place
def _inplace(op):
    def method(self, other):
        _check_inplace(self)
        result = op(self, other)
        if (
            result.data.dtype != self.data.dtype
            and _KIND_RANK[result.data.dtype.kind] > _KIND_RANK[self.data.dtype.kind]
        ):
            raise RuntimeError(
                f"result type {result.data.dtype} can't be cast to the desired output type {self.data.dtype}"
            )
        if result.data.shape != self.data.shape:
            raise RuntimeError(
                f"output with shape {shape_str(self.data.shape)} doesn't match the broadcast shape "
                f"{shape_str(result.data.shape)}"
            )
        self.data[...] = result.data
        return self

    method.__name__ = op.__name__ + "_"
    method.__doc__ = f"In-place {op.__name__} (tensors that do not require grad, or under no_grad)."
    return method


def _bind() -> None:
    T = Tensor
    T.__add__ = T.add = add
    T.__radd__ = lambda self, other: add(self, other)
    T.__sub__ = T.sub = sub
    T.__rsub__ = rsub
    T.__mul__ = T.mul = mul
    T.__rmul__ = lambda self, other: mul(self, other)
    T.__truediv__ = T.div = T.divide = div
    T.__rtruediv__ = rdiv
    T.__pow__ = T.pow = pow
    T.__rpow__ = rpow
    T.__neg__ = T.neg = neg
    T.__abs__ = T.abs = abs
    T.__iadd__ = T.add_ = _inplace(add)
    T.__isub__ = T.sub_ = _inplace(sub)
    T.__imul__ = T.mul_ = _inplace(mul)
    T.__itruediv__ = T.div_ = _inplace(div)
    T.__ipow__ = T.pow_ = _inplace(pow)


_bind()
