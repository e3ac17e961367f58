"""Selecting and placing by index or mask: all/any, count_nonzero, nonzero, masked_select,
masked_scatter, index_add, index_fill, index_copy.

The differentiable ones are composed of the ops PyTorch's definitions name (a mask picks with
``getitem``, a placement is ``index_put``/``scatter_add``), so the debugger shows those ops and
their rules; the boolean and counting ones are not differentiable and return plain tensors.
"""

from __future__ import annotations

from .. import backend as B
from ..tensor import Tensor, make_leaf, shape_str
from ._util import broadcast_shapes, check_int, check_tensor, normalize_dims
from .arranging import broadcast_tensors
from .declare import LOOP, bind_methods, op
from .indexing import check_index_bounds, put
from .types import Dim

__all__ = [
    "all",
    "any",
    "count_nonzero",
    "nonzero",
    "masked_select",
    "masked_scatter",
    "index_add",
    "index_fill",
    "index_copy",
    "index_put",
]


# ---------------------------------------------------------------- truth and counting
def _truth(input: Tensor, dim, keepdim: bool, op: str, reduce) -> Tensor:  # noqa: A002
    a = check_tensor(input, op, "input")
    d = a.array
    axes = None if dim is None else normalize_dims(dim, max(d.ndim, 1))
    if d.ndim == 0:
        axes = None
    return make_leaf(reduce(d != 0, axis=axes, keepdims=keepdim), a.device)


@op(batch=LOOP, methods="all")
def all(input: Tensor, dim: Dim = None, keepdim: bool = False) -> Tensor:  # noqa: A001,A002  (torch's names)
    """Whether every element (along ``dim``: one int or a tuple) is nonzero; a bool tensor."""
    a = check_tensor(input, "all", "input")
    return _truth(a, dim, keepdim, "all", a.device.xp.all)


@op(batch=LOOP, methods="any")
def any(input: Tensor, dim: Dim = None, keepdim: bool = False) -> Tensor:  # noqa: A001,A002
    """Whether some element (along ``dim``: one int or a tuple) is nonzero; a bool tensor."""
    a = check_tensor(input, "any", "input")
    return _truth(a, dim, keepdim, "any", a.device.xp.any)


@op(batch=LOOP, methods="count_nonzero")
def count_nonzero(input: Tensor, dim: Dim = None) -> Tensor:  # noqa: A002
    """The number of nonzero elements (along ``dim``: one int or a tuple), as int64."""
    a = check_tensor(input, "count_nonzero", "input")
    d = a.array
    axes = None if dim is None or d.ndim == 0 else normalize_dims(dim, d.ndim)
    return make_leaf(a.device.xp.count_nonzero(d, axis=axes).astype(B.int64), a.device)


@op(batch=LOOP, methods="nonzero")
def nonzero(input: Tensor, *, as_tuple: bool = False):  # noqa: A002
    """The indices of the nonzero elements: an int64 tensor of shape [n, ndim], or with ``as_tuple``
    one 1-D index tensor per dim (usable as an index: ``x[x.nonzero(as_tuple=True)]``)."""
    a = check_tensor(input, "nonzero", "input")
    xp = a.device.xp
    d = a.array if a.array.ndim else a.array.reshape(1)
    found = tuple(i.astype(B.int64) for i in xp.nonzero(d))
    if as_tuple:
        return tuple(make_leaf(i, a.device) for i in found)
    stacked = xp.stack(found, axis=1) if found else xp.zeros((0, 0), dtype=B.int64)
    return make_leaf(stacked if a.array.ndim else stacked[:, :0], a.device)


# ---------------------------------------------------------------- masks
def _bool_mask(mask, op: str) -> Tensor:
    m = check_tensor(mask, op, "mask")
    if m.array.dtype.kind != "b":
        raise RuntimeError(f"{op}: expected BoolTensor for mask")
    return m


@op(batch=LOOP, methods="masked_select")
def masked_select(input: Tensor, mask: Tensor) -> Tensor:  # noqa: A002
    """The elements of ``input`` where ``mask`` is True, as a 1-D tensor (both broadcast first)."""
    a = check_tensor(input, "masked_select", "input")
    m = _bool_mask(mask, "masked_select")
    shape = broadcast_shapes(a.array.shape, m.array.shape)
    return a.expand(*shape)[m.expand(*shape)]


@op(batch=LOOP, methods="masked_scatter")
def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """``input`` with the places where ``mask`` is True filled, in order, from ``source``'s first elements."""
    a = check_tensor(input, "masked_scatter", "input")
    m = _bool_mask(mask, "masked_scatter_")
    s = check_tensor(source, "masked_scatter", "source")
    if s.array.dtype != a.array.dtype:
        raise RuntimeError(
            f"masked_scatter_: expected self and source to have same dtypes but got {B.scalar_type_name(a.array.dtype)}"
            f" and {B.scalar_type_name(s.array.dtype)}"
        )
    shape = broadcast_shapes(a.array.shape, m.array.shape)
    full_mask = m.expand(*shape)
    count = int(full_mask.array.sum())
    if count > s.numel():
        raise RuntimeError("Number of elements of source < number of ones in mask")
    return put(a.expand(*shape), full_mask, s.reshape(-1)[:count])


# ---------------------------------------------------------------- placing along a dim
def _index_along(a: Tensor, dim, index, op: str, sized: Tensor | None, error=RuntimeError):
    """The axis and the 1-D int64 index, after PyTorch's checks (the source's size along the axis too)."""
    axis = (normalize_dims(check_int(dim, op, "dim"), max(a.array.ndim, 1)) or (0,))[0]
    idx = check_tensor(index, op, "index")
    if idx.array.dtype.kind not in "iu":
        raise error(
            f"{op}(): Expected dtype int64 for index."
            if op != "index_add_"
            else f"{op}(): Expected dtype int32/int64 for index but got: {B.scalar_type_name(idx.array.dtype)}"
        )
    if idx.array.ndim > 1:
        raise IndexError(f"{op}(): Index is supposed to be a vector")
    flat = idx.reshape(-1)
    if sized is not None:
        along = sized.array.shape[axis] if sized.array.ndim else 1
        if flat.numel() != along:
            raise error(
                f"{op}(): Number of indices ({flat.numel()}) should be equal to source.size(dim)"
                + (f": ({along}), for dim: {axis}" if op == "index_add_" else f" ({along})")
            )
        expected = list(a.array.shape or (1,))
        expected[axis] = along
        if tuple(sized.array.shape or (1,)) != tuple(expected):
            raise RuntimeError(
                f"{op}(): Source/destination tensor must have same slice shapes. Destination slice shape: "
                f"{shape_str(tuple(expected))} at dimension {axis} and source slice shape: "
                f"{shape_str(sized.array.shape)} at dimension 0."
            )
    check_index_bounds(flat.array, 0, a.array.shape[axis] if a.array.ndim else 1)
    return axis, flat


def _key(axis: int, idx: Tensor) -> tuple:
    return (slice(None),) * axis + (idx,)


@op(batch=LOOP, methods="index_add")
def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha=1) -> Tensor:  # noqa: A002
    """``input`` with ``alpha * source``'s slices added at ``index`` along ``dim`` (repeats add up): a
    ``scatter_add`` of the source into ``input``."""
    a = check_tensor(input, "index_add", "input")
    s = check_tensor(source, "index_add", "source")
    axis, idx = _index_along(a, dim, index, "index_add_", s)
    if a.array.ndim == 0:
        return a + s.reshape(()) * alpha
    shape = [1] * a.array.ndim
    shape[axis] = -1
    spread = idx.reshape(*shape).expand(*s.array.shape)
    return a.scatter_add(axis, spread, s if alpha == 1 else s * alpha)


@op(batch=LOOP, methods="index_fill")
def index_fill(input: Tensor, dim: int, index: Tensor, value) -> Tensor:  # noqa: A002
    """``input`` with the slices at ``index`` along ``dim`` set to ``value`` (a number or a 0-d tensor)."""
    a = check_tensor(input, "index_fill", "input")
    axis, idx = _index_along(a, dim, index, "index_fill_", None, IndexError)
    if isinstance(value, Tensor) and value.array.ndim:
        raise RuntimeError(
            f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with {value.array.ndim} dimension(s)."
        )
    xp = a.device.xp
    size = a.array.shape[axis] if a.array.ndim else 1
    hit = xp.zeros(size, dtype=bool)
    hit[idx.array] = True
    shape = [1] * a.array.ndim
    if a.array.ndim:
        shape[axis] = size
    return a.masked_fill(make_leaf(hit.reshape(shape), a.device), value)


@op(batch=LOOP, methods="index_copy")
def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """``input`` with ``source``'s slices written at ``index`` along ``dim`` (an ``index_put``)."""
    a = check_tensor(input, "index_copy", "input")
    s = check_tensor(source, "index_copy", "source")
    axis, idx = _index_along(a, dim, index, "index_copy_", s, IndexError)
    if s.array.dtype != a.array.dtype:
        raise RuntimeError(
            f"index_copy_(): self and source expected to have the same dtype, but got (self) "
            f"{B.scalar_type_name(a.array.dtype)} and (source) {B.scalar_type_name(s.array.dtype)}"
        )
    if a.array.ndim == 0:
        return put(a, (), s.reshape(()))
    return put(a, _key(axis, idx), s)


def _as_index_tensors(a: Tensor, indices) -> list:
    """``indices`` (a tuple of index tensors, bool masks among them) as integer index tensors, one per dim."""
    out = []
    for idx in indices:
        idx = check_tensor(idx, "index_put", "indices")
        out.extend(idx.nonzero(as_tuple=True) if idx.array.dtype.kind == "b" else (idx,))
    if len(out) > a.array.ndim:
        raise IndexError(f"too many indices for tensor of dimension {a.array.ndim} (got {len(out)})")
    return out


@op(batch=LOOP, methods="index_put")
def index_put(input: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:  # noqa: A002
    """``input`` with ``input[indices] = values`` (``accumulate``: ``+=``, repeated places adding up).
    Accumulating is an ``index_add`` over the indexed dims flattened into one."""
    a = check_tensor(input, "index_put", "input")
    v = check_tensor(values, "index_put", "values")
    if not accumulate:
        return put(a, tuple(indices), v)
    idx = _as_index_tensors(a, indices)
    k = len(idx)
    sizes = a.array.shape[:k]
    for d, i in enumerate(idx):
        outside = (i.array < -sizes[d]) | (i.array >= sizes[d])
        if bool(outside.any()):
            bad = int(i.array[outside].reshape(-1)[0])
            raise IndexError(f"index {bad} is out of bounds for dimension {d} with size {sizes[d]}")
    flat_index = None
    for d, i in enumerate(broadcast_tensors(*idx)):
        wrapped = i % sizes[d]  # negative indices count from the end
        flat_index = wrapped if flat_index is None else flat_index * sizes[d] + wrapped
    rest = a.array.shape[k:]
    count = 1
    for n in sizes:
        count *= n
    spread = v.expand(*(flat_index.array.shape + rest)).reshape(-1, *rest)
    return a.reshape(count, *rest).index_add(0, flat_index.reshape(-1), spread).reshape(*a.array.shape)


bind_methods(Tensor, __name__)
