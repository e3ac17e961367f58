"""Elementwise math and activations, each forward beside its backward rule.

Integer and bool inputs to floating functions (exp, log, sigmoid, ...) compute in
the default float dtype, as PyTorch does. Closures that need the op's output hold
it through a weak reference (``out_ref``): a closure must not keep its own output
node alive.
"""

from __future__ import annotations

import math
import weakref

import numpy as np

from .. import backend as B
from .._state import extras, grad
from ..creation import zeros_like
from ..tensor import Tensor, make, make_leaf, shape_str, tensor
from ._entry import checked
from ._erf_float32 import erf_float32, gelu_float32
from ._util import as_tensor, binary_arrays, refuse_dtype
from .compare import gt, lt
from .declare import BROADCASTING, batches_gradients, bind_methods, op, rules_saving
from .types import Number

__all__ = [
    "exp",
    "log",
    "log1p",
    "sqrt",
    "rsqrt",
    "sin",
    "cos",
    "tanh",
    "sigmoid",
    "erf",
    "relu",
    "leaky_relu",
    "elu",
    "gelu",
    "silu",
    "softplus",
    "clamp",
    "clip",
    "maximum",
    "minimum",
    "where",
    "sign",
    "floor",
    "ceil",
    "round",
    "square",
    "reciprocal",
]

_SQRT_2 = math.sqrt(2.0)
_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_GELU_TANH_C = 0.044715


def _float_data(a: Tensor):
    """``a``'s array, cast to the default float dtype when it is integer or bool (as torch does)."""
    d = a.array
    if d.dtype.kind == "f":
        return d
    return d.astype(B.get_default_dtype())


def _const(a: Tensor, arr) -> Tensor:
    """A constant (non-differentiable) tensor on ``a``'s device, e.g. a mask computed by a forward."""
    return make_leaf(arr, a.device)


def _zero_backward(g):
    """Backward of a piecewise-constant op (sign, floor, ceil, round): zero everywhere."""
    return (zeros_like(g),)


def _zero_jvp(t):
    """Forward-mode rule of a piecewise-constant op: the tangent is zero."""
    return zeros_like(t)


# ---------------------------------------------------------------- exponentials and logs
@batches_gradients
@op(batch=BROADCASTING, methods="exp", saves=("out_ref",))
def exp(a: Tensor) -> Tensor:
    """Elementwise e**a."""

    def backward(g):
        return (g * out_ref(),)

    def jvp(t):
        return t * a.exp()

    out = make(a.device.xp.exp(_float_data(a)), (a,), backward, "exp", jvp)
    out_ref = weakref.ref(out)  # the output, without the reference cycle out -> closure -> out
    return out


@batches_gradients
@op(batch=BROADCASTING, methods="log", saves=("a",))
def log(a: Tensor) -> Tensor:
    """Natural logarithm."""

    def backward(g):
        return (g / a,)

    def jvp(t):
        return t / a

    return make(a.device.xp.log(_float_data(a)), (a,), backward, "log", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="log1p", saves=("a",))
def log1p(a: Tensor) -> Tensor:
    """log(1 + a), accurate for small ``a``."""

    def backward(g):
        return (g / (a + 1),)

    def jvp(t):
        return t / (a + 1)

    return make(a.device.xp.log1p(_float_data(a)), (a,), backward, "log1p", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="sqrt", saves=("out_ref",))
def sqrt(a: Tensor) -> Tensor:
    """Square root."""

    def backward(g):
        return (g / (2 * out_ref()),)

    def jvp(t):
        return t / (2 * a.sqrt())

    out = make(a.device.xp.sqrt(_float_data(a)), (a,), backward, "sqrt", jvp)
    out_ref = weakref.ref(out)
    return out


@batches_gradients
@op(batch=BROADCASTING, methods="rsqrt", saves=("out_ref",))
def rsqrt(a: Tensor) -> Tensor:
    """1 / sqrt(a); backward -g * out**3 / 2."""

    def backward(g):
        y = out_ref()
        return (g * (y * y * y) * -0.5,)

    def jvp(t):
        return t * a.rsqrt() ** 3 * -0.5

    out = make(1 / a.device.xp.sqrt(_float_data(a)), (a,), backward, "rsqrt", jvp)
    out_ref = weakref.ref(out)
    return out


@batches_gradients
@op(batch=BROADCASTING, methods="square", saves=("a",))
def square(a: Tensor) -> Tensor:
    """a * a (integer tensors stay integer)."""

    def backward(g):
        return (g * a * 2,)

    d = a.array
    if d.dtype.kind == "b":
        d = d.astype(B.int64)

    def jvp(t):
        return t * a * 2

    return make(d * d, (a,), backward, "square", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="reciprocal", saves=("out_ref",))
def reciprocal(a: Tensor) -> Tensor:
    """1 / a (integer tensors give the default float dtype)."""

    def backward(g):
        y = out_ref()
        return (-g * y * y,)

    def jvp(t):
        return -t / (a * a)

    out = make(1 / _float_data(a), (a,), backward, "reciprocal", jvp)
    out_ref = weakref.ref(out)
    return out


# ---------------------------------------------------------------- trigonometric and hyperbolic
@batches_gradients
@op(batch=BROADCASTING, methods="sin", saves=("a",))
def sin(a: Tensor) -> Tensor:
    """Sine."""

    def backward(g):
        return (g * a.cos(),)

    def jvp(t):
        return t * a.cos()

    return make(a.device.xp.sin(_float_data(a)), (a,), backward, "sin", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="cos", saves=("a",))
def cos(a: Tensor) -> Tensor:
    """Cosine."""

    def backward(g):
        return (-g * a.sin(),)

    def jvp(t):
        return -t * a.sin()

    return make(a.device.xp.cos(_float_data(a)), (a,), backward, "cos", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="tanh", saves=("out_ref",))
def tanh(a: Tensor) -> Tensor:
    """Hyperbolic tangent; backward uses the output: g * (1 - tanh(a)**2)."""

    def backward(g):
        return (g * (1 - out_ref().square()),)

    def jvp(t):
        return t * (1 - a.tanh() ** 2)

    out = make(a.device.xp.tanh(_float_data(a)), (a,), backward, "tanh", jvp)
    out_ref = weakref.ref(out)
    return out


def _sigmoid_array(xp, d):
    """1 / (1 + e**-d), as torch computes it: where e**-d overflows (d below about -88 in float32) the result
    is the right 0, so the overflow is not warned about. Four vectorised passes; a branch per sign through
    ``where`` took 15 ns an element."""
    with np.errstate(over="ignore"):
        return 1 / (1 + xp.exp(-d))


@batches_gradients
@op(batch=BROADCASTING, methods="sigmoid", saves=("out_ref",))
def sigmoid(a: Tensor) -> Tensor:
    """Logistic sigmoid 1 / (1 + e**-a), computed stably; backward g * s * (1 - s)."""

    def backward(g):
        y = out_ref()
        return (g * y * (1 - y),)

    def jvp(t):
        s = a.sigmoid()
        return t * s * (1 - s)

    out = make(_sigmoid_array(a.device.xp, _float_data(a)), (a,), backward, "sigmoid", jvp)
    out_ref = weakref.ref(out)
    return out


def _erf_array(xp, d):
    """erf on a NumPy or CuPy array (neither array module has it built in); a float32 NumPy array's is
    evaluated in float64 (``_erf_float32``)."""
    if xp.__name__ == "numpy":
        if d.dtype == np.float32:
            return erf_float32(d)
        try:
            from scipy.special import erf as scipy_erf
        except ImportError:  # scipy is optional: fall back to the exact scalar function
            return xp.vectorize(math.erf, otypes=[d.dtype])(d)
        return scipy_erf(d).astype(d.dtype, copy=False)
    from cupyx.scipy.special import erf as cupy_erf

    return cupy_erf(d)


@batches_gradients
@op(batch=BROADCASTING, methods="erf", saves=("a",))
def erf(a: Tensor) -> Tensor:
    """The Gauss error function; backward g * 2/sqrt(pi) * exp(-a**2)."""

    def backward(g):
        return (g * (-(a * a)).exp() * _TWO_OVER_SQRT_PI,)

    def jvp(t):
        return t * (-(a * a)).exp() * _TWO_OVER_SQRT_PI

    return make(_erf_array(a.device.xp, _float_data(a)), (a,), backward, "erf", jvp)


# ---------------------------------------------------------------- activations
@batches_gradients
@op(batch=BROADCASTING, methods="relu", saves=("a",))
def relu(a: Tensor) -> Tensor:
    """max(a, 0); the gradient at 0 is 0, as in PyTorch."""
    refuse_dtype(a, "clamp_min_scalar_cpu", "b")
    d = a.array

    def backward(g):
        return (g * (a > 0),)

    def jvp(t):
        return t * (a > 0)

    return make(a.device.xp.maximum(0, d), (a,), backward, "relu", jvp)  # a tie gives d: -0.0 kept, as torch


@batches_gradients
@op(batch=BROADCASTING, methods="leaky_relu", saves=("a", "negative_slope"))
def leaky_relu(a: Tensor, negative_slope: float = 0.01) -> Tensor:
    """a where a > 0, else negative_slope * a."""
    refuse_dtype(a, "leaky_relu_cpu", "biu")
    d = _float_data(a)
    xp = a.device.xp

    def backward(g):
        return (where(a > 0, g, g * negative_slope),)

    def jvp(t):
        return where(a > 0, t, t * negative_slope)

    return make(xp.where(d > 0, d, d * negative_slope), (a,), backward, "leaky_relu", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="elu", saves=("a", "alpha", "out_ref"))
def elu(a: Tensor, alpha: float = 1.0) -> Tensor:
    """a where a > 0, else alpha * (e**a - 1); backward uses the output (out + alpha for a <= 0)."""
    refuse_dtype(a, "elu_cpu", "biu")
    d = _float_data(a)
    xp = a.device.xp
    pos = d > 0
    neg_part = alpha * xp.expm1(xp.minimum(d, 0))

    def backward(g):
        return (g * where(a > 0, 1.0, out_ref() + alpha),)

    def jvp(t):
        return t * where(a > 0, 1.0, a.exp() * alpha)

    out = make(xp.where(pos, d, neg_part), (a,), backward, "elu", jvp)
    out_ref = weakref.ref(out)
    return out


def _normal_pdf(a: Tensor) -> Tensor:
    """phi(a) = exp(-a**2 / 2) / sqrt(2 pi), the standard normal density."""
    return (a * a * -0.5).exp() * _INV_SQRT_2PI


@rules_saving(("a",))
def _gelu_slope(a: Tensor, value) -> Tensor:
    """Phi(a) + a phi(a), gelu's derivative (its ``value`` computed by the forward), as a tensor of ``a``;
    its own derivative is phi(a) (2 - a**2)."""

    def backward(g):
        return (g * _normal_pdf(a) * (2 - a * a),)

    def jvp(t):
        return t * _normal_pdf(a) * (2 - a * a)

    return make(value, (a,), backward, "gelu_slope", jvp)


def _tanh_gelu_slope(a: Tensor, th: Tensor) -> Tensor:
    """d/da of a * (1 + th) / 2, th = tanh(sqrt(2/pi) (a + c a**3)): tanh-approximated gelu's slope."""
    return (th + 1) * 0.5 + a * 0.5 * (1 - th * th) * (a * a * (3 * _GELU_TANH_C) + 1) * _SQRT_2_OVER_PI


@op(batch=BROADCASTING, methods="gelu", saves={"backward": ("slope",), "backward_tanh": ("a", "th")})
def gelu(a: Tensor, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit: a * Phi(a), or its tanh approximation with ``approximate='tanh'``.

    The rule reads the slope the forward computed beside Phi(a), Phi(a) + a phi(a) (or, for the tanh form,
    the tanh), kept as a tensor of ``a``: the backward is one product and needs no second erf, and
    differentiating the rule (create_graph) still differentiates it.
    """
    refuse_dtype(a, "GeluKernelImpl", "biu")
    if approximate not in ("none", "tanh"):
        raise RuntimeError(f"approximate argument must be either none or tanh, got '{approximate}'")
    if approximate == "tanh":
        inner = (a * a * a * _GELU_TANH_C + a) * _SQRT_2_OVER_PI
        th = inner.tanh()

        def backward_tanh(g):
            return (g * _tanh_gelu_slope(a, th),)

        def jvp_tanh(t):
            return t * _tanh_gelu_slope(a, th)

        return make(0.5 * _float_data(a) * (1 + th.array), (a,), backward_tanh, "gelu", jvp_tanh)

    with_rules = grad.enabled or extras.on  # else no graph, no tangents: the rules are not kept
    value, slope = _gelu_arrays(a.device.xp, _float_data(a), with_rules)
    if not with_rules:
        return make(value, (a,), None, "gelu")
    slope = _gelu_slope(a, slope)

    def backward(g):
        return (g * slope,)

    def jvp(t):
        return t * slope

    return make(value, (a,), backward, "gelu", jvp)


def _gelu_arrays(xp, d, with_slope: bool) -> tuple:
    """``(d Phi(d), Phi(d) + d phi(d) or None)``: gelu's value and, ``with_slope``, its slope. A float32 NumPy
    array's are worked in float32, block by block (``gelu_float32``: as accurate as PyTorch's GELU, and no
    full-size temporaries)."""
    if xp.__name__ == "numpy" and d.dtype == np.float32:
        return gelu_float32(d, with_slope)
    cdf = _erf_array(xp, d / _SQRT_2)  # Phi(d) = (1 + erf(d / sqrt 2)) / 2, on erf's fresh array
    cdf += 1
    cdf *= 0.5
    if not with_slope:
        return d * cdf, None
    slope = xp.exp(d * d * -0.5)  # then Phi(d) + d phi(d), phi(d) = exp(-d**2 / 2) / sqrt(2 pi)
    slope *= d
    slope *= _INV_SQRT_2PI
    slope += cdf
    return d * cdf, slope


@batches_gradients
@op(batch=BROADCASTING, methods="silu", saves=("a",))
def silu(a: Tensor) -> Tensor:
    """a * sigmoid(a) (also called swish); backward g * s * (1 + a * (1 - s))."""
    refuse_dtype(a, "silu_cpu", "biu")
    d = _float_data(a)

    def backward(g):
        s = a.sigmoid()
        return (g * s * (a * (1 - s) + 1),)

    def jvp(t):
        s = a.sigmoid()
        return t * s * (a * (1 - s) + 1)

    return make(d * _sigmoid_array(a.device.xp, d), (a,), backward, "silu", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="softplus", saves=("a", "beta", "threshold"))
def softplus(a: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + e**(beta*a)) / beta, computed stably; linear (= a) where beta*a > threshold."""
    refuse_dtype(a, "softplus_cpu", "biu")
    xp = a.device.xp
    d = _float_data(a)
    z = d * beta
    linear = z > threshold
    smooth = (xp.log1p(xp.exp(-xp.abs(z))) + xp.maximum(z, 0)) / beta

    def backward(g):
        return (g * where(a * beta > threshold, 1.0, (a * beta).sigmoid()),)

    def jvp(t):
        return t * where(a * beta > threshold, 1.0, (a * beta).sigmoid())

    return make(xp.where(linear, d, smooth), (a,), backward, "softplus", jvp)


# ---------------------------------------------------------------- bounds, maximum, where
def _operand(x, like: Tensor):
    """A bound or operand as a Tensor on ``like``'s device, or a Python scalar left as is."""
    if x is None or isinstance(x, (Tensor, int, float)):
        return x
    return as_tensor(x, like)


def _is_array_bound(x) -> bool:
    """A tensor bound with dims (a 0-dim tensor passes for a number, as in PyTorch's clamp)."""
    return isinstance(x, Tensor) and x.array.ndim > 0


def _is_number(x) -> bool:
    return x is not None and not isinstance(x, Tensor)


def _array_of(x, dt, xp):
    return x.array.astype(dt, copy=False) if isinstance(x, Tensor) else xp.asarray(x, dtype=dt)


@batches_gradients
@op(batch=BROADCASTING, methods=("clamp", "clip"), saves=("inside", "lo_wins", "hi_wins"))
def clamp(a: Tensor, min: Tensor | Number | None = None, max: Tensor | Number | None = None) -> Tensor:  # noqa: A002  (torch's argument names)
    """Limit ``a`` to ``[min, max]``; bounds are scalars or tensors (broadcast), either may be None.

    The gradient flows to ``a`` where ``min <= a <= max`` (bounds included), and to
    a tensor bound where that bound is the result, as in PyTorch.
    """
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if (_is_array_bound(min) and _is_number(max)) or (_is_array_bound(max) and _is_number(min)):
        raise TypeError(
            f"clamp(): 'min' and 'max' must both be Tensors or both be Numbers, not {type(min).__name__} and "
            f"{type(max).__name__}"
        )
    lo, hi = _operand(min, a), _operand(max, a)
    for bound in (lo, hi):
        if isinstance(bound, Tensor) and bound.device is not a.device:
            raise RuntimeError(
                f"Expected all tensors to be on the same device, but found at least two devices, "
                f"{a.device} and {bound.device}! (in clamp)"
            )
    xp = a.device.xp
    dt = B.result_dtype(*(x for x in (a, lo, hi) if x is not None))
    d = a.array.astype(dt, copy=False)
    lod = None if lo is None else _array_of(lo, dt, xp)
    hid = None if hi is None else _array_of(hi, dt, xp)
    try:
        low = d if lod is None else xp.maximum(lod, d)  # a tie keeps the value (its -0.0), as PyTorch
        out = low if hid is None else xp.minimum(hid, low)
    except ValueError:
        shapes = " and ".join(shape_str(x.shape) for x in (a, lo, hi) if isinstance(x, Tensor))
        raise RuntimeError(f"clamp: shapes {shapes} cannot be broadcast together") from None

    inside, lo_wins, hi_wins = _clamp_masks(a, d, lod, hid, out.shape)

    # the rule for the operands that are tensors, chosen here so that each reads as its mathematics
    if isinstance(lo, Tensor) and isinstance(hi, Tensor):

        def backward(g):
            return lambda: g * inside, lambda: g * lo_wins, lambda: g * hi_wins

        def jvp(ta, t_lo, t_hi):
            return ta * inside + t_lo * lo_wins + t_hi * hi_wins

    elif isinstance(lo, Tensor):

        def backward(g):
            return lambda: g * inside, lambda: g * lo_wins

        def jvp(ta, t_lo):
            return ta * inside + t_lo * lo_wins

    elif isinstance(hi, Tensor):

        def backward(g):
            return lambda: g * inside, lambda: g * hi_wins

        def jvp(ta, t_hi):
            return ta * inside + t_hi * hi_wins

    else:

        def backward(g):
            return (g * inside,)

        def jvp(ta):
            return ta * inside

    parents = (a,) + tuple(x for x in (lo, hi) if isinstance(x, Tensor))
    return make(out, parents, backward, "clamp", jvp)


def _clamp_masks(a: Tensor, d, lod, hid, shape) -> tuple:
    """Where clamp's result is ``a`` (bounds included), the lower bound, the upper bound: constant masks."""
    xp = a.device.xp
    inside = xp.ones(shape, dtype=bool)
    if lod is not None:
        inside &= d >= lod
    if hid is not None:
        inside &= d <= hid
    lo_wins = None if lod is None else (d < lod if hid is None else (d < lod) & (lod <= hid))
    hi_wins = None if hid is None else (d if lod is None else xp.maximum(d, lod)) > hid
    return tuple(None if m is None else _const(a, m) for m in (inside, lo_wins, hi_wins))


clip = clamp


@rules_saving(("a", "b"))
def _extremum(a, b, name: str) -> Tensor:
    if not isinstance(a, Tensor):
        a, b = b, a
        if not isinstance(a, Tensor):
            raise TypeError(f"{name}(): expected at least one Tensor argument")
    b = as_tensor(b, a)
    ad, bd = binary_arrays(a, b, name)
    xp = a.device.xp
    pick = xp.maximum if name == "maximum" else xp.minimum
    try:
        out = pick(ad, bd)
    except ValueError:
        raise RuntimeError(
            f"{name}: shapes {shape_str(a.array.shape)} and {shape_str(b.array.shape)} cannot be broadcast together"
        ) from None

    wins = gt if name == "maximum" else lt

    def backward(g):
        # Ties split the gradient evenly between the two operands, as in PyTorch.
        tie = (a == b) * 0.5
        return lambda: g * (wins(a, b) + tie), lambda: g * (wins(b, a) + tie)

    def jvp(ta, tb):
        return where(wins(a, b), ta, where(wins(b, a), tb, (ta + tb) * 0.5))

    return make(out, (a, b), backward, name, jvp)


@op(batch=BROADCASTING, methods="maximum")
def maximum(a: Tensor, b: Tensor) -> Tensor:
    """Elementwise maximum with broadcasting; NaN propagates; ties split the gradient 50/50."""
    return _extremum(a, b, "maximum")


@op(batch=BROADCASTING, methods="minimum")
def minimum(a: Tensor, b: Tensor) -> Tensor:
    """Elementwise minimum with broadcasting; NaN propagates; ties split the gradient 50/50."""
    return _extremum(a, b, "minimum")


@batches_gradients
@op(batch=BROADCASTING, saves=("cond",))
def where(condition: Tensor, input: Tensor | Number, other: Tensor | Number) -> Tensor:  # noqa: A002  (torch's argument name)
    """Elements of ``input`` where ``condition`` is True, else of ``other`` (broadcast; scalars allowed)."""
    like = next((x for x in (input, other, condition) if isinstance(x, Tensor)), None)
    cond = (
        condition if isinstance(condition, Tensor) else tensor(condition, device=None if like is None else like.device)
    )
    like = like if like is not None else cond
    if cond.array.dtype.kind != "b":
        raise RuntimeError(
            f"where expected condition to be a boolean tensor, but got a tensor with dtype {B.scalar_type_name(cond.array.dtype)}"
        )
    x, y = _operand(input, like), _operand(other, like)
    for t in (cond, x, y):
        if isinstance(t, Tensor) and t.device is not like.device:
            raise RuntimeError(
                f"Expected all tensors to be on the same device, but found at least two devices, "
                f"{like.device} and {t.device}! (in where)"
            )
    xp = like.device.xp
    dt = B.result_dtype(x, y)
    cd = cond.array
    xd, yd = _array_of(x, dt, xp), _array_of(y, dt, xp)
    try:
        out = xp.where(cd, xd, yd)
    except ValueError:
        shapes = ", ".join(shape_str(t.shape) for t in (cond, x, y) if isinstance(t, Tensor))
        raise RuntimeError(f"where: shapes {shapes} cannot be broadcast together") from None
    parents = tuple(t for t in (x, y) if isinstance(t, Tensor))
    if not parents:
        return make_leaf(out, like.device)

    # the rule for the operands that are tensors, chosen here so that each reads as its mathematics
    if isinstance(x, Tensor) and isinstance(y, Tensor):

        def backward(g):
            return lambda: where(cond, g, 0.0), lambda: where(cond, 0.0, g)

        def jvp(tx, ty):
            return where(cond, tx, ty)

    elif isinstance(x, Tensor):

        def backward(g):
            return (where(cond, g, 0.0),)

        def jvp(tx):
            return where(cond, tx, 0.0)

    else:

        def backward(g):
            return (where(cond, 0.0, g),)

        def jvp(ty):
            return where(cond, 0.0, ty)

    return make(out, parents, backward, "where", jvp)


# where's checked entry, as the public op's: the rules calling ``where`` (here and in the modules importing it)
# reach its batching rule through it under vmap, so they take a batch of gradients as it comes
where = checked(where)


@op(batch=BROADCASTING, methods="where")
def _tensor_where(self: Tensor, condition, other) -> Tensor:
    """``self`` where ``condition`` is True, else ``other`` (the method form of ``where``)."""
    return where(condition, self, other)


# ---------------------------------------------------------------- piecewise constant
@op(batch=BROADCASTING, methods="sign")
def sign(a: Tensor) -> Tensor:
    """-1, 0 or 1 elementwise (zero gradient everywhere)."""

    sign_of = a.array.copy() if a.array.dtype.kind == "b" else a.device.xp.sign(a.array)  # a bool is its own sign
    return make(sign_of, (a,), _zero_backward, "sign", _zero_jvp)


def _rounded(a: Tensor, op: str) -> Tensor:
    """floor or ceil: zero gradient; integer tensors are returned unchanged in value; bools refused."""
    refuse_dtype(a, op, "b")
    out = getattr(a.device.xp, op)(a.array) if a.array.dtype.kind == "f" else a.array.copy()
    return make(out, (a,), _zero_backward, op, _zero_jvp)


@op(batch=BROADCASTING, methods="floor")
def floor(a: Tensor) -> Tensor:
    """Round down (zero gradient; integer tensors are returned unchanged in value)."""
    return _rounded(a, "floor")


@op(batch=BROADCASTING, methods="ceil")
def ceil(a: Tensor) -> Tensor:
    """Round up (zero gradient)."""
    return _rounded(a, "ceil")


@op(batch=BROADCASTING, methods="round")
def round(a: Tensor, decimals: int = 0) -> Tensor:  # noqa: A001  (torch.round)
    """Round half to even, to ``decimals`` places (zero gradient)."""

    d = a.array
    out = a.device.xp.round(d, decimals) if d.dtype.kind == "f" else d.copy()
    return make(out, (a,), _zero_backward, "round", _zero_jvp)


bind_methods(Tensor, __name__)
