"""Ops that run along a dim: cumprod, roll, repeat_interleave (cumsum and flip live beside their families)."""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make, make_leaf
from ._util import check_int, check_tensor, normalize_dims, type_name
from .declare import BY_DIM_REQUIRED, BY_DIMS, BatchedCall, bind_methods, op
from .indexing import index_with_key
from .shape import cat, stack
from .types import Dim

__all__ = ["cumprod", "roll", "repeat_interleave"]


def _one_axis(a: Tensor, dim, op: str) -> int:
    check_int(dim, op, "dim")
    (ax,) = normalize_dims(dim, a.array.ndim) or (0,)
    return ax


@op(batch=BY_DIM_REQUIRED, methods="cumprod", saves=("a", "ax", "n"))
def cumprod(input: Tensor, dim: int, *, dtype=None) -> Tensor:  # noqa: A002  (torch's argument name)
    """Running product along ``dim``; integer and bool tensors give int64 unless ``dtype`` is given.

    With y_j = a_0 ... a_j, d(sum_j g_j y_j)/da_i = (a_0 ... a_{i-1}) * S_i, where
    S_i = g_i + a_{i+1} * S_{i+1} runs from the end: exact at zeros, no division.
    """
    a = check_tensor(input, "cumprod", "input")
    d = a.array
    out_dtype = B.to_dtype(dtype) if dtype is not None else (B.int64 if d.dtype.kind in "biu" else d.dtype)
    ax = _one_axis(a, dim, "cumprod")
    if d.ndim == 0:
        return make(d.astype(out_dtype), (a,), lambda g: (g,), "cumprod", lambda t: t)
    n = d.shape[ax]

    def backward(g):
        gm, am = g.movedim(ax, -1), a.movedim(ax, -1)
        before = cat([am[..., :1] * 0 + 1, cumprod(am[..., :-1], -1)], -1)  # a_0 ... a_{i-1}
        s = gm[..., n - 1]
        tail = [s]
        for i in range(n - 2, -1, -1):
            s = gm[..., i] + am[..., i + 1] * s
            tail.append(s)
        return ((stack(tail[::-1], -1) * before).movedim(-1, ax),)

    if n == 0:
        return make(d.astype(out_dtype), (a,), lambda g: (g,), "cumprod", lambda t: t)

    def jvp(t):
        tm, am = t.movedim(ax, -1), a.movedim(ax, -1)
        y, ty = am[..., 0], tm[..., 0]
        tangents = [ty]
        for i in range(1, n):  # y_i = y_{i-1} a_i, so dy_i = dy_{i-1} a_i + y_{i-1} da_i (exact at zeros)
            ty = ty * am[..., i] + y * tm[..., i]
            y = y * am[..., i]
            tangents.append(ty)
        return stack(tangents, -1).movedim(-1, ax)

    return make(a.device.xp.cumprod(d, axis=ax, dtype=out_dtype), (a,), backward, "cumprod", jvp)


def _int_tuple(x, op: str, arg: str) -> tuple:
    if isinstance(x, (int,)) and not isinstance(x, bool):
        return (x,)
    if isinstance(x, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in x):
        return tuple(x)
    raise TypeError(f"{op}(): argument '{arg}' must be tuple of ints, not {type_name(x)}")


@op(batch=BY_DIMS, methods="roll", saves=("axes", "back"))
def roll(input: Tensor, shifts, dims=None) -> Tensor:  # noqa: A002
    """Shift elements cyclically by ``shifts`` along ``dims`` (flattened first when ``dims`` is None).

    The rule rolls the gradient back: ``g.roll(-shifts, dims)``.
    """
    a = check_tensor(input, "roll", "input")
    shifts = _int_tuple(shifts, "roll", "shifts")
    if dims is None:
        if len(shifts) != 1:
            raise RuntimeError(f"roll(): shifts must have one element when dims is not given, got {len(shifts)}")
        flat = a.reshape(-1)
        return roll(flat, shifts, 0).reshape(a.array.shape)
    dims = _int_tuple(dims, "roll", "dims")
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    axes = tuple((normalize_dims(d, a.array.ndim) or (0,))[0] for d in dims)
    back = tuple(-s for s in shifts)

    def backward(g):
        return (g.roll(back, axes),)

    def jvp(t):
        return t.roll(shifts, axes)

    return make(a.device.xp.roll(a.array, shifts, axis=axes), (a,), backward, "roll", jvp)


def _batched_repeat_interleave(call: BatchedCall):
    """``repeat_interleave`` with one count for all or unbatched counts: ``dim`` past the batch dim, the
    flattened entry for ``dim=None`` (batched counts change each entry's length: they loop)."""
    x, repeats, dim = call.args[0], call.get("repeats"), call.get("dim")
    v = call.value(x)
    if v is None or call.value(repeats) is not None or call.get("output_size") is not None:
        return call.loop()
    if dim is None:
        v, dim = v.reshape(v.shape[0], -1), 1
    else:
        dim = call.physical(dim, v.dim() - 1)
    return call.wrap(call.run(call.fn, v, repeats, dim))


@op(batch=_batched_repeat_interleave, methods="repeat_interleave")
def repeat_interleave(input: Tensor, repeats=None, dim: Dim = None, *, output_size=None) -> Tensor:  # noqa: A002
    """Repeat each element ``repeats`` times along ``dim`` (of the flattened input when ``dim`` is None).

    ``repeats`` is an int or a 1-D integer tensor (one count per element). With one
    integer tensor argument, ``repeat_interleave(r)`` repeats ``arange(len(r))``.
    The forward is an indexing op with a repeated index, so the rule is the
    scatter-add of the gradient back onto each source element.
    """
    a = check_tensor(input, "repeat_interleave", "input")
    if repeats is None and (dim is not None or output_size is not None):
        raise TypeError("repeat_interleave(): argument 'repeats' must be Tensor or int, not NoneType")
    if repeats is None:
        if a.array.ndim != 1 or a.array.dtype.kind not in "iu":
            raise RuntimeError("repeat_interleave: repeats must be a 1-D integer tensor")
        xp = a.device.xp
        return make_leaf(xp.repeat(xp.arange(a.array.shape[0]), a.array), a.device)
    if dim is None:
        return repeat_interleave(a.reshape(-1), repeats, 0, output_size=output_size)
    ax = _one_axis(a, dim, "repeat_interleave")
    if a.array.ndim == 0:
        return repeat_interleave(a.reshape(1), repeats, 0, output_size=output_size)
    xp = a.device.xp
    n = a.array.shape[ax]
    if isinstance(repeats, Tensor):
        if repeats.array.dtype.kind not in "iu" or repeats.array.ndim > 1:
            raise RuntimeError("repeat_interleave: repeats must be 0-dim or 1-dim tensor of integers")
        counts = repeats.array.reshape(-1)
        if counts.shape[0] not in (1, n):
            raise RuntimeError("repeats must have the same size as input along dim")
        if bool((counts < 0).any()):
            raise RuntimeError("repeats can not be negative")
    else:
        counts = check_int(repeats, "repeat_interleave", "repeats")
        if counts < 0:
            raise RuntimeError("repeats can not be negative")
    index = xp.repeat(xp.arange(n), counts)
    if output_size is not None and output_size != index.shape[0]:
        raise RuntimeError(f"repeat_interleave: output_size {output_size} does not match the repeats' sum")
    return index_with_key(a, (slice(None),) * ax + (index,), "repeat_interleave", accumulate=True)


bind_methods(Tensor, __name__)
