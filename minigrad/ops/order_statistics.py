"""Order statistics: median, nanmedian, kthvalue, mode, quantile, nanquantile, aminmax, and the
non-differentiable searchsorted, bucketize and histc.

The differentiable ones pick from ``sort``'s output with ``gather`` (quantile interpolates between
two such picks), so the gradient goes to the elements picked, as PyTorch's does.
"""

from __future__ import annotations

import collections

from .. import backend as B
from ..tensor import Tensor, make_leaf
from ._util import check_int, check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op
from .elementwise import where
from .types import Dim, Number

__all__ = [
    "median",
    "nanmedian",
    "kthvalue",
    "mode",
    "quantile",
    "nanquantile",
    "aminmax",
    "searchsorted",
    "bucketize",
    "histc",
]

MedianResult = collections.namedtuple("median", ["values", "indices"])
NanmedianResult = collections.namedtuple("nanmedian", ["values", "indices"])
KthvalueResult = collections.namedtuple("kthvalue", ["values", "indices"])
ModeResult = collections.namedtuple("mode", ["values", "indices"])
AminmaxResult = collections.namedtuple("aminmax", ["min", "max"])

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _axis(a: Tensor, dim, op: str) -> int:
    return (normalize_dims(check_int(dim, op, "dim"), max(a.array.ndim, 1)) or (0,))[0]


def _pick(a: Tensor, axis: int, rank, keepdim: bool):
    """Values and indices of ``a`` at sorted position ``rank`` (an int array, kept dims) along ``axis``."""
    values, indices = a.sort(axis)
    at = make_leaf(rank.astype(B.int64), a.device)
    picked, where_from = values.gather(axis, at), indices.gather(axis, at)
    if not keepdim:
        picked, where_from = picked.squeeze(axis), where_from.squeeze(axis)
    return picked, where_from


def _valid_count(a: Tensor, axis: int):
    xp = a.device.xp
    d = a.array
    return (
        xp.sum(~xp.isnan(d), axis=axis, keepdims=True)
        if d.dtype.kind == "f"
        else xp.full(d.shape[:axis] + (1,) + d.shape[axis + 1 :], d.shape[axis])
    )


def _median(input: Tensor, dim, keepdim: bool, op: str, result, ignore_nan: bool):  # noqa: A002
    a = check_tensor(input, op, "input")
    whole = dim is None
    if whole:
        a = a.reshape(-1)
    axis = 0 if whole else _axis(a, dim, op)
    if a.array.ndim == 0:
        a = a.reshape(1)
    if a.array.shape[axis] == 0:
        if not whole:
            raise IndexError(f"{op}(): Expected reduction dim {axis} to have non-zero size.")
        return (a.sum() * float("nan")).to(a.dtype) if a.array.dtype.kind == "f" else a.sum()
    valid = _valid_count(a, axis)
    n = a.array.shape[axis]
    rank = (valid - 1) // 2 if ignore_nan else a.device.xp.where(valid < n, valid, (n - 1) // 2)
    rank = a.device.xp.maximum(rank, 0)
    values, indices = _pick(a, axis, rank, keepdim and not whole)
    if whole:
        return values.reshape(())
    if input.array.ndim == 0:
        return result(values.reshape(()), indices.reshape(()))
    return result(values, indices)


@op(batch=LOOP, methods="median")
def median(input: Tensor, dim: Dim = None, keepdim: bool = False):  # noqa: A002
    """The lower of the two middle values (a NaN if the slice has one); along ``dim``: (values, indices)."""
    return _median(input, dim, keepdim, "median", MedianResult, ignore_nan=False)


@op(batch=LOOP, methods="nanmedian")
def nanmedian(input: Tensor, dim: Dim = None, keepdim: bool = False):  # noqa: A002
    """``median`` of the values that are not NaN (NaN for a slice of NaNs only)."""
    return _median(input, dim, keepdim, "nanmedian", NanmedianResult, ignore_nan=True)


@op(batch=LOOP, methods="kthvalue")
def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):  # noqa: A002
    """The k-th smallest value along ``dim`` (k from 1) and its index: (values, indices)."""
    a = check_tensor(input, "kthvalue", "input")
    axis = _axis(a, dim, "kthvalue")
    x = a.reshape(1) if a.array.ndim == 0 else a
    if not 1 <= k <= x.array.shape[axis]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {axis}")
    rank = a.device.xp.full(x.array.shape[:axis] + (1,) + x.array.shape[axis + 1 :], k - 1)
    values, indices = _pick(x, axis, rank, keepdim)
    if a.array.ndim == 0:
        values, indices = values.reshape(()), indices.reshape(())
    return KthvalueResult(values, indices)


@op(batch=LOOP, methods="mode")
def mode(input: Tensor, dim: int = -1, keepdim: bool = False):  # noqa: A002
    """The most frequent value along ``dim`` (the smallest among equally frequent ones) and the index of
    its last occurrence: (values, indices)."""
    a = check_tensor(input, "mode", "input")
    axis = _axis(a, dim, "mode")
    xp = a.device.xp
    x = a.reshape(1) if a.array.ndim == 0 else a
    rows = x.array.swapaxes(axis, -1).reshape(-1, x.array.shape[axis])
    found = xp.zeros(rows.shape[0], dtype=B.int64)
    for r in range(rows.shape[0]):  # one row at a time: a row's counts need its own unique values
        uniq, counts = xp.unique(rows[r], return_counts=True)
        best = uniq[xp.argmax(counts)]
        found[r] = xp.flatnonzero(rows[r] == best)[-1]
    shape = x.array.swapaxes(axis, -1).shape[:-1]
    index = make_leaf(xp.moveaxis(found.reshape(shape + (1,)), -1, axis), a.device)
    values, indices = x.gather(axis, index), index
    if not keepdim or a.array.ndim == 0:
        values, indices = values.squeeze(axis), indices.squeeze(axis)
    return ModeResult(values, indices)


def _quantile(input: Tensor, q, dim, keepdim: bool, interpolation: str, op: str, ignore_nan: bool) -> Tensor:  # noqa: A002
    a = check_tensor(input, op, "input")
    if a.array.dtype.kind != "f":
        raise RuntimeError(f"{op}() input tensor must be either float or double dtype")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(
            f"{op}() interpolation must be one of linear, lower, higher, midpoint or nearest, but got {interpolation}"
        )
    xp = a.device.xp
    scalar_q = not isinstance(q, Tensor)
    qs = xp.asarray([q], dtype=a.array.dtype) if scalar_q else q.array.astype(a.array.dtype)
    if qs.ndim > 1:
        raise RuntimeError(f"{op}() q must be a scalar or 1D tensor")
    if bool(((qs < 0) | (qs > 1)).any()):
        shown = q if scalar_q else "values outside it"
        raise RuntimeError(f"{op}() q must be in the range [0, 1] but got {shown}")
    x = a.reshape(-1) if dim is None else (a.reshape(1) if a.array.ndim == 0 else a)
    axis = 0 if dim is None else _axis(a, dim, op)
    if x.array.shape[axis] == 0:
        raise IndexError(f"{op}() input tensor must be non-empty")
    moved = x.movedim(axis, -1)
    n = moved.array.shape[-1]
    ordered = moved.sort(-1).values
    d = moved.array
    valid = xp.sum(~xp.isnan(d), axis=-1, keepdims=True)
    count = valid if ignore_nan else xp.full(valid.shape, n)
    ranks = qs * (xp.maximum(count, 1) - 1)  # [..., len(q)]
    if interpolation == "nearest":
        ranks = xp.round(ranks)
    low = xp.floor(ranks).astype(B.int64)
    high = xp.ceil(ranks).astype(B.int64)
    if interpolation == "lower":
        high = low
    elif interpolation == "higher":
        low = high
    lower = ordered.gather(-1, make_leaf(low, a.device))
    upper = ordered.gather(-1, make_leaf(high, a.device))
    weight = 0.5 if interpolation == "midpoint" else make_leaf((ranks - low).astype(a.array.dtype), a.device)
    out = lower + (upper - lower) * weight
    no_answer = (valid == 0) if ignore_nan else (valid < n)
    out = where(make_leaf(xp.broadcast_to(no_answer, out.array.shape), a.device), float("nan"), out)
    out = out.movedim(-1, 0)  # q's dim first, as PyTorch puts it
    if keepdim:
        out = out.unsqueeze(axis + 1) if dim is not None else out.reshape(out.array.shape[:1] + (1,) * a.array.ndim)
    return out.squeeze(0) if scalar_q else out


@op(batch=LOOP, methods="quantile")
def quantile(input: Tensor, q, dim: Dim = None, keepdim: bool = False, *, interpolation: str = "linear") -> Tensor:  # noqa: A002
    """The q-th quantiles (q a number or a 1-D tensor in [0, 1]) along ``dim`` or of all elements,
    interpolating between the two nearest ranks; NaN where the slice has a NaN. A tensor ``q``'s
    dim comes first in the result."""
    return _quantile(input, q, dim, keepdim, interpolation, "quantile", ignore_nan=False)


@op(batch=LOOP, methods="nanquantile")
def nanquantile(input: Tensor, q, dim: Dim = None, keepdim: bool = False, *, interpolation: str = "linear") -> Tensor:  # noqa: A002
    """``quantile`` of the values that are not NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, "nanquantile", ignore_nan=True)


@op(batch=LOOP, methods="aminmax")
def aminmax(input: Tensor, *, dim: int | None = None, keepdim: bool = False):  # noqa: A002
    """The smallest and largest values (along ``dim``): (min, max)."""
    a = check_tensor(input, "aminmax", "input")
    if a.array.size == 0 and dim is None:
        raise RuntimeError(
            "aminmax(): cannot compute aminmax over an empty dimension as the operation has no identity."
        )
    dims = () if dim is None else dim
    return AminmaxResult(a.amin(dims, keepdim), a.amax(dims, keepdim))


# ---------------------------------------------------------------- not differentiable
def _sides(right: bool, side) -> str:
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError(
                "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True"
            )
        return side
    return "right" if right else "left"


@op(batch=LOOP)
def searchsorted(
    sorted_sequence: Tensor,
    input: Tensor | Number,
    *,
    out_int32: bool = False,
    right: bool = False,
    side=None,
    sorter=None,
) -> Tensor:  # noqa: A002
    """For each value of ``input``, the index where it would be inserted in ``sorted_sequence`` (the last
    dim, row by row when it has more) to keep it sorted; ``right``/``side='right'`` after equal values."""
    seq = check_tensor(sorted_sequence, "searchsorted", "sorted_sequence")
    xp = seq.device.xp
    scalar = not isinstance(input, Tensor)
    values = xp.asarray(input, dtype=seq.array.dtype) if scalar else input.array
    how = _sides(right, side)
    s = seq.array
    if sorter is not None:
        s = xp.take_along_axis(s, sorter.array, axis=-1)
    out_dtype = B.int32 if out_int32 else B.int64
    if s.ndim == 1:
        return make_leaf(xp.searchsorted(s, values, side=how).astype(out_dtype), seq.device)
    if scalar or s.shape[:-1] != values.shape[:-1]:
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
            f"tensor and input value tensor must match, but we got boundaries tensor {list(s.shape)} and input value "
            f"tensor {list(values.shape)}"
        )
    rows, vals = s.reshape(-1, s.shape[-1]), values.reshape(-1, values.shape[-1])
    out = xp.stack([xp.searchsorted(rows[r], vals[r], side=how) for r in range(rows.shape[0])])
    return make_leaf(out.reshape(values.shape).astype(out_dtype), seq.device)


@op(batch=LOOP)
def bucketize(input: Tensor, boundaries: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:  # noqa: A002
    """The bucket of each value: i with boundaries[i-1] < x <= boundaries[i] (``right``: <= x <)."""
    b = check_tensor(boundaries, "bucketize", "boundaries")
    if b.array.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({b.array.ndim})")
    return searchsorted(b, input, out_int32=out_int32, right=right)


@op(batch=LOOP, methods="histc")
def histc(input: Tensor, bins: int = 100, min: Tensor | Number | None = 0, max: Tensor | Number | None = 0) -> Tensor:  # noqa: A002
    """A histogram of ``bins`` equal bins over [min, max] (the data's range when both are 0); elements
    outside are ignored. Same dtype as ``input``; not differentiable."""
    a = check_tensor(input, "histc", "input")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    xp = a.device.xp
    d = a.array
    lo, hi = float(min), float(max)
    if lo == hi and d.size:
        lo, hi = float(xp.min(d)), float(xp.max(d))
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if lo > hi:
        raise RuntimeError("torch.histc: max must be larger than min")
    counts, _ = xp.histogram(d, bins=bins, range=(lo, hi))
    return make_leaf(counts.astype(d.dtype), a.device)


bind_methods(Tensor, __name__)
