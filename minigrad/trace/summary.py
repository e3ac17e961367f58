"""Summary statistics of a large array, read once from memory.

Min, max, sum and sum of squares are reduced together, block by block: each
block of ``BLOCK`` values is reduced four ways while it sits in the cache, so
the array crosses the memory bus once. Only when a sum comes out non-finite
(the array holds NaN or Inf, or its squares overflow) does a second pass count
the non-finite values and redo the statistics over the finite ones. On a GPU
the reductions run on the device; only the scalars and the first values cross
to the host, in one transfer each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import backend as B

__all__ = ["Stats", "summarise", "summary_fields", "HEAD_VALUES", "BLOCK"]

HEAD_VALUES = 8
BLOCK = 1 << 16  # 256 KB of float32: fits the L2 cache of any current CPU

_ones: dict = {}  # dtype -> a read-only block of ones (a sum is a dot product with it: BLAS speed)
_safe: dict = {}  # dtype -> a bound on a block's max|x|**2 * size under which no sum of it overflows


@dataclass(frozen=True)
class Stats:
    """Summary statistics of an array (over its finite values for min/max/mean/norm)."""

    min: float | None
    max: float | None
    mean: float | None
    norm: float | None
    nan_count: int
    inf_count: int
    head: tuple  # the first values in C order, as Python numbers


def summarise(arr, xp=np) -> Stats:
    """The :class:`Stats` of ``arr`` (a NumPy array, or a CuPy array with ``xp`` = cupy)."""
    return Stats(*summary_fields(arr, xp))


def summary_fields(arr, xp=np) -> tuple:
    """:func:`summarise`'s fields as a plain tuple, in :class:`Stats`'s order (what a recording keeps:
    no Stats object made while the program runs)."""
    flat = arr.reshape(-1)
    first = flat[:HEAD_VALUES]
    head = tuple((first if type(first) is np.ndarray else B.to_host(first)).tolist())
    if flat.size == 0:
        return (None, None, None, None, 0, 0, head)
    dtype = flat.dtype
    if dtype.kind != "f" or dtype.itemsize < 4:
        flat = flat.astype(np.float64)  # integers, booleans, float16: no BLAS for them
    moments = host_moments(flat) if xp is np else device_moments(flat, xp)
    if moments is None:
        return _with_nonfinite(flat, xp, head)
    lo, hi, total, squares = moments
    return (lo, hi, total / flat.size, math.sqrt(squares), 0, 0, head)


def host_moments(flat: np.ndarray):
    """(min, max, sum, sum of squares) of a 1-d float32/float64 array in one pass; None when one is not finite.

    A block's sums are taken without NumPy's error state (a context that costs about as much as a block's
    pass) when its extremes show that no sum of it can overflow: ``max|x|**2 * size`` below the dtype's
    largest value."""
    ones = _ones.get(flat.dtype)
    if ones is None:
        ones = _ones[flat.dtype] = np.ones(BLOCK, flat.dtype)
        ones.flags.writeable = False
        _safe[flat.dtype] = float(np.finfo(flat.dtype).max) / 4
    safe = _safe[flat.dtype]
    if flat.size <= BLOCK:  # one block, as most values a recording summarises: no loop, no slices of it
        moments = _block_moments(flat, ones[: flat.size], safe)
    else:
        lo, hi, total, squares = math.inf, -math.inf, 0.0, 0.0
        for start in range(0, flat.size, BLOCK):
            block = flat[start : start + BLOCK]
            moments = _block_moments(block, ones[: block.size], safe)
            if moments is None:
                return None
            lo, hi = min(lo, moments[0]), max(hi, moments[1])
            total += moments[2]
            squares += moments[3]
        moments = (lo, hi, total, squares)
    if moments is None or not (math.isfinite(moments[2]) and math.isfinite(moments[3])):
        return None
    return moments


def _block_moments(block: np.ndarray, ones: np.ndarray, safe: float):
    """(min, max, sum, sum of squares) of one block, ``ones`` as long as it; None when it holds NaN or Inf."""
    lo, hi = float(np.minimum.reduce(block)), float(np.maximum.reduce(block))  # not ndarray.min: a Python wrapper
    if not (-math.inf < lo and hi < math.inf):  # NaN or Inf: the second pass handles them
        return None
    big = -lo if -lo > hi else hi
    if big * big * block.size < safe:
        return lo, hi, float(np.dot(block, ones)), float(np.dot(block, block))
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is caught by the caller
        return lo, hi, float(np.dot(block, ones)), float(np.dot(block, block))


def device_moments(flat, xp):
    """(min, max, sum, sum of squares) as device reductions, crossing to the host as one array of four
    scalars; None when one is not finite."""
    acc = xp.float64
    with np.errstate(over="ignore", invalid="ignore"):
        four = [flat.min().astype(acc), flat.max().astype(acc), flat.sum(dtype=acc), xp.vdot(flat, flat).astype(acc)]
        lo, hi, total, squares = B.to_host(xp.stack(four)).tolist()
    if not (math.isfinite(total) and math.isfinite(squares)):
        return None
    return lo, hi, total, squares


def _with_nonfinite(flat, xp, head: tuple) -> tuple:
    """The second pass: count NaN and Inf, then the statistics of the finite values (Stats's fields)."""
    finite_mask = xp.isfinite(flat)
    nan = int(xp.isnan(flat).sum())
    inf = int(flat.size - int(finite_mask.sum()) - nan)
    finite = flat[finite_mask].astype(np.float64)
    if finite.size == 0:
        return (None, None, None, None, nan, inf, head)
    lo, hi, total = float(finite.min()), float(finite.max()), float(finite.sum())
    norm = float(xp.sqrt(xp.dot(finite, finite)))
    return (lo, hi, total / finite.size, norm, nan, inf, head)
