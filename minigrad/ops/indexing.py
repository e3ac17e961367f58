"""Indexing: ``t[key]``, ``t[key] = v``, gather, index_select, take_along_dim, masked_fill.

Reading ``t[key]`` is one op whose backward scatters the gradient into zeros of
``t``'s shape. When integer arrays may pick the same element more than once
(``x[[0, 0, 1]]``) the scatter ADDS (``xp.add.at``), so repeated picks
accumulate, as the chain rule requires. The scatter is an op too, whose backward
is the same indexing again, so higher derivatives work.

Keys follow PyTorch (and NumPy): ints, slices with positive steps, None,
Ellipsis, integer arrays, lists or tensors, boolean masks, in any combination.
"""

from __future__ import annotations

import warnings

import numpy as np

from .. import _state, _upcalls
from .. import backend as B
from ..creation import arange
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import normalize_dims
from .declare import BROADCASTING, batches_gradients, bind_methods, op, rules_saving
from .elementwise import where
from .types import Number

_vmap = _state.vmap

__all__ = ["gather", "index_select", "take_along_dim", "masked_fill"]

_INDEX_TYPE_ERROR = (
    "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})"
)


# ---------------------------------------------------------------- key normalisation
def _bounds_error(index: int, dim: int, size: int) -> IndexError:
    return IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")


def _slice_part(v):
    if v is None:
        return None
    if isinstance(v, Tensor):
        v = v.__index__()
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"slice indices must be integers or None or have an __index__ method, got {type(v).__name__}")
    return int(v)


def _array_item(item, dev: B.Device):
    """An index array on ``dev`` from a Tensor, list/tuple, NumPy or CuPy array; bool or integer only."""
    if isinstance(item, Tensor):
        arr = item.array
        if arr.dtype in (B.int8, B.int16):
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        if arr.dtype == B.uint8:  # a byte tensor is a mask, as in torch (which warns the same)
            warnings.warn(
                "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.",
                UserWarning,
                stacklevel=4,
            )
            arr = arr.astype(bool)
    elif isinstance(item, (list, tuple, range)):
        arr = np.asarray(item)
        if arr.dtype == object:
            raise IndexError("nested lists used as indices must be rectangular lists of integers or booleans")
        if arr.size == 0:
            arr = arr.astype(np.int64)
    else:
        arr = item
    kind = arr.dtype.kind
    if kind not in "biu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return B.to_device_array(arr, dev)


def _is_array(item) -> bool:
    return isinstance(item, (Tensor, list, tuple, range, np.ndarray)) or B.is_cupy_array(item)


def normalize_key(a: Tensor, key) -> tuple[tuple, bool]:
    """Check ``key`` against ``a`` and turn it into a tuple NumPy/CuPy index the right way.

    Returns ``(keys, accumulate)``: one key, or two to apply in turn (see
    ``_split_ints``); boolean masks become their ``nonzero()``
    integer arrays, index tensors become arrays on ``a``'s device, and
    ``accumulate`` says whether integer arrays could select one element twice.
    Errors follow PyTorch: bad index types, too many indices, out-of-range
    indices naming the dim and its size, and masks whose shape does not match.
    """
    if not isinstance(key, tuple):
        key = (key,)
    shape = a.array.shape
    dev = a.device
    items = []
    consumed = 0
    has_ellipsis = False
    for item in key:
        if item is None or item is Ellipsis:
            if item is Ellipsis:
                if has_ellipsis:
                    raise IndexError("an index can only have a single ellipsis ('...')")
                has_ellipsis = True
            items.append(item)
        elif isinstance(item, slice):
            step = _slice_part(item.step)
            if step is not None and step <= 0:
                raise ValueError("step must be greater than zero")
            items.append(slice(_slice_part(item.start), _slice_part(item.stop), step))
            consumed += 1
        elif isinstance(item, (bool, np.bool_)):
            items.append(bool(item))
        elif isinstance(item, (int, np.integer)):
            items.append(int(item))
            consumed += 1
        elif _is_array(item):
            arr = _array_item(item, dev)
            if arr.dtype.kind == "b" and arr.ndim == 0:
                items.append(bool(arr))
            elif arr.dtype.kind != "b" and arr.ndim == 0 and isinstance(item, Tensor):
                items.append(arr)
                consumed += 1
            else:
                items.append(arr)
                consumed += arr.ndim if arr.dtype.kind == "b" else 1
        else:
            raise IndexError(_INDEX_TYPE_ERROR.format(type(item).__name__))
    if consumed > len(shape):
        if not shape:
            raise IndexError(
                "invalid index of a 0-dim tensor. Use `tensor.item()` to convert a 0-dim tensor to a number"
            )
        raise IndexError(f"too many indices for tensor of dimension {len(shape)}")

    out = []
    dim = 0
    int_arrays = scalar_bool = False
    for item in items:
        if item is None or isinstance(item, bool):
            scalar_bool = scalar_bool or isinstance(item, bool)
            out.append(item)
        elif item is Ellipsis:
            dim += len(shape) - consumed
            out.append(item)
        elif isinstance(item, slice):
            out.append(item)
            dim += 1
        elif isinstance(item, int):
            size = shape[dim]
            if not -size <= item < size:
                raise _bounds_error(item, dim, size)
            out.append(item)
            dim += 1
        elif item.dtype.kind == "b":
            for k in range(item.ndim):
                if item.shape[k] != shape[dim + k]:
                    raise IndexError(
                        f"The shape of the mask {shape_str(item.shape)} at index {k} does not match the shape of "
                        f"the indexed tensor {shape_str(shape[dim : dim + item.ndim])} at index {k}"
                    )
            out.extend(item.nonzero())
            dim += item.ndim
        else:
            size = shape[dim]
            if item.size:
                low, high = int(item.min()), int(item.max())
                if low < -size or high >= size:
                    raise _bounds_error(low if low < -size else high, dim, size)
            out.append(item.astype(np.int64, copy=False))
            int_arrays = True
            dim += 1
    if scalar_bool and int_arrays:
        raise IndexError("minigrad does not support a boolean scalar index combined with integer array indices")
    return _split_ints(tuple(out)), int_arrays


def _split_ints(key: tuple) -> tuple:
    """PyTorch applies integer indices before array indices; NumPy treats them as array indices.

    They differ when the two are separated by a slice (``x[1, :, [0, 1]]``), so a key
    with both becomes two keys applied in turn: the ints (a basic, view-making key),
    then the arrays on what is left.
    """
    arrays = [k for k in key if not (k is None or k is Ellipsis or isinstance(k, (int, slice)))]
    if not arrays or not any(isinstance(k, int) and not isinstance(k, bool) for k in key):
        return (key,)
    first = tuple(slice(None) if any(k is arr for arr in arrays) else k for k in key)
    second = tuple(
        slice(None) if k is None or isinstance(k, (bool, slice)) else k
        for k in key
        if not (isinstance(k, int) and not isinstance(k, bool))
    )
    return (first, second)


# ---------------------------------------------------------------- batching rules (vmap)
def _is_index_array(k) -> bool:
    return isinstance(k, (Tensor, list)) or hasattr(k, "__array__")


def _batched_getitem(call):
    """``x[key]``: the key gets a leading ``:``; batched index tensors get the batch's own index
    (:func:`_batched_key`); split advanced indices loop."""
    x, key = call.args
    v = call.value(x)
    key = key if isinstance(key, tuple) else (key,)
    advanced = [i for i, k in enumerate(key) if _is_index_array(k)]
    split = advanced and advanced[-1] - advanced[0] + 1 != len(advanced)
    if split:
        return call.loop()
    if call.batched_among(key):
        return _batched_key(call, key)
    if v is None:
        return call.loop()
    return call.wrap(call.run(call.fn, v, (slice(None),) + key))


def _batched_key(call, key: tuple):
    """``x[key]`` with batched integer index tensors among slices: ``arange(B)`` joins the advanced
    indices in front (each entry reads its own rows), the batched indices padded to one rank. NumPy
    then puts the index dims first, so slices before the indices move back in front of them."""
    x = call.args[0]
    simple = all(isinstance(k, slice) or k is Ellipsis or _is_index_array(k) for k in key)
    masks = any(isinstance(k, Tensor) and k.dtype.kind == "b" for k in key)
    if not simple or masks or sum(k is Ellipsis for k in key) > 1:
        return call.loop()
    rank = call.rank(x)
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (rank - len(key) + 1) + key[at + 1 :]
    size = next(call.value(k) for k in key if call.value(k) is not None).shape[0]
    index_rank = max(call.rank(k) if isinstance(k, Tensor) else Tensor(k).dim() for k in key
                     if _is_index_array(k))  # fmt: skip
    items = tuple(call.padded(call.value(k), index_rank) if call.value(k) is not None else k for k in key)
    rows = arange(size, device=x.device).reshape((size,) + (1,) * index_rank)
    out = call.run(call.fn, call.expanded(x, size), (rows,) + items)
    before = next(i for i, k in enumerate(key) if _is_index_array(k))
    if before:  # [B, *index dims, *before, ...] -> [B, *before, *index dims, ...]
        order = (0, *range(1 + index_rank, 1 + index_rank + before), *range(1, 1 + index_rank))
        out = out.permute(order + tuple(range(len(order), out.dim())))
    return call.wrap(out)


def _batched_gather(call):
    a, index = call.args[0], call.get("index")
    dim = call.get("dim")
    size = (call.value(a) if call.value(a) is not None else call.value(index)).shape[0]
    va, vi = call.expanded(a, size), call.expanded(index, size)
    return call.wrap(call.run(call.fn, va, call.physical(dim, va.dim() - 1), vi))


def _batched_take_along_dim(call):
    a, indices = call.args[0], call.get("indices")
    dim = call.get("dim")
    if dim is None:
        return call.loop()
    size = (call.value(a) if call.value(a) is not None else call.value(indices)).shape[0]
    va, vi = call.expanded(a, size), call.expanded(indices, size)
    vi = call.padded(vi, va.dim() - 1)
    return call.wrap(call.run(call.fn, va, vi, call.physical(dim, va.dim() - 1)))


def _batched_index_select(call):
    """``index_select``: one call for a batched input; a batched index becomes a ``gather`` along ``dim``
    with the index spread over the other dims."""
    x, index, dim = call.args[0], call.get("index"), call.get("dim")
    v, vi = call.value(x), call.value(index)
    if vi is None:
        return call.wrap(call.run(call.fn, v, call.physical(dim, v.dim() - 1), index))
    rank = call.rank(x)
    if rank == 0:
        return call.loop()
    va = call.expanded(x, vi.shape[0])
    d = call.physical(dim, rank)
    picks = vi.reshape(vi.shape[0], -1)
    shape = list(va.shape)
    shape[d] = picks.shape[1]
    spread = picks.reshape((picks.shape[0],) + (1,) * (d - 1) + (picks.shape[1],) + (1,) * (rank - d))
    return call.wrap(call.run(gather, va, d, spread.expand(tuple(shape))))


# ---------------------------------------------------------------- the index op and its scatter
@rules_saving(("key", "src", "accumulate"))
def index_with_key(a: Tensor, key: tuple, op: str = "index", accumulate: bool = False) -> Tensor:
    """``a.array[key]`` as an op, for an already normalised ``key``; backward scatters into zeros.

    ``key`` is one NumPy index, or a tuple of two applied in turn, the first basic
    (see ``_split_ints``). ``accumulate`` must be True when integer arrays in
    ``key`` may repeat an element.
    """
    src = a.array.shape

    def backward(g):
        return (_scatter_into_zeros(g, key, src, accumulate),)

    def jvp(t):
        return index_with_key(t, key, op, accumulate)

    return make(_take(a.array, key), (a,), backward, op, jvp)


def _take(arr, key: tuple):
    for k in key if _is_chain(key) else (key,):
        picked = arr[k]
        if isinstance(picked, np.generic):  # every dim picked: NumPy copies the element, PyTorch gives a 0-d view
            picked = arr[(*k, Ellipsis) if isinstance(k, tuple) else (k, Ellipsis)]
        arr = picked
    return arr


def _is_chain(key: tuple) -> bool:
    return len(key) == 2 and isinstance(key[0], tuple)


@rules_saving(("key", "accumulate"))
def _scatter_into_zeros(g: Tensor, key: tuple, shape: tuple, accumulate: bool) -> Tensor:
    """Zeros of ``shape`` with ``g`` written (or, when ``accumulate``, added) at ``key``."""
    xp = g.device.xp
    out = xp.zeros(shape, dtype=g.array.dtype)
    target, last = (out[key[0]], key[1]) if _is_chain(key) else (out, key)  # a basic key gives a view
    if accumulate:
        xp.add.at(target, last, g.array)
    else:
        target[last] = g.array
    if not (_state.grad.enabled or _state.extras.on):  # no graph, no tangents: the rules are not kept
        return make(out, (g,), None, "index_backward")

    def backward(gg):
        return (index_with_key(gg, key, "index", accumulate),)

    def jvp(t):
        return _scatter_into_zeros(t, key, shape, accumulate)

    return make(out, (g,), backward, "index_backward", jvp)


def _op_name(key: tuple) -> str:
    if _is_chain(key) or any(not isinstance(k, (int, slice)) and k is not None and k is not Ellipsis for k in key):
        return "index"
    return "select" if all(isinstance(k, int) for k in key) else "slice"


def _fast_basic_key(a: Tensor, key):
    """``key`` as a tuple when it is only in-range ints and plain slices (the common case); else None."""
    if type(key) is not tuple:
        key = (key,)
    shape = a.array.shape
    if len(key) > len(shape):
        return None
    for k, n in zip(key, shape):
        tk = type(k)
        if tk is int:
            if not -n <= k < n:
                return None
        elif tk is not slice or not (k.step is None or (type(k.step) is int and k.step > 0)):
            return None
        elif not (k.start is None or type(k.start) is int) or not (k.stop is None or type(k.stop) is int):
            return None
    return key


def _host_int_arrays(a: Tensor, key):
    """``key`` as a tuple of int64 arrays when it is only integer index tensors into a NumPy tensor; else None.

    NumPy checks their range itself (an IndexError), so the bounds check of
    ``normalize_key`` is left to the rare key that fails.
    """
    if type(key) is not tuple or not 0 < len(key) <= a.array.ndim or type(a.array) is not np.ndarray:
        return None
    arrays = []
    for item in key:
        if type(item) is not Tensor:
            return None
        arr = item.array
        if type(arr) is not np.ndarray or arr.dtype.kind not in "iu" or not arr.ndim:
            return None
        arrays.append(arr if arr.dtype is B.int64 else arr.astype(B.int64))
    return tuple(arrays)


@op(batch=_batched_getitem, methods="__getitem__")
def getitem(a: Tensor, key) -> Tensor:
    """``a[key]`` with PyTorch's indexing rules; differentiable."""
    fast = _fast_basic_key(a, key)
    if fast is not None:
        return index_with_key(a, fast, _op_name(fast))
    if _vmap.levels:  # a plain tensor indexed by a batched index: its batching rule (minigrad.batching)
        if _upcalls.vmap_level_of((key,), {}) is not None:
            return _upcalls.vmap_call(getitem, (a, key), {})
    else:
        arrays = _host_int_arrays(a, key)
        if arrays is not None:
            try:
                return index_with_key(a, arrays, "index", accumulate=True)
            except IndexError:
                pass  # out of range, or shapes that do not broadcast: normalize_key says so in PyTorch's words
    key, accumulate = normalize_key(a, key)
    key = key[0] if len(key) == 1 else key
    return index_with_key(a, key, _op_name(key), accumulate)


@rules_saving(("kept", "key"))
def put(a: Tensor, key, value, into: Tensor | None = None) -> Tensor:
    """``a`` with ``a[key] = value``, as a new tensor (differentiable in ``a`` and a tensor ``value``).

    With ``into``, the value is written into that tensor's memory instead and
    nothing is recorded (``Tensor.__setitem__`` outside a graph).
    """
    parents = (a, value) if isinstance(value, Tensor) else (a,)
    if isinstance(value, Tensor):
        value = value.array
    elif isinstance(value, (list, tuple, np.ndarray)):
        array = np.asarray(value)
        if array.dtype.kind not in "biufc":  # None or text among the elements: NumPy would write NaN or fail
            raise TypeError(f"can't assign a {type(value).__name__} holding non-numbers to a {_typed(a)}")
        value = B.to_device_array(array, a.device)
    elif not isinstance(value, (int, float, complex, np.number, np.bool_)):  # bool is an int
        raise TypeError(f"can't assign a {type(value).__name__} to a {_typed(a)}")  # None wrote NaN
    keys, _ = normalize_key(a, key)
    data = a.array if into is not None else a.array.copy()
    _assign(data, keys, value)
    if into is not None:
        return into
    keep = a.device.xp.ones(data.shape, dtype=data.dtype)
    _assign(keep, keys, 0)
    kept = make_leaf(keep, a.device)

    if len(parents) == 1:

        def backward(g):
            return (g * kept,)

        def jvp(ta):
            return ta * kept

    else:  # the written value is a parent too: it gets the gradient of the places it went to

        def backward(g):
            return g * kept, g[key]

        def jvp(ta, tv):
            return put(ta * kept, key, tv)

    return make(data, parents, backward, "index_put", jvp)


def _typed(a: Tensor) -> str:
    """A tensor as PyTorch's refusal of a written value names it (``torch.FloatTensor``): by its dtype."""
    return f"{B.scalar_type_name(a.array.dtype)}Tensor"


def _assign(data, keys: tuple, value) -> None:
    target, key = (data[keys[0]], keys[1]) if len(keys) == 2 else (data, keys[0])
    try:
        target[key] = value
    except ValueError as exc:
        if not target.flags.writeable:
            raise RuntimeError(
                "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation."
            ) from None
        shape = getattr(value, "shape", None)
        if shape is not None:
            raise RuntimeError(
                f"shape mismatch: value tensor of shape {shape_str(shape)} cannot be broadcast to indexing result "
                f"of shape {shape_str(target[key].shape)}"
            ) from None
        raise RuntimeError(str(exc)) from None


def _index_array(index, op: str, dev: B.Device):
    if not isinstance(index, Tensor):
        raise TypeError(f"{op}(): argument 'index' must be Tensor, not {type(index).__name__}")
    if index.array.dtype.kind not in "iu" and index.array.size:  # an empty index may be of any dtype
        raise RuntimeError(f"{op}(): Expected dtype int32/int64 for index, got {index.array.dtype}")
    if index.device is not dev:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, {dev} and "
            f"{index.device}! (when checking argument 'index' in {op})"
        )
    return index.array.astype(np.int64, copy=False)


def check_index_bounds(idx, axis: int, size: int) -> None:
    """PyTorch's refusal of an index outside ``[0, size)`` for gather and scatter (no wrapping of negatives)."""
    if idx.size:
        low, high = int(idx.min()), int(idx.max())
        if low < 0 or high >= size:
            bad = low if low < 0 else high
            raise RuntimeError(f"index {bad} is out of bounds for dimension {axis} with size {size}")


@op(batch=_batched_gather, methods="gather")
def gather(a: Tensor, dim: int, index: Tensor) -> Tensor:
    """``out[i][j] = a[index[i][j]][j]`` for ``dim=0`` (and likewise for other dims).

    ``index`` has ``a``'s number of dims and is no larger than ``a`` in the other dims.
    """
    idx = _index_array(index, "gather", a.device)
    ndim = a.array.ndim
    (axis,) = normalize_dims(dim, ndim) or (0,)
    if idx.ndim != ndim and not (ndim == 0 and idx.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d in range(idx.ndim):
        if d != axis and idx.shape[d] > a.array.shape[d]:
            raise RuntimeError(
                f"Size does not match at dimension {d} expected index {shape_str(idx.shape)} to be smaller than "
                f"self {shape_str(a.array.shape)} apart from dimension {axis}"
            )
    if ndim == 0:
        a = a.reshape(1)
        ndim = 1
    check_index_bounds(idx, axis, a.array.shape[axis])
    xp = a.device.xp
    key = tuple(
        idx if d == axis else xp.arange(n).reshape((-1,) + (1,) * (idx.ndim - d - 1)) for d, n in enumerate(idx.shape)
    )
    return index_with_key(a, key, "gather", accumulate=True)


@op(batch=_batched_take_along_dim, methods="take_along_dim")
def take_along_dim(a: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    """Pick values along ``dim`` at ``indices`` (broadcast against ``a`` in the other dims); flat when dim is None."""
    if dim is None:
        return gather(a.reshape(-1), 0, indices.reshape(-1))
    idx = _index_array(indices, "take_along_dim", a.device)
    if idx.ndim != a.array.ndim:
        raise RuntimeError(
            f"take_along_dim(): input and indices should have the same number of dimensions, but got "
            f"{a.array.ndim} dimensions for input, and {idx.ndim} dimensions for indices"
        )
    (axis,) = normalize_dims(dim, a.array.ndim)
    a_shape, i_shape = list(a.array.shape), list(idx.shape)
    a_shape[axis] = i_shape[axis] = 1
    try:
        common = np.broadcast_shapes(tuple(a_shape), tuple(i_shape))
    except ValueError:
        raise RuntimeError(
            f"take_along_dim(): shapes {shape_str(a.array.shape)} and {shape_str(idx.shape)} do not broadcast "
            f"outside dimension {axis}"
        ) from None
    a_target = common[:axis] + (a.array.shape[axis],) + common[axis + 1 :]
    i_target = common[:axis] + (idx.shape[axis],) + common[axis + 1 :]
    idx_t = make_leaf(a.device.xp.broadcast_to(idx, i_target), a.device)
    return gather(a.expand(a_target), axis, idx_t)


@op(batch=_batched_index_select, methods="index_select")
def index_select(a: Tensor, dim: int, index: Tensor) -> Tensor:
    """The entries ``index`` (a 1-D integer tensor) along ``dim``."""
    if isinstance(index, Tensor) and index.array.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    idx = _index_array(index, "index_select", a.device)
    ndim = a.array.ndim
    axis = (normalize_dims(dim, ndim) or (0,))[0]
    if ndim == 0:
        return gather(a, 0, index.reshape(-1)).reshape(())
    if idx.size and (int(idx.min()) < 0 or int(idx.max()) >= a.array.shape[axis]):
        if ndim == 1:  # PyTorch's two kernels word it differently
            raise IndexError("index out of range in self")
        bad = int(idx.min()) if int(idx.min()) < 0 else int(idx.max())
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={a.array.shape[axis]}")
    return index_with_key(a, (slice(None),) * axis + (idx.reshape(-1),), "index_select", accumulate=True)


def _mask_array(mask, a: Tensor, op: str):
    if not isinstance(mask, Tensor):
        raise TypeError(f"{op}(): argument 'mask' must be Tensor, not {type(mask).__name__}")
    if mask.array.dtype.kind != "b":
        raise RuntimeError(f"{op} only supports boolean masks, but got mask with dtype {mask.array.dtype}")
    if mask.device is not a.device:
        raise RuntimeError(
            f"Expected all tensors to be on the same device, but found at least two devices, "
            f"{a.device} and {mask.device}! (in {op})"
        )
    return mask.array


@batches_gradients
@op(batch=BROADCASTING, methods="masked_fill", saves=("filled",))
def masked_fill(a: Tensor, mask: Tensor, value: Tensor | Number) -> Tensor:
    """``a`` with ``value`` wherever ``mask`` is True (``mask`` and ``a`` broadcast together)."""
    m = _mask_array(mask, a, "masked_fill")
    if isinstance(value, Tensor):
        if value.array.ndim:
            raise RuntimeError(
                f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value.array.ndim} dimension(s)."
            )
        fill = value.array
    elif isinstance(value, (int, float, bool, np.number)):
        fill = value
    else:
        raise TypeError(f"masked_fill(): argument 'value' must be a Number or a 0-d Tensor, not {type(value).__name__}")
    try:
        shape = np.broadcast_shapes(a.array.shape, m.shape)
    except ValueError:
        raise RuntimeError(
            f"masked_fill: the mask of shape {shape_str(m.shape)} does not broadcast with the tensor of shape "
            f"{shape_str(a.array.shape)}"
        ) from None
    xp = a.device.xp
    out = xp.where(m, xp.asarray(fill).astype(a.array.dtype), a.array)
    parents = (a, value) if isinstance(value, Tensor) else (a,)
    filled = make_leaf(xp.broadcast_to(m, shape), a.device)

    if isinstance(value, Tensor):  # a 0-d tensor fills: it gets the gradient of every place it went to

        def backward(g):
            return lambda: where(filled, 0.0, g), lambda: where(filled, g, 0.0).sum()

        def jvp(ta, tv):
            return where(filled, tv, ta)

    else:

        def backward(g):
            return (where(filled, 0.0, g),)

        def jvp(ta):
            return where(filled, 0.0, ta)

    return make(out, parents, backward, "masked_fill", jvp)


bind_methods(Tensor, __name__)
