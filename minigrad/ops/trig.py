"""Hyperbolic and inverse trigonometric functions, atan2, expm1, logaddexp, lerp.

Each op computes its result and states its derivative once, right beside it, with
Tensor ops. Binary ops broadcast; the engine sums a broadcast gradient back to each
parent's shape. Integer inputs compute in the default float dtype, as in PyTorch.
"""

from __future__ import annotations

import weakref

from .. import backend as B
from ..tensor import Tensor, make
from ._util import binary_arrays, broadcast_shapes, check_tensor
from .declare import BROADCASTING, batches_gradients, bind_methods, op
from .elementwise import _float_data

__all__ = [
    "sinh",
    "cosh",
    "tan",
    "asin",
    "acos",
    "atan",
    "arcsin",
    "arccos",
    "arctan",
    "atan2",
    "arctan2",
    "expm1",
    "logaddexp",
    "lerp",
]


def _float_pair(a: Tensor, b: Tensor, op: str):
    """Both operands' arrays, promoted together and then to a floating dtype, after a shape check."""
    broadcast_shapes(a.array.shape, b.array.shape)
    ad, bd = binary_arrays(a, b, op)
    if ad.dtype.kind != "f":
        dt = B.get_default_dtype()
        ad, bd = ad.astype(dt), bd.astype(dt)
    return ad, bd


# ---------------------------------------------------------------- hyperbolic
@batches_gradients
@op(batch=BROADCASTING, methods="sinh", saves=("a",))
def sinh(input: Tensor) -> Tensor:  # noqa: A002  (torch's argument name)
    """Hyperbolic sine; d/dx sinh x = cosh x."""
    a = check_tensor(input, "sinh", "input")

    def backward(g):
        return (g * a.cosh(),)

    def jvp(t):
        return t * a.cosh()

    return make(a.device.xp.sinh(_float_data(a)), (a,), backward, "sinh", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="cosh", saves=("a",))
def cosh(input: Tensor) -> Tensor:  # noqa: A002
    """Hyperbolic cosine; d/dx cosh x = sinh x."""
    a = check_tensor(input, "cosh", "input")

    def backward(g):
        return (g * a.sinh(),)

    def jvp(t):
        return t * a.sinh()

    return make(a.device.xp.cosh(_float_data(a)), (a,), backward, "cosh", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="expm1", saves=("a",))
def expm1(input: Tensor) -> Tensor:  # noqa: A002
    """e**x - 1, accurate for small x; d/dx = e**x."""
    a = check_tensor(input, "expm1", "input")

    def backward(g):
        return (g * a.exp(),)

    def jvp(t):
        return t * a.exp()

    return make(a.device.xp.expm1(_float_data(a)), (a,), backward, "expm1", jvp)


# ---------------------------------------------------------------- tangent and inverses
@op(batch=BROADCASTING, methods="tan", saves=("out_ref",))
def tan(input: Tensor) -> Tensor:  # noqa: A002
    """Tangent; d/dx tan x = 1 + tan(x)**2 (the output is reused)."""
    a = check_tensor(input, "tan", "input")

    def backward(g):
        y = out_ref()
        return (g * (y * y + 1),)

    def jvp(t):
        return t * (a.tan() ** 2 + 1)

    out = make(a.device.xp.tan(_float_data(a)), (a,), backward, "tan", jvp)
    out_ref = weakref.ref(out)
    return out


@batches_gradients
@op(batch=BROADCASTING, methods=("asin", "arcsin"), saves=("a",))
def asin(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse sine (NaN outside [-1, 1]); d/dx = 1 / sqrt(1 - x**2)."""
    a = check_tensor(input, "asin", "input")

    def backward(g):
        return (g * (1 - a * a).rsqrt(),)

    def jvp(t):
        return t * (1 - a * a).rsqrt()

    with B.quiet(a.device.xp):
        out = a.device.xp.arcsin(_float_data(a))
    return make(out, (a,), backward, "asin", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods=("acos", "arccos"), saves=("a",))
def acos(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse cosine (NaN outside [-1, 1]); d/dx = -1 / sqrt(1 - x**2)."""
    a = check_tensor(input, "acos", "input")

    def backward(g):
        return (-g * (1 - a * a).rsqrt(),)

    def jvp(t):
        return -t * (1 - a * a).rsqrt()

    with B.quiet(a.device.xp):
        out = a.device.xp.arccos(_float_data(a))
    return make(out, (a,), backward, "acos", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods=("atan", "arctan"), saves=("a",))
def atan(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse tangent; d/dx = 1 / (1 + x**2)."""
    a = check_tensor(input, "atan", "input")

    def backward(g):
        return (g / (a * a + 1),)

    def jvp(t):
        return t / (a * a + 1)

    return make(a.device.xp.arctan(_float_data(a)), (a,), backward, "atan", jvp)


@op(batch=BROADCASTING, methods=("atan2", "arctan2"), saves=("y", "x"))
def atan2(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The angle of the point (other, input), in (-pi, pi]; broadcasts.

    d/dy atan2(y, x) = x / (x**2 + y**2) and d/dx = -y / (x**2 + y**2).
    """
    y = check_tensor(input, "atan2", "input")
    x = check_tensor(other, "atan2", "other")
    yd, xd = _float_pair(y, x, "atan2")

    def backward(g):
        r2 = x * x + y * y
        return g * x / r2, -g * y / r2

    def jvp(ty, tx):
        return (ty * x - tx * y) / (x * x + y * y)

    return make(y.device.xp.arctan2(yd, xd), (y, x), backward, "atan2", jvp)


arcsin, arccos, arctan, arctan2 = asin, acos, atan, atan2


# ---------------------------------------------------------------- logaddexp, lerp
@op(batch=BROADCASTING, methods="logaddexp", saves=("a", "b"))
def logaddexp(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """log(e**a + e**b), computed stably; broadcasts. d/da = sigmoid(a - b), d/db = sigmoid(b - a)."""
    a = check_tensor(input, "logaddexp", "input")
    b = check_tensor(other, "logaddexp", "other")
    ad, bd = _float_pair(a, b, "logaddexp")

    def backward(g):
        return g * (a - b).sigmoid(), g * (b - a).sigmoid()

    def jvp(ta, tb):
        return ta * (a - b).sigmoid() + tb * (b - a).sigmoid()

    return make(a.device.xp.logaddexp(ad, bd), (a, b), backward, "logaddexp", jvp)


@op(
    batch=BROADCASTING, methods="lerp", saves={"backward": ("weight",), "backward_tensor_weight": ("start", "end", "w")}
)
def lerp(input: Tensor, end: Tensor, weight) -> Tensor:  # noqa: A002
    """start + weight * (end - start); ``weight`` is a number or a tensor; broadcasts.

    d/dstart = 1 - weight, d/dend = weight, d/dweight = end - start.
    """
    start = check_tensor(input, "lerp", "input")
    end = check_tensor(end, "lerp", "end")
    if not isinstance(weight, (Tensor, int, float)):
        raise TypeError(f"lerp(): argument 'weight' must be Tensor or Number, not {type(weight).__name__}")
    if start.array.dtype != end.array.dtype:
        raise RuntimeError(f"expected dtype {_torch_name(start)} for `end` but got dtype {_torch_name(end)}")
    if start.array.dtype.kind != "f":
        raise RuntimeError(f"lerp(): expected a floating tensor, got dtype {_torch_name(start)}")
    if isinstance(weight, Tensor) and weight.array.dtype != start.array.dtype:
        raise RuntimeError(f"expected dtype {_torch_name(start)} for `weight` but got dtype {_torch_name(weight)}")
    sd, ed = _float_pair(start, end, "lerp")
    if isinstance(weight, Tensor):
        w = weight
        broadcast_shapes(sd.shape, ed.shape, w.array.shape)
        out = sd + w.array.astype(sd.dtype, copy=False) * (ed - sd)

        def backward_tensor_weight(g):
            return g * (1 - w), g * w, g * (end - start)

        def jvp_tensor_weight(ts, te, tw):
            return ts * (1 - w) + te * w + tw * (end - start)

        return make(out, (start, end, w), backward_tensor_weight, "lerp", jvp_tensor_weight)

    def backward(g):
        return g * (1 - weight), g * weight

    def jvp(ts, te):
        return ts * (1 - weight) + te * weight

    return make(sd + weight * (ed - sd), (start, end), backward, "lerp", jvp)


def _torch_name(t: Tensor) -> str:
    return {"float16": "c10::Half", "float32": "float", "float64": "double"}.get(str(t.array.dtype), str(t.array.dtype))


bind_methods(Tensor, __name__)
