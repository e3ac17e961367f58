"""Shape ops: reshape, flatten, permute, expand, repeat, cat, stack, split, flip, pad, ...

Each op's forward sits beside its backward closure. Ops that cut pieces out of a
tensor (narrow, select, unbind) are indexing ops underneath, so their gradients are
scattered back into zeros by ``minigrad.ops.indexing``; split's (and chunk's) pieces
give theirs to one node that concatenates them, as PyTorch's SplitBackward.
"""

from __future__ import annotations

import itertools

import numpy as np

from .. import _state
from .. import backend as B
from .._state import extras, grad
from .._tensor_state import mark_multi_view
from ..tensor import Tensor, make, make_leaf, shape_str
from ._util import check_same_device, normalize_dims
from .arithmetic import _pass_through, _same_jvp
from .declare import ALONG_DIM, LOOP, TRAILING, batches_gradients, bind_methods, on_first_batched, op, rules_saving
from .indexing import index_with_key
from .types import Dims, Ints, SplitSize

__all__ = [
    "reshape",
    "flatten",
    "unflatten",
    "squeeze",
    "unsqueeze",
    "permute",
    "transpose",
    "swapaxes",
    "movedim",
    "expand",
    "broadcast_to",
    "repeat",
    "tile",
    "cat",
    "concatenate",
    "concat",
    "stack",
    "split",
    "chunk",
    "unbind",
    "narrow",
    "select",
    "flip",
    "pad",
]


def _shape_arg(shape, what: str = "shape") -> tuple:
    """Accept ``f(2, 3)`` and ``f((2, 3))`` alike; every entry must be an int."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    if all(type(s) is int for s in shape):  # the common case, without the conversions below
        return shape
    for s in shape:
        if isinstance(s, bool) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"{what} must be a tuple of ints, but got an element of type {type(s).__name__}")
    return tuple(int(s) for s in shape)


def _axis(dim, ndim: int) -> int:
    """One dim as a non-negative axis (0-d tensors accept dim 0 and -1), with PyTorch's range error."""
    if type(dim) is int and -ndim <= dim < ndim:
        return dim % ndim
    axes = normalize_dims(dim, ndim)
    return axes[0] if axes else 0


def _slice_along(a: Tensor, axis: int, start: int, stop: int, op: str) -> Tensor:
    return index_with_key(a, (slice(None),) * axis + (slice(start, stop),), op)


def _unchanged(a: Tensor, op: str, copy: bool = False) -> Tensor:
    """What an op that changes nothing returns: a new view of ``a`` (``reshape`` to its shape, ``squeeze`` of
    nothing ...), or a copy for an op that copies (``flip`` of no dims, ``pad`` by zero), as in PyTorch, where
    ``x.reshape(x.shape) is not x`` (hooks, ``retain_grad()`` and ``requires_grad_()`` on it stay its own);
    ``a`` itself inside a rule (a backward rule's reshape to the shape its gradient has, a jvp rule's)."""
    if _state.passes.depth or _state.forward.in_rule:
        return a
    return make(a.array.copy() if copy else a.array.view(), (a,), _pass_through, op, _same_jvp)


# ---------------------------------------------------------------- batching rules (vmap)
def _sizes(args) -> tuple:
    """``*shape`` arguments as one tuple (``reshape(2, 3)`` and ``reshape((2, 3))``)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


@on_first_batched
def _batched_reshape(call, v):
    sizes = _sizes(call.args[1:]) if len(call.args) > 1 else tuple(call.kwargs.get("shape", ()))
    return call.wrap(call.run(call.fn, v, (v.shape[0],) + sizes))


@on_first_batched
def _batched_flatten(call, v):
    rank = v.dim() - 1
    start, end = call.get("start_dim"), call.get("end_dim")
    if rank == 0:
        return call.wrap(v.reshape(v.shape[0], 1))
    return call.wrap(call.run(call.fn, v, call.physical(start, rank), call.physical(end, rank)))


@on_first_batched
def _batched_unflatten(call, v):
    dim, sizes = call.get("dim"), call.get("sizes")
    return call.wrap(call.run(call.fn, v, call.physical(dim, v.dim() - 1), sizes))


@on_first_batched
def _batched_unsqueeze(call, v):
    rank, d = v.dim() - 1, call.get("dim")
    return call.wrap(call.run(call.fn, v, call.physical(d, rank + 1)))  # an entry of rank + 1 takes the new dim


@on_first_batched
def _batched_squeeze(call, v):
    shape, dim = tuple(v.shape[1:]), call.get("dim")
    rank = len(shape)
    if dim is None:
        dims = tuple(i + 1 for i, s in enumerate(shape) if s == 1)
    elif isinstance(dim, (tuple, list)):
        dims = tuple(call.physical(d, rank) for d in dim if rank == 0 or shape[d] == 1) if rank else ()
    else:
        dims = (call.physical(dim, rank),) if rank and shape[dim] == 1 else ()
        if not rank:
            call.physical(dim, 0)  # a 0-d entry takes dim 0 and -1 only
    return call.wrap(call.run(call.fn, v, dims) if dims else v)


@on_first_batched
def _batched_permute(call, v):
    rank, dims = v.dim() - 1, _sizes(call.args[1:]) if len(call.args) > 1 else tuple(call.kwargs["dims"])
    if len(dims) != rank:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = {len(dims)}"
        )
    return call.wrap(call.run(call.fn, v, (0,) + tuple(call.physical(d, rank) for d in dims)))


@on_first_batched
def _batched_transpose(call, v):
    rank = v.dim() - 1
    d0, d1 = call.get("dim0"), call.get("dim1")
    if rank == 0:
        call.physical(d0, 0), call.physical(d1, 0)  # a 0-d entry takes dim 0 and -1 only
        return call.args[0]
    return call.wrap(call.run(call.fn, v, call.physical(d0, rank), call.physical(d1, rank)))


@on_first_batched
def _batched_movedim(call, v):
    rank = v.dim() - 1
    source, destination = call.get("source"), call.get("destination")

    def moved(d):
        return tuple(call.physical(x, rank) for x in d) if isinstance(d, (tuple, list)) else call.physical(d, rank)

    return call.wrap(call.run(call.fn, v, moved(source), moved(destination)))


@on_first_batched
def _batched_expand(call, v):
    sizes = (
        _sizes(call.args[1:]) if len(call.args) > 1 else tuple(call.kwargs.get("shape", call.kwargs.get("size", ())))
    )
    v = call.padded(v, len(sizes))
    return call.wrap(call.run(call.fn, v, (v.shape[0],) + tuple(sizes)))


@on_first_batched
def _batched_repeat(call, v):
    repeats = _sizes(call.args[1:])
    rank = v.dim() - 1
    if call.fn is tile and len(repeats) < rank:
        repeats = (1,) * (rank - len(repeats)) + repeats
    v = call.padded(v, len(repeats))
    return call.wrap(call.run(call.fn, v, (1,) + tuple(repeats)))


@on_first_batched
def _batched_flip(call, v):
    dims = _sizes(call.args[1:]) if len(call.args) > 1 else call.kwargs.get("dims")
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    return call.wrap(call.run(call.fn, v, dims=tuple(call.physical(d, v.dim() - 1) for d in dims)))


def _batched_joined(call):
    """``cat``/``stack``: unbatched tensors repeated over the batch, ``dim`` past the batch dim."""
    tensors = call.args[0] if call.args else call.kwargs["tensors"]
    dim = call.get("dim")
    size = next(call.value(t).shape[0] for t in tensors if call.value(t) is not None)
    values = [call.expanded(t, size) for t in tensors]
    rank = values[0].dim() - 1
    if call.fn is stack:
        dim = call.physical(dim, rank + 1)  # an entry of rank + 1 takes the new dim
    else:
        dim = call.physical(dim, rank)
    return call.wrap(call.run(call.fn, values, dim))


# ---------------------------------------------------------------- views of the same elements
@batches_gradients
@op(batch=_batched_reshape, methods="reshape", saves=("src",))
def reshape(a: Tensor, *shape) -> Tensor:
    """Same data in a new shape (one dim may be -1)."""
    src = a.array.shape
    if len(shape) == 1 and type(shape[0]) is tuple:
        shape = shape[0]
        if shape == src:  # the rules' own calls often reshape to the shape the gradient has
            return _unchanged(a, "reshape")
    shape = _shape_arg(shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for s in shape:
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s}")
    try:
        out = a.array.reshape(shape)
    except ValueError:
        raise RuntimeError(f"shape '{shape_str(shape)}' is invalid for input of size {a.array.size}") from None
    if out.shape == src:
        return _unchanged(a, "reshape")
    if not (grad.enabled or extras.on):  # no graph, no tangents: the rules are not kept
        return make(out, (a,), None, "reshape")

    def backward(g):
        return (g.reshape(src),)

    def jvp(t):
        return t.reshape(shape)

    return make(out, (a,), backward, "reshape", jvp)


@op(batch=_batched_flatten, methods="flatten")
def flatten(a: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Merge dims ``start_dim`` to ``end_dim`` (inclusive) into one; a 0-d tensor becomes 1-D."""
    ndim = a.array.ndim
    if ndim == 0:
        normalize_dims(start_dim, 0), normalize_dims(end_dim, 0)
        return reshape(a, 1)
    (start,), (end,) = normalize_dims(start_dim, ndim), normalize_dims(end_dim, ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    shape = a.array.shape
    return reshape(a, shape[:start] + (_prod(shape[start : end + 1]),) + shape[end + 1 :])


def _prod(sizes) -> int:
    n = 1
    for s in sizes:
        n *= s
    return n


@op(batch=_batched_unflatten, methods="unflatten")
def unflatten(a: Tensor, dim: int, sizes) -> Tensor:
    """Split dim ``dim`` into ``sizes`` (one entry may be -1)."""
    axis = _axis(dim, a.array.ndim)
    sizes = _shape_arg((sizes,), "sizes")
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    n = a.array.shape[axis]
    known = _prod(s for s in sizes if s != -1)
    if (-1 not in sizes and known != n) or (-1 in sizes and (known == 0 or n % known)):
        raise RuntimeError(
            f"unflatten: Provided sizes {shape_str(sizes)} don't multiply up to the size of dim {dim} ({n}) in the input "
            f"tensor"
        )
    shape = a.array.shape
    return reshape(a, shape[:axis] + sizes + shape[axis + 1 :])


@batches_gradients
@op(batch=_batched_unsqueeze, methods="unsqueeze", saves=("src",))
def unsqueeze(a: Tensor, dim: int) -> Tensor:
    """Insert a dim of size 1 at ``dim`` (``-1`` appends one)."""
    (axis,) = normalize_dims(dim, a.array.ndim + 1)
    src = a.array.shape

    def backward(g):
        return (g.reshape(src),)

    def jvp(t):
        return t.unsqueeze(axis)

    return make(a.device.xp.expand_dims(a.array, axis), (a,), backward, "unsqueeze", jvp)


@batches_gradients
@op(batch=_batched_squeeze, methods="squeeze", saves=("src",))
def squeeze(a: Tensor, dim: Dims = None) -> Tensor:
    """Remove dims of size 1: all of them, or those in ``dim`` (int or tuple) that have size 1."""
    src = a.array.shape
    axes = normalize_dims(dim, a.array.ndim) if dim is not None else tuple(range(a.array.ndim))
    axes = tuple(ax for ax in axes if src[ax] == 1)
    if not axes:
        return _unchanged(a, "squeeze")

    def backward(g):
        return (g.reshape(src),)

    def jvp(t):
        return t.squeeze(axes)

    return make(a.device.xp.squeeze(a.array, axis=axes), (a,), backward, "squeeze", jvp)


@batches_gradients
@op(batch=_batched_permute, methods="permute", saves=("inverse",))
def permute(a: Tensor, *dims) -> Tensor:
    """Reorder the dims: ``out.shape[i] == a.shape[dims[i]]``."""
    dims = _shape_arg(dims, "dims")
    ndim = a.array.ndim
    if len(dims) != ndim:
        raise RuntimeError(
            f"permute(): number of dimensions in the tensor input does not match the length of the desired "
            f"ordering of dimensions i.e. input.dim() = {ndim} is not equal to len(dims) = {len(dims)}"
        )
    axes = tuple(_axis(d, ndim) for d in dims)
    if len(set(axes)) != ndim:
        raise RuntimeError(f"permute(): duplicate dims are not allowed, got {list(dims)}")
    if axes == tuple(range(ndim)):
        return _unchanged(a, "permute")
    inverse = tuple(sorted(range(ndim), key=axes.__getitem__))

    def backward(g):
        return (g.permute(inverse),)

    def jvp(t):
        return t.permute(axes)

    return make(a.device.xp.transpose(a.array, axes), (a,), backward, "permute", jvp)


@batches_gradients
@op(batch=_batched_transpose, methods=("transpose", "swapaxes", "swapdims"), saves=("d0", "d1"))
def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    """Swap two dims."""
    ndim = a.array.ndim
    d0, d1 = _axis(dim0, ndim), _axis(dim1, ndim)
    if d0 == d1:
        return _unchanged(a, "transpose")

    def backward(g):
        return (g.transpose(d0, d1),)

    def jvp(t):
        return t.transpose(d0, d1)

    return make(a.array.swapaxes(d0, d1), (a,), backward, "transpose", jvp)


swapaxes = transpose


@op(batch=_batched_movedim, methods=("movedim", "moveaxis"))
def movedim(a: Tensor, source: Dims, destination: Dims) -> Tensor:
    """Move dims ``source`` to positions ``destination`` (ints or equal-length tuples)."""
    ndim = a.array.ndim
    if isinstance(source, (int, np.integer)) != isinstance(destination, (int, np.integer)):
        raise TypeError(
            f"movedim(): 'source' and 'destination' must both be ints or both be tuples of ints, not "
            f"{type(source).__name__} and {type(destination).__name__}"
        )
    src = (source,) if isinstance(source, (int, np.integer)) else tuple(source)
    dst = (destination,) if isinstance(destination, (int, np.integer)) else tuple(destination)
    if len(src) != len(dst):
        raise RuntimeError(
            f"movedim: Invalid source or destination dims: source ({list(src)} dims) should contain the same "
            f"number of dims as destination ({list(dst)} dims)"
        )
    src = tuple(_axis(d, ndim) for d in src)
    dst = tuple(_axis(d, ndim) for d in dst)
    for name, dims in (("source", src), ("destination", dst)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({list(dims)})")
    order = [d for d in range(ndim) if d not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return permute(a, order)


def _T(a: Tensor) -> Tensor:
    """The dims in reverse order (``permute(a, (n-1, ..., 0))``); a tensor of fewer than 2 dims as it is."""
    if a.array.ndim < 2:
        return _unchanged(a, "permute")
    return permute(a, tuple(range(a.array.ndim - 1, -1, -1)))


def _mT(a: Tensor) -> Tensor:
    """The last two dims swapped (``transpose(a, -2, -1)``, with its own rule: the same swap)."""
    ndim = a.array.ndim
    if ndim < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {ndim}-D tensor.")
    return make(a.array.swapaxes(-2, -1), (a,), _mT_backward, "transpose", _mT_jvp)


def _mT_backward(g):
    return (g.mT,)


def _mT_jvp(t):
    return t.mT


# ---------------------------------------------------------------- broadcasting and repetition
@op(batch=_batched_expand, methods="expand")
def expand(a: Tensor, *shape) -> Tensor:
    """Broadcast to a larger shape without copying (-1 keeps a dim)."""
    src = a.array.shape
    if len(shape) == 1 and type(shape[0]) is tuple:
        target = shape[0]
        if _broadcasts(src, target):  # the rules' own calls: a valid target of non-negative sizes
            if target == src:
                return _unchanged(a, "expand")
            return make(
                B.broadcast_view(a.device.xp, a.array, target), (a,), _expand_backward, "expand", _expand_jvp(target)
            )
    shape = _shape_arg(shape, "size")
    lead = len(shape) - len(src)
    if lead < 0:
        raise RuntimeError(
            f"expand: the number of sizes provided ({len(shape)}) must be greater or equal to the "
            f"number of dimensions in the tensor ({len(src)})"
        )
    for i, n in enumerate(shape[:lead]):
        if n < 0:
            raise RuntimeError(
                f"The expanded size of the tensor ({n}) isn't allowed in a leading, non-existing dimension {i}"
            )
    target = tuple(src[i - lead] if n == -1 and i >= lead else n for i, n in enumerate(shape))
    for i, n in enumerate(src):
        if n != 1 and n != target[lead + i]:
            raise RuntimeError(
                f"The expanded size of the tensor ({target[lead + i]}) must match the existing size ({n}) "
                f"at non-singleton dimension {lead + i}.  Target sizes: {shape_str(shape)}.  "
                f"Tensor sizes: {shape_str(src)}"
            )
    if target == src:
        return _unchanged(a, "expand")
    return make(B.broadcast_view(a.device.xp, a.array, target), (a,), _expand_backward, "expand", _expand_jvp(target))


def _broadcasts(src: tuple, target: tuple) -> bool:
    """Whether ``src`` broadcasts to ``target`` as it is (no -1 to resolve, no size to check further)."""
    lead = len(target) - len(src)
    if lead < 0:
        return False
    for i, n in enumerate(src):
        t = target[lead + i]
        if type(t) is not int or t < 0 or (n != t and n != 1):
            return False
    for t in target[:lead]:
        if type(t) is not int or t < 0:
            return False
    return True


def _expand_jvp(target: tuple):
    def jvp(t):
        return t.expand(target)

    return jvp


def _expand_backward(g):
    """Backward of ``expand``: the gradient as is; the engine sums it back over the expanded dims."""
    return (g,)


@op(batch=_batched_expand, methods="broadcast_to")
def broadcast_to(a: Tensor, shape) -> Tensor:
    """``a`` broadcast to ``shape`` (like ``expand``)."""
    return expand(a, _shape_arg((shape,) if not isinstance(shape, (tuple, list)) else (tuple(shape),), "size"))


@op(batch=LOOP, methods="expand_as")
def expand_as(a: Tensor, other: Tensor) -> Tensor:
    """``a`` broadcast to ``other``'s shape: ``expand(a, other.shape)``."""
    return expand(a, other.array.shape)


@op(batch=LOOP, methods=("reshape_as", "view_as"))
def reshape_as(a: Tensor, other: Tensor) -> Tensor:
    """``a`` in ``other``'s shape: ``reshape(a, other.shape)``."""
    return reshape(a, other.array.shape)


@op(batch=LOOP, methods="ravel")
def ravel(a: Tensor) -> Tensor:
    """``a`` flattened to one dimension: ``flatten(a)``."""
    return flatten(a)


@op(batch=_batched_repeat, methods="repeat", saves=("repeats", "padded", "src"))
def repeat(a: Tensor, *repeats) -> Tensor:
    """Tile ``a``: ``repeat(2, 3)`` repeats dim -2 twice and dim -1 three times (new leading dims allowed)."""
    repeats = _shape_arg(repeats, "repeats")
    src = a.array.shape
    if len(repeats) < len(src):
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    if any(r < 0 for r in repeats):
        raise RuntimeError(f"Trying to create tensor with negative dimension: repeats {list(repeats)}")
    padded = (1,) * (len(repeats) - len(src)) + src
    out = a.device.xp.tile(a.array.reshape(padded), repeats)

    def backward(g):
        # out dim i is repeats[i] copies of padded[i]: view it as (repeats[i], padded[i]) and sum the copies.
        interleaved = tuple(n for pair in zip(repeats, padded) for n in pair)
        summed = g.reshape(interleaved).sum(dim=tuple(range(0, 2 * len(padded), 2)))
        return (summed.reshape(src),)

    def jvp(t):
        return t.repeat(*repeats)

    return make(out, (a,), backward, "repeat", jvp)


@op(batch=_batched_repeat, methods="tile")
def tile(a: Tensor, *dims) -> Tensor:
    """Like ``repeat``, but fewer dims than ``a.ndim`` are padded with leading 1s."""
    dims = _shape_arg(dims, "dims")
    return repeat(a, (1,) * (a.array.ndim - len(dims)) + dims)


# ---------------------------------------------------------------- joining
def _common_dtype(tensors, op: str):
    first = tensors[0]
    for t in tensors[1:]:
        check_same_device(first, t, op)
    dt = first.array.dtype
    if any(t.array.dtype != dt for t in tensors):
        dt = B.result_dtype(*[t for t in tensors if t.array.ndim] or tensors)
    return dt


def _tensor_list(tensors, op: str) -> tuple:
    if isinstance(tensors, Tensor):
        raise TypeError(f"{op}(): argument 'tensors' must be a sequence of Tensors, not Tensor")
    tensors = tuple(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"{op}(): expected a sequence of Tensors, but element {i} is of type {type(t).__name__}")
    if not tensors:
        raise RuntimeError(f"{op}(): expected a non-empty list of Tensors")
    return tensors


@op(batch=_batched_joined, saves=("axis", "bounds"))
def cat(tensors, dim: int = 0) -> Tensor:
    """Join tensors along an existing dim; all other dims must match. Dtypes are promoted."""
    tensors = _tensor_list(tensors, "cat")
    # PyTorch still skips 1-D empty tensors, whatever the other shapes are.
    parts = [t for t in tensors if t.array.shape != (0,)] or [tensors[0]]
    for i, t in enumerate(tensors):
        if t.array.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    ref = parts[0]
    axis = _axis(dim, ref.array.ndim)
    for i, t in enumerate(tensors):
        if t.array.shape == (0,) and t is not ref:
            continue
        if t.array.ndim != ref.array.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref.array.ndim} and {t.array.ndim}")
        for d, (n, m) in enumerate(zip(ref.array.shape, t.array.shape)):
            if d != axis and n != m:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {axis}. Expected size {n} but got size {m} "
                    f"for tensor number {i} in the list."
                )
    dt = _common_dtype(tensors, "cat")
    xp = ref.device.xp
    out = xp.concatenate([t.array if t.array.dtype == dt else t.array.astype(dt) for t in parts], axis=axis)
    bounds = list(itertools.accumulate((t.array.shape[axis] for t in parts), initial=0))
    parts = tuple(parts)

    def backward(g):
        return tuple(_slice_along(g, axis, lo, hi, "slice") for lo, hi in zip(bounds[:-1], bounds[1:]))

    def jvp(*tangents):
        return cat(tangents, axis)

    return make(out, parts, backward, "cat", jvp)


concatenate = concat = cat


@batches_gradients
@op(batch=_batched_joined, saves=("axis", "n"))
def stack(tensors, dim: int = 0) -> Tensor:
    """Join same-shaped tensors along a new dim. Dtypes are promoted."""
    tensors = _tensor_list(tensors, "stack")
    first = tensors[0]
    for i, t in enumerate(tensors):
        if t.array.shape != first.array.shape:
            raise RuntimeError(
                f"stack expects each tensor to be equal size, but got {shape_str(first.array.shape)} at "
                f"entry 0 and {shape_str(t.array.shape)} at entry {i}"
            )
    dt = _common_dtype(tensors, "stack")
    (axis,) = normalize_dims(dim, first.array.ndim + 1)
    out = first.device.xp.stack([t.array.astype(dt, copy=False) for t in tensors], axis=axis)
    n = len(tensors)

    def backward(g):
        return tuple(g.select(axis, i) for i in range(n))

    def jvp(*tangents):
        return stack(tangents, axis)

    return make(out, tensors, backward, "stack", jvp)


# ---------------------------------------------------------------- cutting into pieces
@op(batch=ALONG_DIM, methods="narrow")
def narrow(a: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor:
    """The ``length`` elements of dim ``dim`` from ``start`` (negative start counts from the end)."""
    if isinstance(start, Tensor):
        if start.array.ndim or start.array.dtype.kind not in "iu":
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start.array)
    if a.array.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    axis = _axis(dim, a.array.ndim)
    size = a.array.shape[axis]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    start %= size if size else 1
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return _slice_along(a, axis, start, start + length, "slice")


@op(batch=ALONG_DIM, methods="select")
def select(a: Tensor, dim: int, index: int) -> Tensor:
    """The slice at ``index`` along ``dim``, with that dim removed."""
    if a.array.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    axis = _axis(dim, a.array.ndim)
    size = a.array.shape[axis]
    index = int(index)
    if not -size <= index < size:
        raise IndexError(
            f"select(): index {index} out of range for tensor of size {shape_str(a.array.shape)} at dimension {axis}"
        )
    return index_with_key(a, (slice(None),) * axis + (index % size,), "select")


@op(batch=ALONG_DIM, methods="split")
def split(a: Tensor, split_size_or_sections: SplitSize, dim: int = 0) -> tuple:
    """Pieces of ``a`` along ``dim``: of equal size ``n`` (the last may be smaller) or of the listed sizes.

    The pieces are views of ``a``. In a graph, ``a``'s gradient is their gradients concatenated, zeros
    for a piece that got none: one node joins them, as PyTorch's SplitBackward."""
    if a.array.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    axis = _axis(dim, a.array.ndim)
    size = a.array.shape[axis]
    if isinstance(split_size_or_sections, Tensor):  # a 0-dim tensor, as PyTorch takes it
        split_size_or_sections = int(split_size_or_sections.array)
    if isinstance(split_size_or_sections, (int, np.integer)):
        step = int(split_size_or_sections)
        if step < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={step}")
        if step == 0 and size:
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
        # An empty dim splits into one empty piece, as in PyTorch.
        sizes = [step] * (size // step) + ([size % step] if size % step else []) if size else [0]
    else:
        sizes = list(_shape_arg((tuple(split_size_or_sections),), "split_sizes"))
        if sum(sizes) != size or any(s < 0 for s in sizes):
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension "
                f"{axis}), but got split_sizes={sizes}"
            )
    bounds = list(itertools.accumulate(sizes, initial=0))
    keys = [(slice(None),) * axis + (slice(lo, hi),) for lo, hi in zip(bounds[:-1], bounds[1:])]
    if len(keys) < 2 or not (grad.enabled and a.requires_grad):
        return _several_views(tuple(index_with_key(a, key, "split") for key in keys), "Split")
    pending = {}  # each piece's gradient, left by the piece's rule for the hub's
    hub = _split_hub(a, axis, keys, pending)
    return _several_views(tuple(_split_piece(a, hub, key, k, pending) for k, key in enumerate(keys)), "Split")


@rules_saving(("axis", "device", "dtype", "pending", "shapes"))
def _split_hub(a: Tensor, axis: int, keys: list, pending: dict) -> Tensor:
    """The node that gives ``a`` its gradient from all of ``split``'s pieces at once, as PyTorch's
    SplitBackward: the pieces' gradients joined along ``axis`` (zeros for a piece that got none), one
    array of ``a``'s shape (a gradient per piece written into zeros of that shape, then added, made five
    for a GPT block's q, k, v).

    Each piece is a node of the hub (and of ``a``, whose memory it views); the piece's rule leaves its
    gradient in ``pending`` and sends the hub a one-hot mark (the hub's value holds one zero per piece),
    so the hub's rule, which runs after every piece's, reads from the summed marks which pieces got one
    in this pass."""
    shapes = [a.array[key].shape for key in keys]
    dtype, device = a.array.dtype, a.device

    def backward(reached):
        return (cat(_gradients_of_pieces(pending, reached, shapes, dtype, device), axis),)

    def jvp(t):  # the marks carry no tangent; the pieces take theirs from a's
        return _zeros(len(keys), dtype, device)

    return make(device.xp.zeros(len(keys), dtype=dtype), (a,), backward, "split", jvp)


@rules_saving(("device", "dtype", "k", "n", "pending"))
def _split_piece(a: Tensor, hub: Tensor, key: tuple, k: int, pending: dict) -> Tensor:
    """Piece ``k`` of a split of ``a``: a view of ``a`` at ``key``, a node of the hub (``_split_hub``)
    and of ``a``; its gradient goes to ``a`` through the hub only."""
    n, dtype, device = hub.array.shape[0], hub.array.dtype, hub.device

    def backward(g):
        pending[k] = g
        return _one_hot(k, n, dtype, device), None

    def jvp(t_hub, t_a):
        return index_with_key(t_a, key, "split")

    return make(a.array[key], (hub, a), backward, "split", jvp)


def _gradients_of_pieces(pending: dict, reached: Tensor, shapes: list, dtype, device) -> list:
    """The gradient of each piece in this pass (marked in ``reached``), zeros for the others; ``pending``
    emptied."""
    ran = B.to_host(reached.array).tolist()
    grads = [pending.pop(k) if ran[k] else _zeros(shape, dtype, device) for k, shape in enumerate(shapes)]
    pending.clear()
    return grads


def _one_hot(k: int, n: int, dtype, device) -> Tensor:
    """The mark piece ``k`` of ``n`` sends the split's hub: 1 at ``k``, 0 elsewhere."""
    mark = device.xp.zeros(n, dtype=dtype)
    mark[k] = 1
    return make_leaf(mark, device)


def _zeros(shape, dtype, device) -> Tensor:
    """Zeros of ``shape``, a constant."""
    return make_leaf(device.xp.zeros(shape, dtype=dtype), device)


def _several_views(pieces: tuple, op: str) -> tuple:
    """Mark ``pieces``, the views one call of ``op`` returns: PyTorch refuses a recorded in-place op on them
    (``ops.inplace``), in or outside the graph."""
    for index, piece in enumerate(pieces):
        mark_multi_view(piece, op, index)
    return pieces


@op(batch=ALONG_DIM, methods="chunk")
def chunk(a: Tensor, chunks: int, dim: int = 0) -> tuple:
    """Split into ``chunks`` pieces of size ``ceil(n / chunks)`` (fewer when the size runs out)."""
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    if a.array.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    size = a.array.shape[_axis(dim, a.array.ndim)]
    if size == 0:  # PyTorch gives ``chunks`` empty pieces
        return split(a, [0] * chunks, dim)
    return split(a, -(-size // chunks), dim)


@op(batch=ALONG_DIM, methods="unbind")
def unbind(a: Tensor, dim: int = 0) -> tuple:
    """Every slice along ``dim``, with that dim removed."""
    if a.array.ndim == 0:
        raise RuntimeError("Dimension specified as 0 but tensor has no dimensions")
    axis = _axis(dim, a.array.ndim)
    return _several_views(tuple(select(a, axis, i) for i in range(a.array.shape[axis])), "Unbind")


# ---------------------------------------------------------------- reversal and padding
@op(batch=_batched_flip, methods="flip", saves=("axes",))
def flip(a: Tensor, *args, dims=None) -> Tensor:
    """Reverse the order of elements along ``dims`` (``x.flip(0, 1)``, ``flip(x, (0, 1))`` or ``dims=``)."""
    if dims is not None and args:
        raise TypeError("flip() got multiple values for argument 'dims'")
    dims = _shape_arg(args if dims is None else (dims,), "dims")
    axes = normalize_dims(dims, a.array.ndim)
    if not axes:
        return _unchanged(a, "flip", copy=True)

    def backward(g):
        return (g.flip(axes),)

    def jvp(t):
        return t.flip(axes)

    return make(a.device.xp.flip(a.array, axis=axes), (a,), backward, "flip", jvp)


_PAD_MODES = ("constant", "reflect", "replicate", "circular")


@op(batch=TRAILING)
def pad(a: Tensor, pad: Ints, mode: str = "constant", value=None) -> Tensor:
    """Pad (or, with negative amounts, crop) the last dims, PyTorch's way.

    ``pad`` lists (before, after) pairs starting from the LAST dim:
    ``(left, right)`` pads dim -1, ``(left, right, top, bottom)`` dims -1 and -2.
    ``mode`` is "constant" (with ``value``, default 0), "reflect", "replicate" or "circular".
    """
    pad = _shape_arg((tuple(pad),), "pad")
    ndim = a.array.ndim
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > ndim:
        raise RuntimeError(
            f"Padding length should be less than or equal to two times the input dimension but got padding "
            f"length {len(pad)} and input of dimension {ndim}"
        )
    if mode not in _PAD_MODES:
        raise NotImplementedError(f"pad(): unknown padding mode '{mode}'; expected one of {', '.join(_PAD_MODES)}")
    widths = [(0, 0)] * ndim
    for k in range(len(pad) // 2):
        widths[ndim - 1 - k] = (pad[2 * k], pad[2 * k + 1])
    if mode != "constant":
        if value is not None:
            raise ValueError(f"pad(): padding mode '{mode}' doesn't take in value argument")
        return _pad_by_index(a, widths, mode)
    return _pad_constant(a, tuple(widths), 0 if value is None else value)


@rules_saving(("inner", "cropped"))
def _pad_constant(a: Tensor, widths: tuple, value) -> Tensor:
    src = a.array.shape
    crop = tuple(slice(-lo if lo < 0 else 0, n + hi if hi < 0 else n) for (lo, hi), n in zip(widths, src))
    grow = tuple((max(lo, 0), max(hi, 0)) for lo, hi in widths)
    for d, ((lo, hi), n) in enumerate(zip(widths, src)):
        if n + lo + hi < 0:
            raise RuntimeError(
                f"The input size {n}, plus negative padding {lo} and {hi} resulted in a negative output size, "
                f"which is invalid. Check dimension {d} of your input."
            )
    if all(lo == 0 and hi == 0 for lo, hi in widths):
        return _unchanged(a, "pad", copy=True)
    data = a.array[crop]
    out = a.device.xp.pad(data, grow, mode="constant", constant_values=value)

    inner = tuple(slice(lo, lo + n) for (lo, _), n in zip(grow, data.shape))  # where the input went
    cropped = tuple((-lo if lo < 0 else 0, -hi if hi < 0 else 0) for lo, hi in widths)
    if any(lo or hi for lo, hi in cropped):

        def backward(g):
            # undo the growth by slicing, then undo the crop by zero padding
            return (_pad_constant(_index_key(g, inner), cropped, 0),)

    else:

        def backward(g):
            return (_index_key(g, inner),)  # undo the growth by slicing

    def jvp(t):
        return _pad_constant(t, widths, 0)

    return make(out, (a,), backward, "pad", jvp)


def _index_key(a: Tensor, key: tuple) -> Tensor:
    if all(k == slice(0, n) for k, n in zip(key, a.array.shape)):
        return a
    return index_with_key(a, key, "slice")


def _pad_by_index(a: Tensor, widths: list, mode: str) -> Tensor:
    """reflect/replicate/circular padding as a gather along each padded dim (repeated sources accumulate)."""
    xp = a.device.xp
    out = a
    for d, (lo, hi) in enumerate(widths):
        if lo == 0 and hi == 0:
            continue
        n = a.array.shape[d]
        if lo < 0 or hi < 0:
            raise RuntimeError(f"pad(): negative padding is only supported in constant mode, got {lo} and {hi}")
        if mode == "reflect" and (lo >= n or hi >= n):
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input dimension, but got: "
                f"padding ({lo}, {hi}) at dimension {d} of input {shape_str(a.array.shape)}"
            )
        if mode == "circular" and (lo > n or hi > n):
            raise RuntimeError("Padding value causes wrapping around more than once.")
        if n == 0:
            raise RuntimeError(f"pad(): cannot pad an empty dimension ({d}) in '{mode}' mode")
        pos = np.arange(-lo, n + hi)
        if mode == "replicate":
            src = np.clip(pos, 0, n - 1)
        elif mode == "circular":
            src = pos % n
        else:
            src = np.abs(pos)
            src = np.where(src > n - 1, 2 * (n - 1) - src, src)
        out = index_with_key(out, (slice(None),) * d + (xp.asarray(src),), "pad", accumulate=True)
    return out


bind_methods(Tensor, __name__)
Tensor.T = property(_T)
Tensor.mT = property(_mT)
