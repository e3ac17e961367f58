"""Arithmetic with broadcasting: + - * / ** neg abs and the reflected forms (in-place ones: ``inplace``).

Each op computes its result and defines its backward closure right beside it.
A closure maps the incoming gradient ``g`` to one gradient per tensor parent and
is written with Tensor ops, so create_graph gives real higher-order derivatives.
Python scalars are constants, not parents.
"""

from __future__ import annotations

from .. import _state
from .. import backend as B
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import as_tensor, binary_arrays, scalar_array, unbroadcast

__all__ = ["add", "sub", "mul", "div", "pow", "neg", "abs"]

_SCALARS = (int, float, bool)

# The closures of add, sub, rsub, mul and neg check grad mode: under create_graph it is on and they
# use Tensor ops, so the gradient is itself differentiable; in a plain backward pass it is off and
# they compute the same values on the raw (already promoted) arrays, skipping the tensor ops' overhead.
_grad_mode = _state.grad


def _sum_to(g: Tensor, shape: tuple) -> Tensor:
    """``unbroadcast`` for the plain-backward fast path: the same sums, on the raw array."""
    d = g.data
    if d.shape == shape:
        return g
    lead = d.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, n in enumerate(shape) if n == 1 and d.shape[lead + i] != 1)
    return make_leaf(d.sum(axis=axes, keepdims=True).reshape(shape), g._device)


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
    b = _other(a, b)
    if alpha != 1:
        b = b * alpha
    if isinstance(b, Tensor):
        ad, bd = binary_arrays(a, b, "add")
        try:
            out = ad + bd
        except ValueError:
            raise _broadcast_error(a, b) from None

        def backward(g):
            if _grad_mode.enabled:
                return unbroadcast(g, a.data.shape), unbroadcast(g, b.data.shape)
            return _sum_to(g, a.data.shape), _sum_to(g, b.data.shape)

        return make(out, (a, b), backward, "add")

    return make(scalar_array(a, b) + b, (a,), _pass_through, "add")


def sub(a, b, alpha=1) -> Tensor:
    """``a - alpha * b`` with broadcasting."""
    if not isinstance(a, Tensor):
        return rsub(b, a)
    b = _other(a, b)
    if alpha != 1:
        b = b * alpha
    if isinstance(b, Tensor):
        ad, bd = binary_arrays(a, b, "sub")
        try:
            out = ad - bd
        except ValueError:
            raise _broadcast_error(a, b) from None

        def backward(g):
            if _grad_mode.enabled:
                return unbroadcast(g, a.data.shape), unbroadcast(-g, b.data.shape)
            return _sum_to(g, a.data.shape), _sum_to(make_leaf(-g.data, g._device), b.data.shape)

        return make(out, (a, b), backward, "sub")

    return make(scalar_array(a, b) - b, (a,), _pass_through, "sub")


def rsub(a: Tensor, s) -> Tensor:
    """``s - a`` for a Python scalar (or array) ``s``."""
    s = _other(a, s)
    if isinstance(s, Tensor):
        return sub(s, a)

    def backward(g):
        if _grad_mode.enabled:
            return (-g,)
        return (make_leaf(-g.data, g._device),)

    return make(s - scalar_array(a, s), (a,), backward, "rsub")


def mul(a, b) -> Tensor:
    """Elementwise product with broadcasting."""
    if not isinstance(a, Tensor):
        return mul(b, a)
    b = _other(a, b)
    if isinstance(b, Tensor):
        ad, bd = binary_arrays(a, b, "mul")
        try:
            out = ad * bd
        except ValueError:
            raise _broadcast_error(a, b) from None

        def backward(g):
            if _grad_mode.enabled:
                return (
                    unbroadcast(g * b, a.data.shape) if a._rg else None,
                    unbroadcast(g * a, b.data.shape) if b._rg else None,
                )
            gd, dev = g.data, g._device
            return (
                unbroadcast(make_leaf(gd * bd, dev), ad.shape) if a._rg else None,
                unbroadcast(make_leaf(gd * ad, dev), bd.shape) if b._rg else None,
            )

        return make(out, (a, b), backward, "mul")

    def backward_scalar(g):
        if _grad_mode.enabled:
            return (g * b,)
        return (make_leaf(g.data * b, g._device),)

    return make(scalar_array(a, b) * b, (a,), backward_scalar, "mul")


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
            return (
                unbroadcast(g / b, a.data.shape) if a._rg else None,
                unbroadcast(-g * a / (b * b), b.data.shape) if b._rg else None,
            )

        return make(out, (a, b), backward, "div")

    ad = a.data if a.data.dtype.kind == "f" else a.data.astype(B.get_default_dtype())

    def backward_scalar(g):
        return (g / b,)

    return make(ad / b, (a,), backward_scalar, "div")


def rdiv(a: Tensor, s) -> Tensor:
    """``s / a`` for a Python scalar ``s``."""
    s = _other(a, s)
    if isinstance(s, Tensor):
        return div(s, a)
    ad = a.data if a.data.dtype.kind == "f" else a.data.astype(B.get_default_dtype())

    def backward(g):
        return (-g * s / (a * a),)

    return make(s / ad, (a,), backward, "rdiv")


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
            ga = gb = None
            if a._rg:
                ga = unbroadcast(g * b * a ** (b - 1), a.data.shape)
            if b._rg:
                gb = unbroadcast(g * (a**b) * a.log(), b.data.shape)
            return ga, gb

        return make(out, (a, b), backward, "pow")

    def backward_scalar(g):
        if b == 0:
            return (g * 0,)
        return (g * b * a ** (b - 1),)

    return make(scalar_array(a, b) ** b, (a,), backward_scalar, "pow")


def rpow(a: Tensor, s) -> Tensor:
    """``s ** a`` for a Python scalar base ``s``."""
    s = _other(a, s)
    if isinstance(s, Tensor):
        return pow(s, a)
    ad = scalar_array(a, s)
    import math

    def backward(g):
        return (g * (s**a) * math.log(s),)

    return make(s**ad, (a,), backward, "rpow")


def neg(a: Tensor) -> Tensor:
    """``-a``."""
    if a.data.dtype.kind == "b":
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )

    def backward(g):
        if _grad_mode.enabled:
            return (-g,)
        return (make_leaf(-g.data, g._device),)

    return make(-a.data, (a,), backward, "neg")


def abs(a: Tensor) -> Tensor:
    """Elementwise absolute value (gradient sign(a), 0 at 0)."""

    def backward(g):
        return (g * a.sign(),)

    return make(a._device.xp.abs(a.data), (a,), backward, "abs")


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


_bind()
