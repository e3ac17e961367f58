"""Running extrema and the running log-sum-exp: cummax, cummin, logcumsumexp.

cummax/cummin find, in the forward, the index where each running extremum was reached (the latest
of equal values, as PyTorch), and their values are a ``gather`` of the input at those indices, so
the gradient goes where the value came from. logcumsumexp is one op with its own rule.
"""

from __future__ import annotations

import collections
import weakref

from .. import backend as B
from ..tensor import Tensor, make, make_leaf
from ._util import check_int, check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op
from .elementwise import _float_data

__all__ = ["cummax", "cummin", "logcumsumexp"]

CummaxResult = collections.namedtuple("cummax", ["values", "indices"])
CumminResult = collections.namedtuple("cummin", ["values", "indices"])


def _axis(a: Tensor, dim, op: str) -> int:
    return (normalize_dims(check_int(dim, op, "dim"), max(a.array.ndim, 1)) or (0,))[0]


def _running_extremum(input: Tensor, dim: int, op: str, result):  # noqa: A002
    a = check_tensor(input, op, "input")
    axis = _axis(a, dim, op)
    if a.array.ndim == 0:
        return result(a * 1, make_leaf(a.device.xp.zeros((), dtype=B.int64), a.device))
    xp = a.device.xp
    d = a.array
    ufunc = xp.fmax if op == "cummax" else xp.fmin
    nan_seen = xp.logical_or.accumulate(xp.isnan(d), axis=axis) if d.dtype.kind == "f" else None
    running = ufunc.accumulate(d, axis=axis)
    shape = [1] * d.ndim
    shape[axis] = d.shape[axis]
    positions = xp.broadcast_to(xp.arange(d.shape[axis]).reshape(shape), d.shape)
    reached = d == running
    if nan_seen is not None:  # a NaN is the extremum from where it appears on, as in PyTorch
        reached = reached | xp.isnan(d)
        last_nan = xp.maximum.accumulate(xp.where(xp.isnan(d), positions, -1), axis=axis)
    indices = xp.maximum.accumulate(xp.where(reached, positions, 0), axis=axis)
    if nan_seen is not None:
        indices = xp.where(nan_seen, last_nan, indices)
    index = make_leaf(indices.astype(B.int64), a.device)
    return result(a.gather(axis, index), index)


@op(batch=LOOP, methods="cummax")
def cummax(input: Tensor, dim: int):  # noqa: A002  (torch's argument name)
    """The running maximum along ``dim`` and the index where each was reached: (values, indices)."""
    return _running_extremum(input, dim, "cummax", CummaxResult)


@op(batch=LOOP, methods="cummin")
def cummin(input: Tensor, dim: int):  # noqa: A002
    """The running minimum along ``dim`` and the index where each was reached: (values, indices)."""
    return _running_extremum(input, dim, "cummin", CumminResult)


def _flip_cumsum(t: Tensor, axis: int) -> Tensor:
    """The sum from each position to the end along ``axis``."""
    return t.flip(axis).cumsum(axis).flip(axis)


@op(batch=LOOP, methods="logcumsumexp", saves=("a", "axis", "out_ref", "shift"))
def logcumsumexp(input: Tensor, dim: int) -> Tensor:  # noqa: A002
    """log(cumsum(exp(x))) along ``dim``, computed stably.

    y_j = log sum_{i<=j} e**x_i, so dy_j/dx_i = e**(x_i - y_j) for i <= j: the gradient is
    e**(x - m) * (the sum from i to the end of g_j e**(m - y_j)), with m the largest x of the slice.
    """
    a = check_tensor(input, "logcumsumexp", "input")
    axis = _axis(a, dim, "logcumsumexp")
    xp = a.device.xp
    d = _float_data(a)
    if d.ndim == 0:
        return make(d.copy(), (a,), lambda g: (g,), "logcumsumexp", lambda t: t)
    with B.quiet(xp):
        out = xp.logaddexp.accumulate(d, axis=axis)
        top = xp.max(d, axis=axis, keepdims=True) if d.shape[axis] else xp.zeros(d.shape, d.dtype)
    shift = make_leaf(xp.where(xp.isfinite(top), top, 0), a.device)

    def backward(g):
        y = out_ref()
        return ((a - shift).exp() * _flip_cumsum(g * (shift - y).exp(), axis),)

    def jvp(t):
        y = a.logcumsumexp(axis)
        return (t * (a - shift).exp()).cumsum(axis) * (shift - y).exp()

    result = make(out, (a,), backward, "logcumsumexp", jvp)
    out_ref = weakref.ref(result)
    return result


bind_methods(Tensor, __name__)
