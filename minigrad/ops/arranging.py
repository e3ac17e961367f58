"""Arranging tensors as PyTorch's composite functions do: diagonal, diag_embed, block_diag, diff, rot90,
fliplr/flipud, atleast_1d/2d/3d, hstack/vstack/dstack/column_stack, broadcast_tensors/broadcast_shapes,
cartesian_prod, combinations.

Each is composed of indexing, flips, transposes, pads, cats and stacks, so gradients and the
debugger's view come from those ops. ``diagonal`` and ``broadcast_tensors`` return copies here
where PyTorch returns views.
"""

from __future__ import annotations

import itertools

from .. import backend as B
from ..tensor import Tensor, make_leaf, shape_str
from ._util import check_int, check_tensor, normalize_dims
from .declare import LOOP, bind_methods, op
from .indexing import put
from .shape import cat, pad, stack
from .splitting import meshgrid

__all__ = [
    "diagonal",
    "diag_embed",
    "block_diag",
    "diff",
    "rot90",
    "fliplr",
    "flipud",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "hstack",
    "vstack",
    "dstack",
    "column_stack",
    "row_stack",
    "broadcast_tensors",
    "broadcast_shapes",
    "cartesian_prod",
    "combinations",
]


# ---------------------------------------------------------------- diagonals
def _diagonal_positions(xp, rows: int, cols: int, offset: int) -> tuple:
    """The row and column indices of diagonal ``offset`` of a rows x cols matrix."""
    length = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    steps = xp.arange(length)
    return steps - min(offset, 0), steps + max(offset, 0)


def _two_dims(dim1, dim2, ndim: int) -> tuple:
    d1, d2 = (normalize_dims(check_int(d, "diagonal", "dim"), ndim)[0] for d in (dim1, dim2))
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


@op(batch=LOOP, methods="diagonal")
def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:  # noqa: A002
    """The diagonal ``offset`` of each matrix in dims ``dim1`` x ``dim2``, as a last dim (a copy)."""
    a = check_tensor(input, "diagonal", "input")
    d1, d2 = _two_dims(dim1, dim2, a.array.ndim)
    moved = a.movedim((d1, d2), (-2, -1))
    rows, cols = _diagonal_positions(a.device.xp, *moved.array.shape[-2:], offset)
    return moved[..., make_leaf(rows, a.device), make_leaf(cols, a.device)]


@op(batch=LOOP, methods="diag_embed")
def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:  # noqa: A002
    """Each last-dim vector of ``input`` placed on diagonal ``offset`` of a square matrix in dims
    ``dim1`` x ``dim2`` of the result (zeros elsewhere)."""
    a = check_tensor(input, "diag_embed", "input")
    d1, d2 = _two_dims(dim1, dim2, a.array.ndim + 1)
    n = a.array.shape[-1] + abs(offset)
    xp = a.device.xp
    zeros = make_leaf(xp.zeros(a.array.shape[:-1] + (n, n), dtype=a.array.dtype), a.device)
    rows, cols = _diagonal_positions(xp, n, n, offset)
    placed = put(zeros, (Ellipsis, make_leaf(rows, a.device), make_leaf(cols, a.device)), a)
    return placed.movedim((-2, -1), (d1, d2)) if (d1, d2) != (a.array.ndim - 1, a.array.ndim) else placed


@op(batch=LOOP)
def block_diag(*tensors) -> Tensor:
    """The tensors (0-, 1- or 2-D) as blocks along the diagonal of one matrix, zeros elsewhere."""
    blocks = []
    for i, t in enumerate(tensors):
        t = check_tensor(t, "block_diag", "tensors")
        if t.array.ndim > 2:
            raise RuntimeError(
                f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has {t.array.ndim} dimensions"
            )
        blocks.append(t.reshape(*((1,) * (2 - t.array.ndim) + t.array.shape)))
    if not blocks:
        return make_leaf(B.device(None).xp.zeros((1, 0), dtype=B.get_default_dtype()), B.device(None))
    width = sum(b.array.shape[1] for b in blocks)
    rows, left = [], 0
    for b in blocks:
        right = width - left - b.array.shape[1]
        rows.append(pad(b, (left, right)))
        left += b.array.shape[1]
    return cat(rows, 0)


# ---------------------------------------------------------------- differences, rotations, flips
@op(batch=LOOP, methods="diff")
def diff(
    input: Tensor, n: int = 1, dim: int = -1, prepend: Tensor | None = None, append: Tensor | None = None
) -> Tensor:  # noqa: A002
    """The n-th forward difference along ``dim``, after joining ``prepend`` and ``append``; for bool
    tensors the difference is ``!=`` (logical xor), as in PyTorch."""
    a = check_tensor(input, "diff", "input")
    if a.array.ndim == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    (axis,) = normalize_dims(check_int(dim, "diff", "dim"), a.array.ndim)
    one_slice = a.array.shape[:axis] + (1,) + a.array.shape[axis + 1 :]
    parts = [p if p.array.ndim else p.expand(*one_slice) for p in (prepend, a, append) if p is not None]
    joined = cat(parts, axis) if len(parts) > 1 else a
    for _ in range(n):
        length = joined.array.shape[axis]
        if length == 0:
            break
        later, earlier = joined.narrow(axis, 1, length - 1), joined.narrow(axis, 0, length - 1)
        joined = later != earlier if joined.array.dtype.kind == "b" else later - earlier
    return joined


@op(batch=LOOP, methods="rot90")
def rot90(input: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:  # noqa: A002
    """Rotated by 90 degrees ``k`` times in the plane of ``dims``, from the first dim towards the second."""
    a = check_tensor(input, "rot90", "input")
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if a.array.ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {a.array.ndim}")
    d0, d1 = (normalize_dims(d, a.array.ndim)[0] for d in dims)
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
    k %= 4
    if k == 1:
        return a.flip(d1).transpose(d0, d1)
    if k == 2:
        return a.flip(d0, d1)
    if k == 3:
        return a.flip(d0).transpose(d0, d1)
    return a.clone()


@op(batch=LOOP, methods="fliplr")
def fliplr(input: Tensor) -> Tensor:  # noqa: A002
    """Columns in reverse order (dim 1)."""
    a = check_tensor(input, "fliplr", "input")
    if a.array.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return a.flip(1)


@op(batch=LOOP, methods="flipud")
def flipud(input: Tensor) -> Tensor:  # noqa: A002
    """Rows in reverse order (dim 0)."""
    a = check_tensor(input, "flipud", "input")
    if a.array.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return a.flip(0)


# ---------------------------------------------------------------- at least n dims, and stacking
def _each(tensors, op: str) -> tuple:
    """The tensors of ``atleast_*(*tensors)``: one tuple/list argument or several tensors."""
    single = len(tensors) == 1 and isinstance(tensors[0], Tensor)
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return single, tuple(check_tensor(t, op, "tensors") for t in tensors)


def _at_least_1d(t: Tensor) -> Tensor:
    return t.reshape(1) if t.array.ndim == 0 else t


def _at_least_2d(t: Tensor) -> Tensor:
    return t.reshape(1, -1) if t.array.ndim < 2 else t


def _at_least_3d(t: Tensor) -> Tensor:
    if t.array.ndim == 0:
        return t.reshape(1, 1, 1)
    if t.array.ndim == 1:
        return t.reshape(1, -1, 1)
    return t.unsqueeze(-1) if t.array.ndim == 2 else t


@op(batch=LOOP)
def atleast_1d(*tensors):
    """Each tensor with at least one dim (a 0-d one becomes [1]); one tensor in, one out."""
    single, ts = _each(tensors, "atleast_1d")
    out = tuple(_at_least_1d(t) for t in ts)
    return out[0] if single else out


@op(batch=LOOP)
def atleast_2d(*tensors):
    """Each tensor with at least two dims (a vector becomes one row)."""
    single, ts = _each(tensors, "atleast_2d")
    out = tuple(_at_least_2d(t) for t in ts)
    return out[0] if single else out


@op(batch=LOOP)
def atleast_3d(*tensors):
    """Each tensor with at least three dims (a vector [n] becomes [1, n, 1], a matrix [m, n] becomes [m, n, 1])."""
    single, ts = _each(tensors, "atleast_3d")
    out = tuple(_at_least_3d(t) for t in ts)
    return out[0] if single else out


def _nonempty(tensors, op: str) -> tuple:
    if not len(tensors):
        raise RuntimeError(f"{op} expects a non-empty TensorList")
    return tuple(check_tensor(t, op, "tensors") for t in tensors)


@op(batch=LOOP)
def hstack(tensors) -> Tensor:
    """Joined horizontally: along dim 0 for vectors, else along dim 1."""
    ts = [_at_least_1d(t) for t in _nonempty(tensors, "hstack")]
    return cat(ts, 0 if ts[0].array.ndim == 1 else 1)


@op(batch=LOOP)
def vstack(tensors) -> Tensor:
    """Joined vertically: each made at least 2-D, along dim 0."""
    return cat([_at_least_2d(t) for t in _nonempty(tensors, "vstack")], 0)


row_stack = vstack


@op(batch=LOOP)
def dstack(tensors) -> Tensor:
    """Joined depth-wise: each made at least 3-D, along dim 2."""
    return cat([_at_least_3d(t) for t in _nonempty(tensors, "dstack")], 2)


@op(batch=LOOP)
def column_stack(tensors) -> Tensor:
    """Joined as columns: each 0- or 1-D tensor becomes one column, along dim 1."""
    ts = _nonempty(tensors, "column_stack")
    return cat([t.reshape(-1, 1) if t.array.ndim <= 1 else t for t in ts], 1)


# ---------------------------------------------------------------- broadcasting
def _broadcast_pair(out: tuple, shape: tuple, index: int) -> tuple:
    n = max(len(out), len(shape))
    left, right = (1,) * (n - len(out)) + out, (1,) * (n - len(shape)) + shape
    joined = []
    for back in range(1, n + 1):  # from the last dim, as PyTorch checks
        x, y = left[-back], right[-back]
        if x != y and 1 not in (x, y):
            raise RuntimeError(
                f"Attempting to broadcast a dimension of length {y} at {-back}! Mismatching argument at index "
                f"{index} had {shape}; but expected shape should be broadcastable to {list(out)}"
            )
        joined.insert(0, y if x == 1 else x)
    return tuple(joined)


@op(batch=LOOP)
def broadcast_shapes(*shapes) -> tuple:
    """The shape the given shapes (tuples, or ints for 1-D shapes) broadcast to."""
    out: tuple = ()
    for index, shape in enumerate(shapes):
        out = _broadcast_pair(out, (shape,) if isinstance(shape, int) else tuple(shape), index)
    return out


@op(batch=LOOP)
def broadcast_tensors(*tensors) -> tuple:
    """The tensors expanded to their common broadcast shape (copies here; views in PyTorch)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    ts = [check_tensor(t, "broadcast_tensors", "tensors") for t in tensors]
    shape = broadcast_shapes(*(t.array.shape for t in ts))
    return tuple(t.expand(*shape) for t in ts)


# ---------------------------------------------------------------- products of index sets
def _vector(t, op: str) -> Tensor:
    t = check_tensor(t, op, "tensors")
    if t.array.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {shape_str(t.array.shape)}")
    return t


@op(batch=LOOP)
def cartesian_prod(*tensors) -> Tensor:
    """Every tuple of one element from each vector, in order: [prod of lengths, count] (one vector: itself)."""
    ts = [_vector(t, "cartesian_prod") for t in tensors]
    if len(ts) == 1:
        return ts[0]
    grids = meshgrid(*ts, indexing="ij")
    return stack([g.reshape(-1) for g in grids], 1)


@op(batch=LOOP)
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:  # noqa: A002
    """Every length-``r`` combination of the vector's elements, as rows (as ``itertools.combinations``)."""
    a = _vector(input, "combinations")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return make_leaf(a.device.xp.zeros(0, dtype=a.array.dtype), a.device)
    choose = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    picks = list(choose(range(a.array.shape[0]), r))
    xp = a.device.xp
    index = xp.asarray(picks, dtype=B.int64).reshape(len(picks), r)
    return a[make_leaf(index, a.device)]


bind_methods(Tensor, __name__)
