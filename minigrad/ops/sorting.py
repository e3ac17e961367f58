"""Sorting along a dim: sort, argsort, topk.

The values are an indexing op (``index_with_key``) with the sorting permutation as its key, so
the rule is the scatter of the gradient back to where each value came from. Orders follow
PyTorch: NaN counts as the largest value, and the sort is stable (ties keep their order),
descending included.
"""

from __future__ import annotations

import collections

from .. import backend as B
from ..tensor import Tensor, make_leaf
from ._util import check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op
from .indexing import index_with_key

__all__ = ["sort", "argsort", "topk", "msort"]

SortResult = collections.namedtuple("sort", ["values", "indices"])
TopkResult = collections.namedtuple("topk", ["values", "indices"])


def _axis(a: Tensor, dim: int) -> int:
    """``dim`` normalised; a 0-d tensor sorts as one element along dim 0 or -1."""
    (ax,) = normalize_dims(dim, a.array.ndim) or (0,)
    return ax


def _order(xp, d, ax: int, descending: bool):
    """The stable sorting permutation of ``d`` along ``ax`` (NaN largest, as in PyTorch)."""
    if not descending:
        return xp.argsort(d, axis=ax, kind="stable")
    # Stable descending: sort the reversed slice ascending, then reverse back (NaN comes first).
    n = d.shape[ax]
    reversed_order = xp.argsort(xp.flip(d, axis=ax), axis=ax, kind="stable")
    return (n - 1) - xp.flip(reversed_order, axis=ax)


def _take_key(xp, order, ax: int) -> tuple:
    """The advanced-indexing key that picks ``order``'s entries along ``ax`` (take_along_axis)."""
    return tuple(
        order if i == ax else xp.arange(n).reshape((-1,) + (1,) * (order.ndim - i - 1))
        for i, n in enumerate(order.shape)
    )


def _picked(a: Tensor, order, ax: int, op: str) -> Tensor:
    if a.array.ndim == 0:
        return index_with_key(a, (), op)
    return index_with_key(a, _take_key(a.device.xp, order, ax), op)


def _indices(a: Tensor, order) -> Tensor:
    return make_leaf(order.astype(B.int64, copy=False), a.device)


@op(batch=LOOP, methods="sort")
def sort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool | None = False):  # noqa: A002
    """``(values, indices)`` of ``input`` sorted along ``dim``; a named tuple, as ``torch.sort``.

    Always stable (``stable=True`` is accepted and changes nothing). The gradient of the values
    goes back to the element each came from.
    """
    a = check_tensor(input, "sort", "input")
    ax = _axis(a, dim)
    xp = a.device.xp
    if a.array.ndim == 0:
        return SortResult(_picked(a, None, ax, "sort"), make_leaf(xp.zeros((), dtype=B.int64), a.device))
    order = _order(xp, a.array, ax, descending)
    return SortResult(_picked(a, order, ax, "sort"), _indices(a, order))


@op(batch=LOOP, methods="argsort")
def argsort(input: Tensor, dim: int = -1, descending: bool = False, *, stable: bool | None = False) -> Tensor:  # noqa: A002
    """The indices that sort ``input`` along ``dim`` (stable). Not differentiable."""
    a = check_tensor(input, "argsort", "input")
    ax = _axis(a, dim)
    xp = a.device.xp
    if a.array.ndim == 0:
        return make_leaf(xp.zeros((), dtype=B.int64), a.device)
    return _indices(a, _order(xp, a.array, ax, descending))


@op(batch=LOOP, methods="msort")
def msort(input: Tensor) -> Tensor:  # noqa: A002
    """``input`` sorted along dim 0 (the values of ``sort(input, dim=0)``)."""
    return sort(check_tensor(input, "msort", "input"), 0).values


@op(batch=LOOP, methods="topk")
def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
    """The ``k`` largest (or, with ``largest=False``, smallest) entries along ``dim``: ``(values, indices)``.

    The entries come in sorted order (also with ``sorted=False``, which PyTorch leaves unspecified).
    """
    a = check_tensor(input, "topk", "input")
    ax = _axis(a, dim)
    if a.array.dtype.kind == "b":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    size = a.array.shape[ax] if a.array.ndim else 1
    if k < 0 or k > size:
        raise RuntimeError("selected index k out of range")
    xp = a.device.xp
    if a.array.ndim == 0:  # k is 0 or 1: PyTorch returns the element either way
        return TopkResult(_picked(a, None, ax, "topk"), make_leaf(xp.zeros((), dtype=B.int64), a.device))
    order = _top(xp, a.array, k, ax, largest)
    return TopkResult(_picked(a, order, ax, "topk"), _indices(a, order))


def _top(xp, d, k: int, ax: int, largest: bool):
    """The indices of the ``k`` largest (smallest) entries along ``ax``, in sorted order.

    For a small ``k`` only the candidates are sorted: a partition (linear time) finds the k-th
    value, the candidates are every entry beyond it and the first of those equal to it (so ties
    are taken in index order, as a full stable sort would), and only they are sorted.
    """
    n = d.shape[ax]
    if k == 0 or 2 * k >= n:
        return _order(xp, d, ax, largest)[(slice(None),) * ax + (slice(0, k),)]
    rows = xp.moveaxis(d, ax, -1)
    kth = n - k if largest else k - 1
    threshold = xp.partition(rows, kth, axis=-1)[..., kth : kth + 1]  # NaN sorts last: the largest
    beyond = rows > threshold if largest else rows < threshold
    equal = rows == threshold
    if rows.dtype.kind == "f":
        nan, nan_threshold = xp.isnan(rows), xp.isnan(threshold)
        beyond = beyond | (nan & ~nan_threshold) if largest else beyond | (~nan & nan_threshold)
        equal = equal | (nan & nan_threshold)
    wanted = k - beyond.sum(axis=-1, keepdims=True)
    chosen = beyond | (equal & (xp.cumsum(equal, axis=-1) <= wanted))
    candidates = xp.nonzero(chosen.reshape(-1, n))[1].reshape(rows.shape[:-1] + (k,))  # in index order
    within = _order(xp, xp.take_along_axis(rows, candidates, axis=-1), -1 % rows.ndim, largest)
    return xp.moveaxis(xp.take_along_axis(candidates, within, axis=-1), -1, ax)


bind_methods(Tensor, __name__)
