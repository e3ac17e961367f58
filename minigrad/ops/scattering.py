"""take, scatter and scatter_add: writing to (or reading from) positions given by an index tensor.

``scatter`` is gather's mirror: for ``dim=0``, ``out[index[i][j]][j] = src[i][j]``. Indices
are checked as PyTorch checks them (no wrapping of negatives, except in ``take``), so a bad
index is an error, never a silently wrapped position.
"""

from __future__ import annotations

from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import check_int, check_tensor, normalize_dims, type_name
from .declare import bind_methods, op
from .indexing import _index_array, check_index_bounds, gather, index_with_key
from .shape import pad

__all__ = ["take", "scatter", "scatter_add"]


# ---------------------------------------------------------------- batching rules (vmap)
def _batched_scatter(call):
    """``scatter``/``scatter_add``: every tensor repeated over the batch where unbatched, ``dim`` past it."""
    names = ("input", "index", "src")
    tensors = {n: call.get(n) for n in names}
    rank = call.rank(tensors["input"])
    if rank == 0:
        return call.loop()
    size = next(call.value(t) for t in tensors.values() if call.value(t) is not None).shape[0]
    changes = {n: call.expanded(t, size) for n, t in tensors.items() if isinstance(t, Tensor)}
    changes["dim"] = call.physical(call.get("dim"), rank)
    args, kwargs = call.replaced(**changes)
    return call.wrap(call.run(call.fn, *args, **kwargs))


def _batched_take(call):
    """``take``: each entry flattened to one row, the indices (negatives counted from its end) gathered."""
    x, index = call.get("input"), call.get("index")
    size = next(call.value(t) for t in (x, index) if call.value(t) is not None).shape[0]
    rows, picks = call.expanded(x, size).reshape(size, -1), call.expanded(index, size)
    flat = picks.reshape(size, -1)
    flat = flat + (flat < 0).long() * rows.shape[1]
    return call.wrap(call.run(gather, rows, 1, flat).reshape(tuple(picks.shape)))


@op(batch=_batched_take, methods="take")
def take(input: Tensor, index: Tensor) -> Tensor:  # noqa: A002  (torch's argument name)
    """The elements of the flattened ``input`` at ``index`` (negatives count from the end), in ``index``'s shape.

    The rule is indexing's: the gradient is added back onto each picked element.
    """
    a = check_tensor(input, "take", "input")
    if isinstance(index, Tensor) and index.array.dtype.kind not in "iu":
        raise RuntimeError(f"take(): Expected a long tensor for index, but got {index.array.dtype}")
    idx = _index_array(check_tensor(index, "take", "index"), "take", a.device)
    n = a.array.size
    if idx.size:
        low, high = int(idx.min()), int(idx.max())
        if low < -n or high >= n:
            bad = low if low < -n else high
            raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    return index_with_key(a.reshape(-1), (idx % max(n, 1),), "take", accumulate=True)


def _scatter_key(xp, idx, axis: int) -> tuple:
    """The advanced-index key that sends element ``[i, j, ...]`` of ``idx`` to position ``idx[i, j, ...]`` on ``axis``."""
    return tuple(
        idx if d == axis else xp.arange(n).reshape((-1,) + (1,) * (idx.ndim - d - 1)) for d, n in enumerate(idx.shape)
    )


def _checked(a: Tensor, dim, index, src, op: str):
    """The axis, the index array and ``src``'s part that is scattered, after PyTorch's checks."""
    axis = (normalize_dims(check_int(dim, op, "dim"), a.array.ndim) or (0,))[0]
    idx = _index_array(check_tensor(index, op, "index"), op, a.device)
    ndim = max(a.array.ndim, 1)
    if idx.ndim != ndim and not (a.array.ndim == 0 and idx.ndim == 0):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if src is not None:  # in PyTorch's order: dtype, then dims
        if src.array.dtype != a.array.dtype:
            raise RuntimeError(
                f"{op}(): Expected self.dtype to be equal to src.dtype ({a.array.dtype} and {src.array.dtype})"
            )
        if src.array.ndim:
            normalize_dims(dim, src.array.ndim)
        if max(src.array.ndim, 1) != max(idx.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    shape = a.array.shape or (1,)
    src_shape = None if src is None else (src.array.shape or (1,))
    for d in range(idx.ndim):
        if (d != axis and idx.shape[d] > shape[d]) or (src_shape is not None and idx.shape[d] > src_shape[d]):
            raise RuntimeError(
                f"Expected index {shape_str(idx.shape)} to be smaller than self {shape_str(a.array.shape)} apart from "
                f"dimension {axis}"
                + ("" if src is None else f" and to be smaller size than src {shape_str(src.array.shape)}")
            )
    check_index_bounds(idx, axis, shape[axis])
    part = None
    if src is not None:
        part = src.array.reshape(src_shape)[tuple(slice(0, n) for n in idx.shape)]
    return axis, idx, part


def _src_gradient(g: Tensor, axis: int, index: Tensor, src_shape: tuple) -> Tensor:
    """The gradient of ``src``: g gathered at ``index``, zero-padded where ``src`` is larger than ``index``."""
    picked = g.gather(axis, index)
    widths = []
    for have, want in zip(reversed(picked.array.shape), reversed(src_shape)):
        widths += [0, want - have]
    return pad(picked, widths) if any(widths) else picked


@op(
    batch=_batched_scatter,
    methods="scatter",
    saves={"backward_value": ("axis", "index_t"), "backward": ("axis", "index_t", "src_shape")},
)
def scatter(input: Tensor, dim: int, index: Tensor, src=None, *, value=None) -> Tensor:  # noqa: A002
    """A copy of ``input`` with ``src`` (a tensor, or the number ``value``) written at ``index`` along ``dim``.

    d/dinput is g with the overwritten positions zeroed; d/dsrc is g gathered back at ``index``.
    """
    a = check_tensor(input, "scatter", "input")
    if src is None and value is None:
        raise TypeError("scatter() missing 1 required positional argument: 'src' (or the keyword 'value')")
    src = value if src is None else src
    if not isinstance(src, Tensor):
        if not isinstance(src, (int, float)):
            raise TypeError(f"scatter(): argument 'value' must be Number, not {type_name(src)}")
        axis, idx, _ = _checked(a, dim, index, None, "scatter")
        out = a.array.copy()
        out[_scatter_key(a.device.xp, idx, axis)] = src
        index_t = make_leaf(idx, a.device)

        def backward_value(g):
            return (g.scatter(axis, index_t, 0),)

        def jvp_value(t):
            return t.scatter(axis, index_t, 0)

        return make(out.reshape(a.array.shape), (a,), backward_value, "scatter", jvp_value)
    axis, idx, part = _checked(a, dim, index, src, "scatter")
    out = a.array.copy().reshape(a.array.shape or (1,))
    out[_scatter_key(a.device.xp, idx, axis)] = part
    index_t, src_shape = make_leaf(idx, a.device), src.array.shape

    def backward(g):
        return g.scatter(axis, index_t, 0), _src_gradient(g, axis, index_t, src_shape or (1,)).reshape(src_shape)

    def jvp(ta, ts):
        return ta.scatter(axis, index_t, ts)

    return make(out.reshape(a.array.shape), (a, src), backward, "scatter", jvp)


@op(batch=_batched_scatter, methods="scatter_add", saves=("axis", "index_t", "src_shape"))
def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:  # noqa: A002
    """A copy of ``input`` with ``src`` added at ``index`` along ``dim`` (repeated indices add up).

    d/dinput is g; d/dsrc is g gathered back at ``index``.
    """
    a = check_tensor(input, "scatter_add", "input")
    src = check_tensor(src, "scatter_add", "src")
    axis, idx, part = _checked(a, dim, index, src, "scatter_add")
    out = a.array.copy().reshape(a.array.shape or (1,))
    a.device.xp.add.at(out, _scatter_key(a.device.xp, idx, axis), part)
    index_t, src_shape = make_leaf(idx, a.device), src.array.shape

    def backward(g):
        return g, _src_gradient(g, axis, index_t, src_shape or (1,)).reshape(src_shape)

    def jvp(ta, ts):
        return ta.scatter_add(axis, index_t, ts)

    return make(out.reshape(a.array.shape), (a, src), backward, "scatter_add", jvp)


bind_methods(Tensor, __name__)
