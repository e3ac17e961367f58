"""Counting values: unique, unique_consecutive and bincount. Neither is differentiable (their results are integers or
a set of input values picked by a comparison, as in PyTorch, whose unique has no derivative)."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make_leaf
from ._util import check_int, check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op

__all__ = ["unique", "unique_consecutive", "bincount"]


@op(batch=LOOP, methods="unique")
def unique(
    input: Tensor,  # noqa: A002  (torch's argument name)
    sorted: bool = True,  # noqa: A002
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
):
    """The unique elements of ``input`` (or unique slices along ``dim``), in ascending order.

    With ``return_inverse``, also where each input element (slice) went; with ``return_counts``,
    how often each unique value occurs. Returns a tensor, or a tuple when either flag is set.
    ``sorted=False`` is accepted; the result is sorted all the same.
    """
    a = check_tensor(input, "unique", "input")
    xp = a.device.xp
    d = a.array
    axis = None
    if dim is not None:
        (axis,) = normalize_dims(check_int(dim, "unique", "dim"), d.ndim) or (0,)
        if d.ndim == 0:
            d = d.reshape(1)
    values, inverse, counts = xp.unique(d, return_inverse=True, return_counts=True, axis=axis)
    if axis is None:
        inverse = inverse.reshape(d.shape)
    else:
        inverse = inverse.reshape(-1)
    out = [make_leaf(values, a.device)]
    if return_inverse:
        out.append(make_leaf(inverse.astype(B.int64, copy=False), a.device))
    if return_counts:
        out.append(make_leaf(counts.astype(B.int64, copy=False), a.device))
    return out[0] if len(out) == 1 else tuple(out)


@op(batch=LOOP, methods="unique_consecutive")
def unique_consecutive(
    input: Tensor,  # noqa: A002  (torch's argument name)
    return_inverse: bool = False,
    return_counts: bool = False,
    dim: int | None = None,
):
    """``input`` with each run of equal elements (or equal slices along ``dim``) kept once, in order:
    ``[1, 1, 2, 2, 3, 1, 1]`` gives ``[1, 2, 3, 1]``. With ``return_inverse``, the run each element
    (slice) belongs to; with ``return_counts``, each run's length. A tuple when either flag is set.
    """
    a = check_tensor(input, "unique_consecutive", "input")
    xp = a.device.xp
    d = a.array
    if dim is None:
        rows = d.reshape(-1, 1)
        axis, inverse_shape = 0, d.shape
    else:
        if d.ndim == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        (axis,) = normalize_dims(check_int(dim, "unique_consecutive", "dim"), d.ndim)
        rows = xp.moveaxis(d, axis, 0).reshape(d.shape[axis], -1)
        inverse_shape = (d.shape[axis],)
    starts = xp.ones(rows.shape[0], dtype=bool)  # where a run begins: a row unlike the one before
    starts[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    first = xp.flatnonzero(starts)
    values = d.reshape(-1)[first] if dim is None else xp.take(d, first, axis=axis)
    out = [make_leaf(values, a.device)]
    if return_inverse:
        out.append(make_leaf((xp.cumsum(starts) - 1).reshape(inverse_shape).astype(B.int64), a.device))
    if return_counts:
        out.append(make_leaf(xp.diff(xp.append(first, rows.shape[0])).astype(B.int64), a.device))
    return out[0] if len(out) == 1 else tuple(out)


@op(batch=LOOP, methods="bincount")
def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:  # noqa: A002
    """How often each value 0, 1, ... occurs in a 1-D non-negative integer tensor (summing ``weights``).

    The result has ``max(input) + 1`` entries, at least ``minlength``: int64 counts, or the
    weights' sums (float64 for integer weights, as in PyTorch). Not differentiable.
    """
    a = check_tensor(input, "bincount", "input")
    d = a.array
    xp = a.device.xp
    if d.ndim != 1 or d.dtype.kind not in "iu" or (d.size and int(d.min()) < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if weights is None:
        return make_leaf(xp.bincount(d, minlength=minlength).astype(B.int64), a.device)
    w = weights.array
    if w.ndim != 1 or w.shape[0] != d.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    out_dtype = w.dtype if w.dtype.kind == "f" else B.float64
    return make_leaf(xp.bincount(d, weights=w, minlength=minlength).astype(out_dtype), a.device)


bind_methods(Tensor, __name__)
