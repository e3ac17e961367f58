"""More activations: hardtanh, relu6, hardsigmoid, hardswish, mish, softsign, logsigmoid.

Each forward sits beside its one rule. Piecewise rules multiply by a constant mask
(the region where the function is not flat), with PyTorch's choice at the kinks.
"""

from __future__ import annotations

from ..tensor import Tensor, make, make_leaf
from ._util import check_tensor, refuse_dtype
from .declare import BROADCASTING, op
from .elementwise import _float_data

__all__ = ["hardtanh", "relu6", "hardsigmoid", "hardswish", "mish", "softsign", "logsigmoid"]


def _mask(a: Tensor, arr) -> Tensor:
    """A constant 0/1 tensor in ``a``'s float dtype (a rule's mask)."""
    return make_leaf(arr.astype(_float_data(a).dtype), a.device)


def _check_number(x, op: str, arg: str) -> float:
    if not isinstance(x, (int, float)):
        raise TypeError(f"{op}(): argument '{arg}' must be Number, not {type(x).__name__}")
    return x


@op(batch=BROADCASTING, saves=("inside",))
def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    """``input`` clipped to ``[min_val, max_val]``; the gradient passes strictly inside, as in PyTorch."""
    a = check_tensor(input, "hardtanh", "input")
    if a.array.dtype.kind == "b":
        raise RuntimeError("Bool inputs not supported for hardtanh")
    lo, hi = _check_number(min_val, "hardtanh", "min_val"), _check_number(max_val, "hardtanh", "max_val")
    if lo > hi:
        raise ValueError("min_val cannot be greater than max_val")
    d = _float_data(a)
    inside = _mask(a, (d > lo) & (d < hi))

    def backward(g):
        return (g * inside,)

    def jvp(t):
        return t * inside

    return make(a.device.xp.clip(d, lo, hi), (a,), backward, "hardtanh", jvp)


@op(batch=BROADCASTING, saves=("inside",))
def relu6(input: Tensor) -> Tensor:  # noqa: A002
    """min(max(input, 0), 6); the gradient passes where 0 < input < 6."""
    a = check_tensor(input, "relu6", "input")
    d = _float_data(a)
    inside = _mask(a, (d > 0) & (d < 6))

    def backward(g):
        return (g * inside,)

    def jvp(t):
        return t * inside

    return make(a.device.xp.clip(d, 0.0, 6.0), (a,), backward, "relu6", jvp)


@op(batch=BROADCASTING, saves=("inside",))
def hardsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """relu6(input + 3) / 6; the slope is 1/6 where -3 < input < 3."""
    a = check_tensor(input, "hardsigmoid", "input")
    refuse_dtype(a, "hardsigmoid_cpu", "biu")
    d = _float_data(a)
    inside = _mask(a, (d > -3) & (d < 3))

    def backward(g):
        return (g * inside / 6,)

    def jvp(t):
        return t * inside / 6

    return make(a.device.xp.clip(d + 3, 0.0, 6.0) / 6, (a,), backward, "hardsigmoid", jvp)


@op(batch=BROADCASTING, saves=("a", "ramp", "above"))
def hardswish(input: Tensor) -> Tensor:  # noqa: A002
    """input * relu6(input + 3) / 6; the slope is 0 up to -3, input/3 + 1/2 between, then 1 from 3 on
    (at the kinks, PyTorch's one-sided choice: 0 at -3, 1 at 3)."""
    a = check_tensor(input, "hardswish", "input")
    refuse_dtype(a, "hardswish_cpu", "biu")
    d = _float_data(a)
    ramp = _mask(a, (d > -3) & (d < 3))
    above = _mask(a, d >= 3)

    def backward(g):
        return (g * (ramp * (a / 3 + 0.5) + above),)

    def jvp(t):
        return t * (ramp * (a / 3 + 0.5) + above)

    return make(d * a.device.xp.clip(d + 3, 0.0, 6.0) / 6, (a,), backward, "hardswish", jvp)


def _softplus_array(xp, d):
    return xp.log1p(xp.exp(-xp.abs(d))) + xp.maximum(d, 0)


@op(batch=BROADCASTING, saves=("a",))
def mish(input: Tensor) -> Tensor:  # noqa: A002
    """input * tanh(softplus(input)); slope tanh(sp) + input * sigmoid(input) * (1 - tanh(sp)**2)."""
    a = check_tensor(input, "mish", "input")
    refuse_dtype(a, "mish_cpu", "biu")
    xp = a.device.xp
    d = _float_data(a)

    def backward(g):
        t = a.softplus().tanh()
        return (g * (t + a * a.sigmoid() * (1 - t * t)),)

    def jvp(t):
        th = a.softplus().tanh()
        return t * (th + a * a.sigmoid() * (1 - th * th))

    return make(d * xp.tanh(_softplus_array(xp, d)), (a,), backward, "mish", jvp)


@op(batch=BROADCASTING, saves=("a",))
def softsign(input: Tensor) -> Tensor:  # noqa: A002
    """input / (1 + |input|); slope 1 / (1 + |input|)**2."""
    a = check_tensor(input, "softsign", "input")
    refuse_dtype(a, "abs_cpu", "b")
    d = _float_data(a)

    def backward(g):
        denom = a.abs() + 1
        return (g / (denom * denom),)

    def jvp(t):
        return t / ((a.abs() + 1) ** 2)

    return make(d / (1 + a.device.xp.abs(d)), (a,), backward, "softsign", jvp)


@op(batch=BROADCASTING, saves=("a",))
def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    """log(sigmoid(input)) = -softplus(-input), computed stably; slope sigmoid(-input)."""
    a = check_tensor(input, "logsigmoid", "input")
    refuse_dtype(a, "log_sigmoid_cpu", "biu")
    xp = a.device.xp
    d = _float_data(a)

    def backward(g):
        return (g * (-a).sigmoid(),)

    def jvp(t):
        return t * (-a).sigmoid()

    return make(-_softplus_array(xp, -d), (a,), backward, "logsigmoid", jvp)
