"""Elementwise math and activations, each forward beside its backward closure."""

from __future__ import annotations

import weakref

from ..tensor import Tensor, make, make_leaf

__all__ = ["exp", "log", "sqrt", "tanh", "sigmoid", "relu", "sign"]


def _float_data(a: Tensor):
    """``a``'s array, cast to the default float dtype when it is integer or bool (as torch does)."""
    d = a.data
    if d.dtype.kind == "f":
        return d
    from .. import backend as B

    return d.astype(B.get_default_dtype())


def exp(a: Tensor) -> Tensor:
    """Elementwise e**a."""

    def backward(g):
        return (g * out_ref(),)

    out = make(a._device.xp.exp(_float_data(a)), (a,), backward, "exp")
    out_ref = weakref.ref(out)  # the output, without the reference cycle out -> closure -> out
    return out


def log(a: Tensor) -> Tensor:
    """Natural logarithm."""

    def backward(g):
        return (g / a,)

    return make(a._device.xp.log(_float_data(a)), (a,), backward, "log")


def sqrt(a: Tensor) -> Tensor:
    """Square root."""

    def backward(g):
        return (g / (2 * out_ref()),)

    out = make(a._device.xp.sqrt(_float_data(a)), (a,), backward, "sqrt")
    out_ref = weakref.ref(out)
    return out


def tanh(a: Tensor) -> Tensor:
    """Hyperbolic tangent; backward uses the output: g * (1 - tanh(a)**2)."""

    def backward(g):
        y = out_ref()
        return (g * (1 - y * y),)

    out = make(a._device.xp.tanh(_float_data(a)), (a,), backward, "tanh")
    out_ref = weakref.ref(out)
    return out


def sigmoid(a: Tensor) -> Tensor:
    """Logistic sigmoid 1 / (1 + e**-a), computed stably; backward g * s * (1 - s)."""
    xp = a._device.xp
    d = _float_data(a)
    e = xp.exp(-xp.abs(d))
    s = xp.where(d >= 0, 1 / (1 + e), e / (1 + e))

    def backward(g):
        y = out_ref()
        return (g * y * (1 - y),)

    out = make(s, (a,), backward, "sigmoid")
    out_ref = weakref.ref(out)
    return out


def relu(a: Tensor) -> Tensor:
    """max(a, 0); the gradient at 0 is 0, as in PyTorch."""
    d = a.data

    def backward(g):
        return (g * make_leaf(d > 0, a._device),)

    return make(d * (d > 0), (a,), backward, "relu")


def sign(a: Tensor) -> Tensor:
    """-1, 0 or 1 elementwise (zero gradient everywhere)."""

    def backward(g):
        return (g * 0,)

    return make(a._device.xp.sign(a.data), (a,), backward, "sign")


def _bind() -> None:
    for fn in (exp, log, sqrt, tanh, sigmoid, relu, sign):
        setattr(Tensor, fn.__name__, fn)


_bind()
