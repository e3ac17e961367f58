"""Reductions over ``dim`` (int or tuple, negative dims allowed) with ``keepdim``, forward beside backward.

Also the ops that normalise along a dim (softmax, log_softmax) and cumsum. Ties in
max/min/amax/amin split the gradient as PyTorch does: evenly among the tied
elements for full reductions and amax/amin; to the returned index for
``max(dim)``/``min(dim)``.
"""

from __future__ import annotations

import collections
import contextlib
import weakref

from .. import backend as B
from .._state import extras, grad
from .._workspace import leave, left, work_array
from ..creation import zeros_like
from ..tensor import Tensor, make, make_leaf
from ._entry import extremum_arguments
from ._util import normalize_dims, refuse_dtype
from .declare import (
    BROADCASTING,
    BY_DIM,
    BY_DIM_REQUIRED,
    BatchedCall,
    batches_gradients,
    bind_methods,
    op,
    rules_saving,
)
from .elementwise import maximum, minimum, where
from .types import Dim, DimOrBool, NormOrder, Number

__all__ = [
    "sum",
    "mean",
    "var",
    "std",
    "max",
    "min",
    "amax",
    "amin",
    "argmax",
    "argmin",
    "prod",
    "logsumexp",
    "norm",
    "softmax",
    "log_softmax",
    "cumsum",
]

MaxResult = collections.namedtuple("max", ["values", "indices"])
MinResult = collections.namedtuple("min", ["values", "indices"])


# ---------------------------------------------------------------- shape helpers
def _keepdim_shape(shape: tuple, axes: tuple) -> tuple:
    return tuple(1 if i in axes else n for i, n in enumerate(shape))


def _expand_back(g: Tensor, shape: tuple, axes: tuple, keepdim: bool) -> Tensor:
    """Undo a reduction's shape change on the gradient: re-insert dims, then broadcast."""
    if not keepdim and g.array.ndim:  # a 0-d gradient (a full reduction) expands as it is
        g = g.reshape(_keepdim_shape(shape, axes))
    return g.expand(shape)


def _keep(t: Tensor, shape: tuple, axes: tuple, keepdim: bool) -> Tensor:
    """A reduced tensor in its keepdim shape (so it broadcasts against the input)."""
    return t if keepdim else t.reshape(_keepdim_shape(shape, axes))


def _axes(dim, ndim: int) -> tuple:
    """Reduced axes; None and an empty tuple or list all mean every dim, as in PyTorch."""
    if isinstance(dim, (tuple, list)) and len(dim) == 0:
        dim = None
    return normalize_dims(dim, ndim)


def _count(shape: tuple, axes: tuple) -> int:
    n = 1
    for ax in axes:
        n *= shape[ax]
    return n


def _as_float(a: Tensor, dtype=None):
    """Data for ops that promote integers to the default float dtype (logsumexp, softmax)."""
    d = a.array if dtype is None else a.array.astype(B.to_dtype(dtype))
    return d if d.dtype.kind == "f" else d.astype(B.get_default_dtype())


def _const(a: Tensor, arr) -> Tensor:
    return make_leaf(arr, a.device)


def _check_nonempty(d, axes: tuple, op: str, dim) -> None:
    if d.size:
        return
    if dim is None:
        raise RuntimeError(
            f"{op}(): Expected reduction dim to be specified for input.numel() == 0. "
            "Specify the reduction dim with the 'dim' argument."
        )
    for ax in axes:
        if d.shape[ax] == 0:
            raise IndexError(f"{op}(): Expected reduction dim {ax} to have non-zero size.")


# ---------------------------------------------------------------- sum, mean, var, std
@batches_gradients
@op(batch=BY_DIM, methods="sum", saves=("axes", "keepdim", "shape"))
def sum(a: Tensor, dim: Dim = None, keepdim: bool = False, dtype=None) -> Tensor:  # noqa: A001  (torch.sum)
    """Sum over ``dim`` (all dims when None or empty). Integer and bool tensors sum to int64."""
    axes = _axes(dim, a.array.ndim)
    d = a.array
    out_dtype = B.to_dtype(dtype) if dtype is not None else (B.int64 if d.dtype.kind in "biu" else d.dtype)
    out = d.sum(axis=axes, keepdims=keepdim, dtype=out_dtype)
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(out, (a,), None, "sum")
    shape = d.shape

    def backward(g):
        return (_expand_back(g, shape, axes, keepdim),)

    def jvp(t):
        return t.sum(dim=axes, keepdim=keepdim)

    return make(out, (a,), backward, "sum", jvp)


@batches_gradients
@op(batch=BY_DIM, methods="mean", saves=("axes", "count", "keepdim", "shape"))
def mean(a: Tensor, dim: Dim = None, keepdim: bool = False, dtype=None) -> Tensor:
    """Mean over ``dim`` (all dims when None or empty); floating tensors only, as in PyTorch."""
    d = a.array
    if dtype is not None:
        d = d.astype(B.to_dtype(dtype))
    if d.dtype.kind != "f":
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {d.dtype}"
        )
    axes = _axes(dim, d.ndim)
    shape = d.shape
    count = _count(shape, axes)

    def backward(g):
        return (_expand_back(g, shape, axes, keepdim) / count,)

    def jvp(t):
        return t.mean(dim=axes, keepdim=keepdim)

    if count and d.dtype.itemsize >= 4:  # NumPy's mean is this sum and division, behind a Python-level wrapper
        out = d.sum(axis=axes, keepdims=keepdim) / count
    else:  # float16 sums in float32 inside mean; an empty mean warns as NumPy's does
        out = d.mean(axis=axes, keepdims=keepdim)
    return make(out, (a,), backward, "mean", jvp)


def _variance_args(op: str, dim, unbiased, correction):
    if isinstance(dim, bool):  # the legacy form x.var(False)
        dim, unbiased = None, dim
    if unbiased is not None and correction is not None:
        raise TypeError(f"{op}(): cannot pass both 'unbiased' and 'correction'; use 'correction' alone")
    if correction is None:
        correction = 0 if unbiased is False else 1
    return dim, correction


def _sum_sq_dev(a: Tensor, op: str, dim, correction, keepdim):
    d = a.array
    if d.dtype.kind != "f":
        raise RuntimeError("std and var only support floating point and complex dtypes")
    xp = a.device.xp
    axes = _axes(dim, d.ndim)
    dev = d - d.mean(axis=axes, keepdims=True)
    ss = (dev * dev).sum(axis=axes, keepdims=keepdim)
    dof = _count(d.shape, axes) - correction
    if dof > 0:
        var_arr = ss / dof
    else:  # as torch: 0/0 -> nan, x/0 -> inf, without NumPy's warnings
        var_arr = xp.where(ss > 0, xp.inf, xp.nan).astype(d.dtype)
    return axes, dof, var_arr


@batches_gradients
@op(batch=BY_DIM, methods="var", saves=("a", "axes", "keepdim", "scale", "shape"))
def var(a: Tensor, dim: DimOrBool = None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    """Variance over ``dim``: sum((a - mean)**2) / (N - correction).

    ``correction`` defaults to 1 (Bessel's correction); ``unbiased=False`` means
    correction 0. When N - correction <= 0 the result is inf (or nan), as in PyTorch.
    """
    dim, correction = _variance_args("var", dim, unbiased, correction)
    axes, dof, out = _sum_sq_dev(a, "var", dim, correction, keepdim)
    shape = a.array.shape
    scale = 2.0 / dof if dof > 0 else float("inf")

    def backward(g):
        centred = a - a.mean(dim=axes, keepdim=True)
        return (_expand_back(g, shape, axes, keepdim) * centred * scale,)

    def jvp(t):
        centred = a - a.mean(dim=axes, keepdim=True)
        return (centred * t).sum(dim=axes, keepdim=keepdim) * scale

    return make(out, (a,), backward, "var", jvp)


@batches_gradients
@op(batch=BY_DIM, methods="std", saves=("a", "axes", "keepdim", "out_ref", "scale", "shape"))
def std(a: Tensor, dim: DimOrBool = None, unbiased=None, keepdim: bool = False, *, correction=None) -> Tensor:
    """Standard deviation: the square root of ``var`` with the same arguments."""
    dim, correction = _variance_args("std", dim, unbiased, correction)
    axes, dof, variance = _sum_sq_dev(a, "std", dim, correction, keepdim)
    shape = a.array.shape
    scale = 1.0 / dof if dof > 0 else float("inf")

    def backward(g):
        centred = a - a.mean(dim=axes, keepdim=True)
        return (_expand_back(g / out_ref(), shape, axes, keepdim) * centred * scale,)

    def jvp(t):
        centred = a - a.mean(dim=axes, keepdim=True)
        std_of_a = ((centred * centred).sum(dim=axes, keepdim=keepdim) * scale).sqrt()
        return (centred * t).sum(dim=axes, keepdim=keepdim) * scale / std_of_a

    out = make(a.device.xp.sqrt(variance), (a,), backward, "std", jvp)
    out_ref = weakref.ref(out)
    return out


# ---------------------------------------------------------------- max, min, amax, amin
@rules_saving(("a", "axes", "keepdim", "out_ref", "shape"))
def _even_extremum(a: Tensor, dim, keepdim: bool, is_max: bool, op: str) -> Tensor:
    """max/min over ``axes``; the gradient is split evenly among the tied extreme elements."""
    d = a.array
    axes = _axes(dim, d.ndim)
    _check_nonempty(d, axes, op, dim)
    out_k = d.max(axis=axes, keepdims=True) if is_max else d.min(axis=axes, keepdims=True)
    shape = d.shape

    def backward(g):
        m = _keep(out_ref(), shape, axes, keepdim)
        hit = ((a == m) | (a.isnan() & m.isnan())).to(g.dtype)
        return (_expand_back(g, shape, axes, keepdim) * hit / hit.sum(dim=axes, keepdim=True),)

    def jvp(t):
        m = _const(a, out_k)
        hit = ((a == m) | (a.isnan() & m.isnan())).to(t.dtype)
        return (t * hit / hit.sum(dim=axes, keepdim=True)).sum(dim=axes, keepdim=keepdim)

    out = out_k if keepdim else out_k.reshape(tuple(n for i, n in enumerate(shape) if i not in axes))
    node = make(out, (a,), backward, op, jvp)
    out_ref = weakref.ref(node)
    return node


@rules_saving(("ax", "index", "keepdim", "positions", "shape"))
def _indexed_extremum(a: Tensor, dim, keepdim: bool, is_max: bool, op: str):
    """(values, indices) along one dim; the gradient goes to the returned index."""
    if isinstance(dim, (tuple, list)):
        raise TypeError(f"{op}(): dim must be an int, got {type(dim).__name__} (use a{op} for several dims)")
    if isinstance(dim, Tensor):  # a 0-d integer tensor was read as its int at op entry
        raise TypeError(f"{op}(): argument 'dim' must be int, not Tensor")
    d = a.array
    xp = a.device.xp
    result = MaxResult if is_max else MinResult
    if d.ndim == 0:
        normalize_dims(dim, 0)
        value = make(d.copy(), (a,), lambda g: (g,), op, lambda t: t)
        return result(value, make_leaf(xp.zeros((), dtype=B.int64), a.device))
    (ax,) = normalize_dims(dim, d.ndim)
    _check_nonempty(d, (ax,), op, dim)
    idx = xp.expand_dims((xp.argmax if is_max else xp.argmin)(d, axis=ax), ax)
    values = xp.take_along_axis(d, idx, axis=ax)
    shape = d.shape
    positions = make_leaf(xp.arange(shape[ax]).reshape((-1,) + (1,) * (len(shape) - ax - 1)), a.device)
    index = make_leaf(idx, a.device)

    def backward(g):
        return (_expand_back(g, shape, (ax,), keepdim) * (positions == index),)

    indices = idx if keepdim else idx.squeeze(ax)
    if not keepdim:
        values = values.squeeze(ax)

    def jvp(t):
        return (t * (positions == index)).sum(dim=ax, keepdim=keepdim)

    return result(make(values, (a,), backward, op, jvp), make_leaf(indices.astype(B.int64, copy=False), a.device))


def _elementwise_other(op: str, dim, other) -> bool:
    """Whether ``max``/``min`` is the elementwise one (``other`` given), refusing ``other`` with a dim."""
    if other is None:
        return False
    if dim is not None:
        raise TypeError(f"{op}() received an invalid combination of arguments: 'other' and 'dim' given together")
    return True


def _batched_extremum(call: BatchedCall):
    """``max``/``min``: with another tensor, elementwise; with ``dim``, a reduction; alone, over every dim."""
    args, kwargs = extremum_arguments(call.args, call.kwargs)  # a batched tensor's methods come here without op entry
    if isinstance(kwargs.get("other"), Tensor):
        return call.by_family(BROADCASTING, args, kwargs)
    if (kwargs["dim"] if "dim" in kwargs else (args[1] if len(args) > 1 else None)) is None:
        return call.run(amax if call.fn is max else amin, args[0])
    return call.by_family(BY_DIM, args, kwargs)


@op(batch=_batched_extremum, methods="max")
def max(a: Tensor, dim=None, keepdim: bool = False, *, other: Tensor | Number = None):  # noqa: A001  (torch.max)
    """The largest element; with ``dim``, a ``(values, indices)`` named tuple; with a tensor ``other``,
    ``maximum``. As PyTorch's overloads: ``a.max(t)`` is ``a.max(other=t)``; ``a.max(dim=t)`` and
    ``a.max(t, keepdim)`` read a 0-d integer tensor ``t`` as a dim (op entry, ``_entry``).

    ``a.max()`` splits the gradient evenly among tied maxima; ``a.max(dim)`` sends it
    to the index it returns (the first maximum).
    """
    if _elementwise_other("max", dim, other):
        return maximum(a, other)
    if dim is None:
        return _even_extremum(a, None, False, True, "max")
    return _indexed_extremum(a, dim, keepdim, True, "max")


@op(batch=_batched_extremum, methods="min")
def min(a: Tensor, dim=None, keepdim: bool = False, *, other: Tensor | Number = None):  # noqa: A001  (torch.min)
    """The smallest element; with ``dim``, a ``(values, indices)`` named tuple; with a tensor ``other``,
    ``minimum`` (arguments read as :func:`max`'s)."""
    if _elementwise_other("min", dim, other):
        return minimum(a, other)
    if dim is None:
        return _even_extremum(a, None, False, False, "min")
    return _indexed_extremum(a, dim, keepdim, False, "min")


@op(batch=BY_DIM, methods="amax")
def amax(a: Tensor, dim: Dim = (), keepdim: bool = False) -> Tensor:
    """Maximum over ``dim`` (int or tuple; all dims by default); ties share the gradient evenly."""
    return _even_extremum(a, dim, keepdim, True, "amax")


@op(batch=BY_DIM, methods="amin")
def amin(a: Tensor, dim: Dim = (), keepdim: bool = False) -> Tensor:
    """Minimum over ``dim`` (int or tuple; all dims by default); ties share the gradient evenly."""
    return _even_extremum(a, dim, keepdim, False, "amin")


def _arg_extremum(a: Tensor, dim, keepdim: bool, is_max: bool, op: str) -> Tensor:
    d = a.array
    if d.dtype.kind == "b":
        raise RuntimeError(f"{op}(): does not support bool input")
    xp = a.device.xp
    pick = xp.argmax if is_max else xp.argmin
    if dim is None:
        _check_nonempty(d, (), op, None)
        out = pick(d)
        if keepdim:
            out = out.reshape((1,) * d.ndim)
    elif d.ndim == 0:
        normalize_dims(dim, 0)
        out = xp.zeros((), dtype=B.int64)
    else:
        (ax,) = normalize_dims(dim, d.ndim)
        _check_nonempty(d, (ax,), op, dim)
        out = pick(d, axis=ax)
        if keepdim:
            out = xp.expand_dims(out, ax)
    return make_leaf(xp.asarray(out, dtype=B.int64), a.device)


def _batched_arg_extremum(call: BatchedCall):
    """``argmax``/``argmin`` without ``dim`` index the flattened entry."""
    if call.get("dim") is not None:
        return call.by_family(BY_DIM)
    v = call.value(call.args[0])
    if v is None or call.get("keepdim"):
        return call.loop()
    return call.wrap(call.run(call.fn, v.reshape(v.shape[0], -1), 1))


@op(batch=_batched_arg_extremum, methods="argmax")
def argmax(a: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the (first) maximum: over the flattened tensor, or along ``dim``. Not differentiable."""
    return _arg_extremum(a, dim, keepdim, True, "argmax")


@op(batch=_batched_arg_extremum, methods="argmin")
def argmin(a: Tensor, dim: int | None = None, keepdim: bool = False) -> Tensor:
    """Index of the (first) minimum: over the flattened tensor, or along ``dim``. Not differentiable."""
    return _arg_extremum(a, dim, keepdim, False, "argmin")


# ---------------------------------------------------------------- prod
def _prod_others(a: Tensor, axes: tuple, out_k: Tensor) -> Tensor:
    """For each element, the product of the other elements of its slice, as a differentiable expression.

    Without zeros this is out / a. With zeros, division would give nan, so the
    slices are handled by their number of zeros c (so that second derivatives
    stay exact too): c == 1: the zero's partner product, c == 2: the other zero
    times the rest, c >= 3: zero.
    """
    d = a.array
    zeros = d == 0
    if not zeros.any():
        return out_k / a
    z = _const(a, zeros)
    c = zeros.sum(axis=axes, keepdims=True)
    a_nz = where(z, 1.0, a)
    p_nz = a_nz.prod(dim=axes, keepdim=True)
    zsum = where(z, a, 0.0).sum(dim=axes, keepdim=True)  # the zero elements: value 0, but not their gradients
    one_zero = where(z, p_nz, zsum * p_nz / a_nz)
    two_zeros = where(z, (zsum - a) * p_nz, 0.0)
    shape = d.shape
    xp = a.device.xp
    return where(
        _const(a, xp.broadcast_to(c == 0, shape)),
        p_nz / a_nz,
        where(
            _const(a, xp.broadcast_to(c == 1, shape)),
            one_zero,
            where(_const(a, xp.broadcast_to(c == 2, shape)), two_zeros, 0.0),
        ),
    )


@op(batch=BY_DIM, methods="prod", saves=("a", "axes", "keepdim", "out_ref", "shape"))
def prod(a: Tensor, dim: Dim = None, keepdim: bool = False, dtype=None) -> Tensor:
    """Product over ``dim`` (all dims when None); integer and bool tensors give int64.

    The gradient is exact when the input holds zeros (no division by zero).
    """
    d = a.array
    axes = _axes(dim, d.ndim)
    out_dtype = B.to_dtype(dtype) if dtype is not None else (B.int64 if d.dtype.kind in "biu" else d.dtype)
    shape = d.shape

    def backward(g):
        others = _prod_others(a, axes, _keep(out_ref(), shape, axes, keepdim))
        return (_expand_back(g, shape, axes, keepdim) * others,)

    def jvp(t):
        others = _prod_others(a, axes, a.prod(dim=axes, keepdim=True))
        return (t * others).sum(dim=axes, keepdim=keepdim)

    out = make(d.prod(axis=axes, keepdims=keepdim, dtype=out_dtype), (a,), backward, "prod", jvp)
    out_ref = weakref.ref(out)
    return out


# ---------------------------------------------------------------- logsumexp, norm
def _quiet(xp):
    errstate = getattr(xp, "errstate", None)
    return errstate(divide="ignore") if errstate is not None else contextlib.nullcontext()


def _stable_shift(xp, d, axes: tuple):
    """The max over ``axes`` (keepdim), with non-finite maxima replaced by 0 so that d - m stays finite."""
    if d.size == 0:
        return xp.zeros(_keepdim_shape(d.shape, axes), dtype=d.dtype)
    m = d.max(axis=axes, keepdims=True)
    return xp.where(xp.isfinite(m), m, 0)


@batches_gradients
@op(batch=BY_DIM, methods="logsumexp", saves=("a", "axes", "keepdim", "out_ref", "shape"))
def logsumexp(a: Tensor, dim: Dim = None, keepdim: bool = False) -> Tensor:
    """log(sum(exp(a))) over ``dim``, computed stably (shifted by the max); its gradient is softmax."""
    xp = a.device.xp
    d = _as_float(a)
    axes = _axes(dim, d.ndim)
    m = _stable_shift(xp, d, axes)
    with _quiet(xp):  # log(0) = -inf for all -inf slices, as in torch, without NumPy's warning
        out = xp.log(xp.exp(d - m).sum(axis=axes, keepdims=True)) + m
    if not keepdim:
        out = out.reshape(tuple(n for i, n in enumerate(d.shape) if i not in axes))
    shape = d.shape

    def backward(g):
        y = _keep(out_ref(), shape, axes, keepdim)
        return (_keep(g, shape, axes, keepdim) * (a - y).exp(),)

    def jvp(t):
        return (t * (a - a.logsumexp(axes, keepdim=True)).exp()).sum(dim=axes, keepdim=keepdim)

    node = make(out, (a,), backward, "logsumexp", jvp)
    out_ref = weakref.ref(node)
    return node


def _norm_order(p):
    if p is None:
        return 2
    if isinstance(p, Tensor) and p.array.ndim == 0:
        p = p.array.item()
    if isinstance(p, bool):
        p = int(p)
    if p == "fro":
        return 2
    if isinstance(p, str) or isinstance(p, bool) or not isinstance(p, (int, float)):
        raise RuntimeError(f"norm(): unsupported order p={p!r}; expected a number, inf, -inf or 'fro'")
    return p


@op(batch=BY_DIM, methods="norm", saves=("a", "axes", "keepdim", "out_ref", "p", "reached", "shape"))
def norm(a: Tensor, p: NormOrder = 2, dim: Dim = None, keepdim: bool = False, dtype=None) -> Tensor:
    """Vector p-norm over ``dim`` (all dims when None): p = 2 (default, also 'fro'), 1, inf, -inf, 0 or any number.

    At a zero norm the gradient is 0 (a subgradient), as in PyTorch.
    """
    p = _norm_order(p)
    d = a.array if dtype is None else a.array.astype(B.to_dtype(dtype))
    if d.dtype.kind != "f":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {d.dtype}")
    xp = a.device.xp
    axes = _axes(dim, d.ndim)
    ab = xp.abs(d)
    inf = float("inf")
    if p == inf or p == -inf:
        _check_nonempty(d, axes, "norm", dim)
        out = ab.max(axis=axes, keepdims=keepdim) if p > 0 else ab.min(axis=axes, keepdims=keepdim)
    elif p == 0:
        out = (d != 0).sum(axis=axes, keepdims=keepdim).astype(d.dtype)
    elif p == 1:
        out = ab.sum(axis=axes, keepdims=keepdim)
    elif p == 2:
        out = xp.sqrt((d * d).sum(axis=axes, keepdims=keepdim))
    else:
        out = ((ab**p).sum(axis=axes, keepdims=keepdim)) ** (1.0 / p)
    shape = d.shape

    # one rule per order, chosen here; _keep puts back the dims the norm summed over, and a zero norm
    # gets a zero gradient instead of 0/0
    if p == 0:

        def backward(g):
            return (None,)  # a count: no gradient flows (PyTorch leaves .grad None)

        def jvp(t):
            return zeros_like(t).sum(dim=axes, keepdim=keepdim)

    elif p == 1:

        def backward(g):
            return (_keep(g, shape, axes, keepdim) * a.sign(),)

        def jvp(t):
            return (t * a.sign()).sum(dim=axes, keepdim=keepdim)

    elif p == inf or p == -inf:
        reached = _const(a, out.reshape(tuple(1 if ax in axes else n for ax, n in enumerate(d.shape))))

        def backward(g):
            hit = (a.abs() == reached).to(g.dtype)  # the entries that reach the norm share g
            return (_keep(g, shape, axes, keepdim) * a.sign() * hit / hit.sum(dim=axes, keepdim=True),)

        def jvp(t):
            hit = (a.abs() == reached).to(t.dtype)
            return (t * a.sign() * hit / hit.sum(dim=axes, keepdim=True)).sum(dim=axes, keepdim=keepdim)

    elif p == 2:

        def backward(g):
            norm_kept = _keep(out_ref(), shape, axes, keepdim)
            return (_keep(g, shape, axes, keepdim) * a / where(norm_kept == 0, 1.0, norm_kept),)

        def jvp(t):
            norm_kept = a.norm(2, dim=axes, keepdim=True)
            return (t * a / where(norm_kept == 0, 1.0, norm_kept)).sum(dim=axes, keepdim=keepdim)

    else:

        def backward(g):
            norm_kept = _keep(out_ref(), shape, axes, keepdim)
            safe = where(norm_kept == 0, 1.0, norm_kept)
            return (_keep(g, shape, axes, keepdim) * a.sign() * a.abs() ** (p - 1) / safe ** (p - 1),)

        def jvp(t):
            norm_kept = a.norm(p, dim=axes, keepdim=True)
            safe = where(norm_kept == 0, 1.0, norm_kept)
            return (t * a.sign() * a.abs() ** (p - 1) / safe ** (p - 1)).sum(dim=axes, keepdim=keepdim)

    node = make(out, (a,), backward, "norm", jvp)
    out_ref = weakref.ref(node)
    return node


# ---------------------------------------------------------------- softmax, log_softmax, cumsum
def _one_dim(a: Tensor, dim, op: str) -> tuple:
    if dim is None:
        raise TypeError(f"{op}(): argument 'dim' must be an int, not None (name the dim to normalise over)")
    return normalize_dims(dim, a.array.ndim)


@batches_gradients
@op(batch=BY_DIM_REQUIRED, methods="softmax", saves=("axes", "out_ref"))
def softmax(a: Tensor, dim: int, dtype=None) -> Tensor:
    """exp(a) / sum(exp(a)) along ``dim``, computed stably; backward y * (g - sum(g * y))."""
    axes = _one_dim(a, dim, "softmax")
    if dtype is None:
        refuse_dtype(a, "softmax_lastdim_kernel_impl", "biu")
    xp = a.device.xp
    d = _as_float(a, dtype)
    e = xp.exp(d - _stable_shift(xp, d, axes))
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(e / e.sum(axis=axes, keepdims=True), (a,), None, "softmax")

    def backward(g):
        y = out_ref()
        return ((g - (g * y).sum(dim=axes, keepdim=True)) * y,)

    def jvp(t):
        y = a.softmax(axes[0])
        return (t - (t * y).sum(dim=axes, keepdim=True)) * y

    out = make(e / e.sum(axis=axes, keepdims=True), (a,), backward, "softmax", jvp)
    out_ref = weakref.ref(out)
    return out


#: log_softmax's work array: its exponentials, left for log_softmax_grad
_EXPONENTIALS = "log_softmax exp(a - max)"


@op(batch=BY_DIM_REQUIRED, methods="log_softmax", saves=("axes", "out_ref"))
def log_softmax(a: Tensor, dim: int, dtype=None) -> Tensor:
    """a - logsumexp(a) along ``dim``, computed stably; backward g - softmax * sum(g)."""
    axes = _one_dim(a, dim, "log_softmax")
    if dtype is None:
        refuse_dtype(a, "log_softmax_lastdim_kernel_impl", "biu")
    xp = a.device.xp
    d = _as_float(a, dtype)
    # one new array, the result: the shifted values, less each slice's log of summed exponentials; those are
    # made in a work array kept between calls and left there for the backward (log_softmax_grad). The result
    # is written into an array of its own: NumPy gives a 0-d operation's result as a scalar, not an array
    out_arr = xp.subtract(d, _stable_shift(xp, d, axes), out=xp.empty(d.shape, d.dtype))
    exps = xp.exp(out_arr, out=work_array(xp, _EXPONENTIALS, d.shape, d.dtype))
    sums = exps.sum(axis=axes, keepdims=True)
    out_arr -= xp.log(sums)
    leave(_EXPONENTIALS, exps, owner=out_arr, note=sums)

    def backward(g):
        return (log_softmax_grad(g, out_ref(), axes),)

    def jvp(t):
        return t - (t * a.softmax(axes[0])).sum(dim=axes, keepdim=True)

    out = make(out_arr, (a,), backward, "log_softmax", jvp)
    out_ref = weakref.ref(out)
    return out


@rules_saving(("g", "y", "axes"))
def log_softmax_grad(g: Tensor, y: Tensor, axes: tuple) -> Tensor:
    """dX = g - exp(y) * sum(g): log_softmax's input gradient from ``g``, the gradient of its output ``y``, the sum
    over ``axes`` (kept).

    One node that makes one array, where written as Tensor ops it made three of the input's size; exp(y) is
    the forward's exponentials over their sums while its work array still holds them. Its rule: in ``g``,
    ``G - sum(G * exp(y))`` (the Jacobian I - softmax 1^T, transposed); in ``y``, ``-G * exp(y) * sum(g)``."""
    xp = g.device.xp
    g_sums = g.array.sum(axis=axes, keepdims=True)
    found = left(_EXPONENTIALS, y.array)
    # written into an array of its own: NumPy gives a 0-d operation's result as a scalar, not an array
    dx = xp.empty(y.shape, dtype=xp.result_type(g.array, y.array))
    if found is not None and found[1].all():  # (a slice of only -inf sums to 0: exp(y) gives its NaN quietly)
        exps, sums = found
        xp.multiply(exps, g_sums / sums, out=dx)
    else:
        xp.exp(y.array, out=dx)
        dx *= g_sums
    xp.subtract(g.array, dx, out=dx)

    def backward(G):
        return (
            lambda: G - (G * y.exp()).sum(dim=axes, keepdim=True),
            lambda: -G * y.exp() * g.sum(dim=axes, keepdim=True),
        )

    def jvp(tg, ty):
        return log_softmax_grad(tg, y, axes) - ty * y.exp() * g.sum(dim=axes, keepdim=True)

    return make(dx, (g, y), backward, "log_softmax_grad", jvp)


@op(batch=BY_DIM_REQUIRED, methods="cumsum", saves=("ax",))
def cumsum(a: Tensor, dim: int, dtype=None) -> Tensor:
    """Running sum along ``dim``; integer and bool tensors give int64. Backward: a reversed running sum."""
    d = a.array
    out_dtype = B.to_dtype(dtype) if dtype is not None else (B.int64 if d.dtype.kind in "biu" else d.dtype)
    if d.ndim == 0:
        normalize_dims(dim, 0)
        return make(d.astype(out_dtype), (a,), lambda g: (g,), "cumsum", lambda t: t)
    (ax,) = normalize_dims(dim, d.ndim)

    def backward(g):
        return (g.sum(dim=ax, keepdim=True) - g.cumsum(ax) + g,)

    def jvp(t):
        return t.cumsum(ax)

    return make(a.device.xp.cumsum(d, axis=ax, dtype=out_dtype), (a,), backward, "cumsum", jvp)


bind_methods(Tensor, __name__)
