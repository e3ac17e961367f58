"""More elementwise math: inverse hyperbolics, base-2 and base-10 exponentials and logs, the gamma
family, erfc, erfinv, logit, xlogy, sinc, hypot, fmax/fmin, nan_to_num, trunc/frac and heaviside.

Each op computes its result and states its derivative once, beside it, with Tensor ops. Integer
inputs compute in the default float dtype, as in PyTorch. The special functions come from SciPy
(``cupyx.scipy.special`` on a CUDA device).
"""

from __future__ import annotations

import math
import weakref

from .. import backend as B
from ..tensor import Tensor, make, make_leaf
from ._util import as_tensor, check_tensor, refuse_dtype
from .declare import BROADCASTING, batches_gradients, bind_methods, op, rules_saving
from .elementwise import _float_data, _zero_backward, _zero_jvp, where
from .trig import _float_pair
from .types import Number

__all__ = [
    "asinh",
    "acosh",
    "atanh",
    "arcsinh",
    "arccosh",
    "arctanh",
    "exp2",
    "log2",
    "log10",
    "trunc",
    "fix",
    "frac",
    "sgn",
    "logit",
    "xlogy",
    "erfc",
    "erfinv",
    "lgamma",
    "digamma",
    "polygamma",
    "sinc",
    "hypot",
    "fmax",
    "fmin",
    "nan_to_num",
    "heaviside",
]

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_SQRT_PI_OVER_2 = math.sqrt(math.pi) / 2
_MINUS_TWO_OVER_SQRT_PI = -2 / math.sqrt(math.pi)


def _scipy_special(xp, name: str):
    """``scipy.special.<name>`` for NumPy arrays, ``cupyx.scipy.special.<name>`` for CuPy ones."""
    if xp.__name__ == "numpy":
        import scipy.special

        return getattr(scipy.special, name)
    import cupyx.scipy.special

    return getattr(cupyx.scipy.special, name)


def _apply(a: Tensor, fn) -> object:
    """``fn`` of ``a``'s float array, with NumPy's domain warnings silenced (PyTorch returns NaN quietly)."""
    d = _float_data(a)
    with B.quiet(a.device.xp):
        return fn(d).astype(d.dtype, copy=False)


# ---------------------------------------------------------------- inverse hyperbolic
@op(batch=BROADCASTING, methods=("asinh", "arcsinh"), saves=("a",))
def asinh(input: Tensor) -> Tensor:  # noqa: A002  (torch's argument name)
    """Inverse hyperbolic sine; d/dx = 1 / sqrt(x**2 + 1)."""
    a = check_tensor(input, "asinh", "input")

    def backward(g):
        return (g * (a * a + 1).rsqrt(),)

    def jvp(t):
        return t * (a * a + 1).rsqrt()

    return make(_apply(a, a.device.xp.arcsinh), (a,), backward, "asinh", jvp)


@op(batch=BROADCASTING, methods=("acosh", "arccosh"), saves=("a",))
def acosh(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse hyperbolic cosine (NaN below 1); d/dx = 1 / sqrt(x**2 - 1)."""
    a = check_tensor(input, "acosh", "input")

    def backward(g):
        return (g * (a * a - 1).rsqrt(),)

    def jvp(t):
        return t * (a * a - 1).rsqrt()

    return make(_apply(a, a.device.xp.arccosh), (a,), backward, "acosh", jvp)


@op(batch=BROADCASTING, methods=("atanh", "arctanh"), saves=("a",))
def atanh(input: Tensor) -> Tensor:  # noqa: A002
    """Inverse hyperbolic tangent (NaN outside [-1, 1]); d/dx = 1 / (1 - x**2)."""
    a = check_tensor(input, "atanh", "input")

    def backward(g):
        return (g / (1 - a * a),)

    def jvp(t):
        return t / (1 - a * a)

    return make(_apply(a, a.device.xp.arctanh), (a,), backward, "atanh", jvp)


arcsinh, arccosh, arctanh = asinh, acosh, atanh


# ---------------------------------------------------------------- base 2 and 10
@batches_gradients
@op(batch=BROADCASTING, methods="exp2", saves=("out_ref",))
def exp2(input: Tensor) -> Tensor:  # noqa: A002
    """2**x; d/dx = 2**x * ln 2 (the output is reused)."""
    a = check_tensor(input, "exp2", "input")

    def backward(g):
        return (g * out_ref() * _LN2,)

    def jvp(t):
        return t * a.exp2() * _LN2

    out = make(_apply(a, a.device.xp.exp2), (a,), backward, "exp2", jvp)
    out_ref = weakref.ref(out)
    return out


@batches_gradients
@op(batch=BROADCASTING, methods="log2", saves=("a",))
def log2(input: Tensor) -> Tensor:  # noqa: A002
    """Base-2 logarithm; d/dx = 1 / (x ln 2)."""
    a = check_tensor(input, "log2", "input")

    def backward(g):
        return (g / (a * _LN2),)

    def jvp(t):
        return t / (a * _LN2)

    return make(_apply(a, a.device.xp.log2), (a,), backward, "log2", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="log10", saves=("a",))
def log10(input: Tensor) -> Tensor:  # noqa: A002
    """Base-10 logarithm; d/dx = 1 / (x ln 10)."""
    a = check_tensor(input, "log10", "input")

    def backward(g):
        return (g / (a * _LN10),)

    def jvp(t):
        return t / (a * _LN10)

    return make(_apply(a, a.device.xp.log10), (a,), backward, "log10", jvp)


# ---------------------------------------------------------------- integer and fractional parts
@op(batch=BROADCASTING, methods=("trunc", "fix"))
def trunc(input: Tensor) -> Tensor:  # noqa: A002
    """Round towards zero (zero gradient; integer tensors are returned unchanged in value)."""
    a = check_tensor(input, "trunc", "input")
    refuse_dtype(a, "trunc", "b")
    out = a.device.xp.trunc(a.array) if a.array.dtype.kind == "f" else a.array.copy()
    return make(out, (a,), _zero_backward, "trunc", _zero_jvp)


fix = trunc


def _identity_backward(g):
    return (g,)


def _identity_jvp(t):
    return t


@op(batch=BROADCASTING, methods="frac")
def frac(input: Tensor) -> Tensor:  # noqa: A002
    """x - trunc(x), the fractional part keeping x's sign; d/dx = 1."""
    a = check_tensor(input, "frac", "input")
    refuse_dtype(a, "frac_cpu", "biu")
    d = a.array
    return make(d - a.device.xp.trunc(d), (a,), _identity_backward, "frac", _identity_jvp)


@op(batch=BROADCASTING, methods="sgn")
def sgn(input: Tensor) -> Tensor:  # noqa: A002
    """The sign, x / |x|: -1, 0 or 1, and 0 at NaN as in PyTorch (zero gradient everywhere)."""
    a = check_tensor(input, "sgn", "input")
    d = a.array
    if d.dtype.kind != "f":
        return a.sign()
    xp = a.device.xp
    return make(xp.where(xp.isnan(d), xp.zeros((), d.dtype), xp.sign(d)), (a,), _zero_backward, "sgn", _zero_jvp)


# ---------------------------------------------------------------- logit, xlogy, erfc, erfinv
@batches_gradients
@op(batch=BROADCASTING, methods="logit", saves=("a", "inside"))
def logit(input: Tensor, eps: float | None = None) -> Tensor:  # noqa: A002
    """log(x / (1 - x)); with ``eps``, x is first clamped to [eps, 1 - eps] and the gradient is 0 outside."""
    a = check_tensor(input, "logit", "input")
    xp = a.device.xp
    d = _float_data(a)
    z = d if eps is None else xp.clip(d, eps, 1 - eps)
    with B.quiet(xp):
        out = xp.log(z / (1 - z))
    inside = make_leaf(xp.ones(d.shape, dtype=bool) if eps is None else (d >= eps) & (d <= 1 - eps), a.device)

    def backward(g):
        return (where(inside, g / (a * (1 - a)), 0.0),)

    def jvp(t):
        return where(inside, t / (a * (1 - a)), 0.0)

    return make(out, (a,), backward, "logit", jvp)


@batches_gradients
@op(batch=BROADCASTING, methods="xlogy", saves=("x", "y", "x_zero"))
def xlogy(input: Tensor | Number, other: Tensor | Number) -> Tensor:  # noqa: A002
    """x * log(y), and 0 where x is 0 (unless y is NaN); either argument may be a number."""
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        raise TypeError("xlogy(): expected at least one Tensor argument")
    x = input if isinstance(input, Tensor) else as_tensor(input, other)
    y = other if isinstance(other, Tensor) else as_tensor(other, x)
    xd, yd = _float_pair(x, y, "xlogy")
    xp = x.device.xp
    with B.quiet(xp):
        out = xp.where((xd == 0) & ~xp.isnan(yd), xp.zeros((), dtype=xd.dtype), xd * xp.log(yd))
    # PyTorch's rule for x: g * log(y), and 0 where x is 0 and y <= 0 (where log(y) is -inf or NaN)
    x_zero = make_leaf((xd == 0) & (yd <= 0), x.device)

    def backward(g):
        return lambda: where(x_zero, 0.0, g * y.log()), lambda: g * x / y

    def jvp(tx, ty):
        return where(x_zero, 0.0, tx * y.log()) + ty * x / y

    return make(out, (x, y), backward, "xlogy", jvp)


def _erfc_array(xp, d):
    """1 - erf(x) computed directly, so it keeps its precision where erf(x) rounds to 1 (x past 4 or so):
    SciPy's (CuPy's) erfc, or the exact scalar function where SciPy is not installed."""
    if xp.__name__ == "numpy":
        try:
            from scipy.special import erfc as scipy_erfc
        except ImportError:  # scipy is optional
            return xp.vectorize(math.erfc, otypes=[d.dtype])(d)
        return scipy_erfc(d)
    return _scipy_special(xp, "erfc")(d)


@op(batch=BROADCASTING, methods="erfc", saves=("a",))
def erfc(input: Tensor) -> Tensor:  # noqa: A002
    """The complementary error function 1 - erf(x), accurate where it is tiny; d/dx = -2 / sqrt(pi) exp(-x**2)."""
    a = check_tensor(input, "erfc", "input")

    def backward(g):
        return (g * (-(a * a)).exp() * _MINUS_TWO_OVER_SQRT_PI,)

    def jvp(t):
        return t * (-(a * a)).exp() * _MINUS_TWO_OVER_SQRT_PI

    return make(_apply(a, lambda d: _erfc_array(a.device.xp, d)), (a,), backward, "erfc", jvp)


@op(batch=BROADCASTING, methods="erfinv", saves=("out_ref",))
def erfinv(input: Tensor) -> Tensor:  # noqa: A002
    """The inverse error function; d/dx = sqrt(pi) / 2 * exp(erfinv(x)**2) (the output is reused)."""
    a = check_tensor(input, "erfinv", "input")

    def backward(g):
        y = out_ref()
        return (g * (y * y).exp() * _SQRT_PI_OVER_2,)

    def jvp(t):
        y = a.erfinv()
        return t * (y * y).exp() * _SQRT_PI_OVER_2

    out = make(_apply(a, _scipy_special(a.device.xp, "erfinv")), (a,), backward, "erfinv", jvp)
    out_ref = weakref.ref(out)
    return out


# ---------------------------------------------------------------- the gamma family
@op(batch=BROADCASTING, methods="lgamma", saves=("a",))
def lgamma(input: Tensor) -> Tensor:  # noqa: A002
    """log |Gamma(x)|; d/dx = digamma(x)."""
    a = check_tensor(input, "lgamma", "input")

    def backward(g):
        return (g * a.digamma(),)

    def jvp(t):
        return t * a.digamma()

    return make(_apply(a, _scipy_special(a.device.xp, "gammaln")), (a,), backward, "lgamma", jvp)


def _digamma_array(xp, d):
    """psi(x), with PyTorch's -inf at 0 (SciPy gives a complex infinity's NaN there)."""
    out = _scipy_special(xp, "psi")(d)
    return xp.where(d == 0, xp.asarray(-xp.inf, dtype=out.dtype), out)


@op(batch=BROADCASTING, methods="digamma", saves=("a",))
def digamma(input: Tensor) -> Tensor:  # noqa: A002
    """The logarithmic derivative of Gamma, psi(x); d/dx = polygamma(1, x)."""
    a = check_tensor(input, "digamma", "input")

    def backward(g):
        return (g * polygamma(1, a),)

    def jvp(t):
        return t * polygamma(1, a)

    return make(_apply(a, lambda d: _digamma_array(a.device.xp, d)), (a,), backward, "digamma", jvp)


@op(batch=BROADCASTING, saves=("n", "a"))
def polygamma(n: int, input: Tensor) -> Tensor:  # noqa: A002
    """The n-th derivative of digamma; d/dx = polygamma(n + 1, x)."""
    a = check_tensor(input, "polygamma", "input")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    xp = a.device.xp
    if n == 0:
        return digamma(a)
    values = _apply(a, lambda d: _scipy_special(xp, "polygamma")(n, d))

    def backward(g):
        return (g * polygamma(n + 1, a),)

    def jvp(t):
        return t * polygamma(n + 1, a)

    return make(values, (a,), backward, "polygamma", jvp)


@op(batch=BROADCASTING, methods="polygamma")
def _tensor_polygamma(self: Tensor, n: int) -> Tensor:
    """``polygamma(n, self)``, the method form (torch's ``x.polygamma(n)``)."""
    return polygamma(n, self)


# ---------------------------------------------------------------- sinc, hypot
def _sinc_slope(a: Tensor, at_zero: Tensor) -> Tensor:
    """d/dx sinc(x) = (cos(pi x) - sinc(x)) / x, and 0 where x is 0 (``at_zero``)."""
    safe = where(at_zero, 1.0, a)
    return where(at_zero, 0.0, ((safe * math.pi).cos() - safe.sinc()) / safe)


@op(batch=BROADCASTING, methods="sinc", saves=("a", "at_zero"))
def sinc(input: Tensor) -> Tensor:  # noqa: A002
    """sin(pi x) / (pi x), and 1 at 0; d/dx = (cos(pi x) - sinc(x)) / x, 0 at 0."""
    a = check_tensor(input, "sinc", "input")
    at_zero = make_leaf(_float_data(a) == 0, a.device)

    def backward(g):
        return (g * _sinc_slope(a, at_zero),)

    def jvp(t):
        return t * _sinc_slope(a, at_zero)

    return make(_apply(a, a.device.xp.sinc), (a,), backward, "sinc", jvp)


@op(batch=BROADCASTING, methods="hypot", saves=("a", "b", "out_ref"))
def hypot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """sqrt(x**2 + y**2) without overflow; d/dx = x / hypot, d/dy = y / hypot (the output is reused)."""
    a = check_tensor(input, "hypot", "input")
    b = check_tensor(other, "hypot", "other")
    ad, bd = _float_pair(a, b, "hypot")

    def backward(g):
        h = out_ref()
        return lambda: g * a / h, lambda: g * b / h

    def jvp(ta, tb):
        return (ta * a + tb * b) / a.hypot(b)

    out = make(a.device.xp.hypot(ad, bd), (a, b), backward, "hypot", jvp)
    out_ref = weakref.ref(out)
    return out


# ---------------------------------------------------------------- NaN-ignoring extrema, nan_to_num
@rules_saving(("a_wins",))
def _nan_ignoring(input: Tensor, other: Tensor, name: str) -> Tensor:
    a = check_tensor(input, name, "input")
    b = check_tensor(other, name, "other")
    ad, bd = _float_pair(a, b, name) if (a.array.dtype.kind == "f" or b.array.dtype.kind == "f") else (a.array, b.array)
    xp = a.device.xp
    out = (xp.fmax if name == "fmax" else xp.fmin)(ad, bd)
    a_wins = make_leaf(((ad >= bd) if name == "fmax" else (ad <= bd)) | xp.isnan(bd), a.device)

    def backward(g):
        return lambda: where(a_wins, g, 0.0), lambda: where(a_wins, 0.0, g)

    def jvp(ta, tb):
        return where(a_wins, ta, tb)

    return make(out, (a, b), backward, name, jvp)


@op(batch=BROADCASTING, methods="fmax")
def fmax(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise maximum where a NaN loses to a number (NaN only where both are NaN)."""
    return _nan_ignoring(input, other, "fmax")


@op(batch=BROADCASTING, methods="fmin")
def fmin(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Elementwise minimum where a NaN loses to a number (NaN only where both are NaN)."""
    return _nan_ignoring(input, other, "fmin")


@op(batch=BROADCASTING, methods="nan_to_num", saves=("finite",))
def nan_to_num(input: Tensor, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None) -> Tensor:  # noqa: A002
    """NaN, inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (the dtype's largest and smallest
    finite values by default); the gradient flows where the input was finite."""
    a = check_tensor(input, "nan_to_num", "input")
    xp = a.device.xp
    d = a.array
    if d.dtype.kind != "f":
        return make(d.copy(), (a,), _identity_backward, "nan_to_num", _identity_jvp)
    out = xp.nan_to_num(d, nan=nan, posinf=posinf, neginf=neginf)
    finite = make_leaf(xp.isfinite(d), a.device)

    def backward(g):
        return (where(finite, g, 0.0),)

    def jvp(t):
        return where(finite, t, 0.0)

    return make(out, (a,), backward, "nan_to_num", jvp)


@op(batch=BROADCASTING, methods="heaviside")
def heaviside(input: Tensor, values: Tensor) -> Tensor:  # noqa: A002
    """0 where x < 0, ``values`` where x == 0, 1 where x > 0 (a step: not differentiable, as in PyTorch)."""
    a = check_tensor(input, "heaviside", "input")
    v = check_tensor(values, "heaviside", "values")
    if a.array.dtype != v.array.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes")
    xp = a.device.xp
    d = a.array
    out = xp.where(d == 0, v.array, (d > 0).astype(d.dtype))
    return make_leaf(out.astype(d.dtype, copy=False), a.device)


bind_methods(Tensor, __name__)
