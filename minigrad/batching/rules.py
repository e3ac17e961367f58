"""Batching rules: each op's call rewritten for a whole batch at once, PyTorch's design in our words.

A rule gets the op, the level being batched and the call's arguments. Arguments batched at that
level hold their entries along dim 0 (``value_at``); the rule calls the op once on those values,
with dims shifted past the batch dim, shapes padded so broadcasting lines the batch dims up, and
wraps the result as batched again. Arguments batched at an outer level only are plain tensors
here: the op they reach dispatches them at their own level. Families of ops share a rule
(elementwise, reductions by ``dim``, ops on the trailing dims); the rest have their own below.
"""

from __future__ import annotations

import inspect

from .. import _upcalls, creation, ops
from ..autograd.grad_mode import no_grad
from ..nn.functional import (
    _adaptive_pool,
    _attention,
    _bilinear,
    _composed_activation,
    _conv,
    _conv1d,
    _conv_transpose,
    _dropout,
    _embedding,
    _grid_sample,
    _group_norm,
    _instance_rms_norm,
    _interpolate,
    _likelihood_loss,
    _linear,
    _loss,
    _margin_loss,
    _normalization,
    _one_hot,
    _pixel_shuffle,
    _pooling,
    _unpool,
)
from ..ops import (
    activation,
    arithmetic,
    compare,
    conversion,
    declare,
    distance,
    division,
    elementwise,
    indexing,
    inplace,
    layout,
    linalg,
    matrix,
    reduction,
    scan,
    scattering,
    shape,
    special,
    trig,
)
from ..ops._entry import extremum_arguments
from ..tensor import Tensor
from . import levels
from .dispatch import RULES, call, loop
from .tensor import value_at, wrap

RANDOMNESS_ERROR = (
    "vmap: called random operation while in randomness error mode. Please either use the 'same' or "
    "'different' randomness flags on vmap or perform the randomness operation out of vmap"
)


# ---------------------------------------------------------------- helpers
def run(fn, *args, **kwargs):
    """The op on the rewritten arguments, through dispatch: an argument batched at an outer level
    goes on to that level's rule."""
    return call(fn, args, kwargs)


def _rank(x, level: int) -> int:
    """``x``'s logical rank at ``level`` (0 for a Python number)."""
    v = value_at(x, level)
    if v is not None:
        return v.dim() - 1
    return x.dim() if isinstance(x, Tensor) else 0


def _batched(out, level: int):
    """An op's result (a tensor, or a tuple of them) batched at ``level``."""
    if isinstance(out, Tensor):
        return wrap(out, level)
    if isinstance(out, (tuple, list)):
        parts = [_batched(o, level) for o in out]
        return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)
    return out


def _dim_error(d, rank: int) -> IndexError:
    low, high = -max(rank, 1), max(rank, 1) - 1
    return IndexError(f"Dimension out of range (expected to be in range of [{low}, {high}], but got {d})")


def _physical(d: int, rank: int) -> int:
    """Logical dim ``d`` of a rank-``rank`` entry as a dim of the batched value (past the batch dim)."""
    if not -max(rank, 1) <= d < max(rank, 1):
        raise _dim_error(d, rank)
    return d % max(rank, 1) + 1


def _padded(v: Tensor, rank: int) -> Tensor:
    """Batched value ``v`` with size-1 dims after the batch dim, so its entries have rank ``rank``."""
    missing = rank - (v.dim() - 1)
    if missing <= 0:
        return v
    sizes = tuple(v.shape)
    return v.reshape(sizes[:1] + (1,) * missing + sizes[1:])


def _expanded(x, level: int, size: int) -> Tensor:
    """``x``'s batched value at ``level``; an unbatched ``x`` repeated ``size`` times (a broadcast view)."""
    v = value_at(x, level)
    if v is not None:
        return v
    return x.unsqueeze(0).expand((size,) + tuple(x.shape))


def _batched_among(values, level: int) -> bool:
    return any(value_at(x, level) is not None for x in values)


_slots: dict = {}


def _slot(fn, name: str) -> tuple:
    """``(position, default)`` of ``fn``'s argument ``name`` (position None when keyword-only)."""
    key = (fn, name)
    if key not in _slots:
        params = list(inspect.signature(fn).parameters.values())
        for i, p in enumerate(params):
            if p.name == name:
                position = i if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) else None
                default = None if p.default is inspect.Parameter.empty else p.default
                _slots[key] = (position, default)
                break
        else:
            _slots[key] = (None, None)
    return _slots[key]


def _get(fn, args, kwargs, name: str):
    position, default = _slot(fn, name)
    if name in kwargs:
        return kwargs[name]
    if position is not None and position < len(args):
        return args[position]
    return default


def _put(fn, args: list, kwargs: dict, name: str, value) -> None:
    position, _ = _slot(fn, name)
    if name not in kwargs and position is not None and position < len(args):
        args[position] = value
    else:
        kwargs[name] = value


def _sizes(args) -> tuple:
    """``*shape`` arguments as one tuple (``reshape(2, 3)`` and ``reshape((2, 3))``)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


# ---------------------------------------------------------------- families
def broadcasting(fn, level, args, kwargs):
    """Elementwise ops with broadcasting (any number of tensor operands): pad every batched operand's
    entries to the common rank, so broadcasting lines the batch dims up at dim 0."""
    rank = 0
    for x in list(args) + list(kwargs.values()):
        if isinstance(x, Tensor):
            rank = max(rank, _rank(x, level))

    def align(x):
        v = value_at(x, level)
        return x if v is None else _padded(v, rank)

    return _batched(run(fn, *[align(a) for a in args], **{k: align(v) for k, v in kwargs.items()}), level)


def trailing(fn, level, args, kwargs):
    """Ops that act on the trailing dims of their first operand only (tril, pad, clone, to): the batch
    dim in front changes nothing."""
    v = value_at(args[0], level)
    if v is None or _batched_among(list(args[1:]) + list(kwargs.values()), level):
        return loop(fn, level, args, kwargs)
    return _batched(run(fn, v, *args[1:], **kwargs), level)


def _by_dim(name: str, all_when_none: bool = True):
    """Ops that take ``dim`` (reductions, softmax, cumsum): the dims move past the batch dim; ``dim=None``
    (every dim) becomes the tuple of the entries' dims."""

    def rule(fn, level, args, kwargs):
        v = value_at(args[0], level)
        if v is None or _batched_among(list(args[1:]) + list(kwargs.values()), level):
            return loop(fn, level, args, kwargs)
        rank = v.dim() - 1
        dim = _get(fn, args, kwargs, name)
        if dim is None and not all_when_none:
            return loop(fn, level, args, kwargs)
        scalar = rank == 0
        if scalar:  # a 0-d entry: give it one dim of size 1 to reduce over
            v, rank = v.unsqueeze(1), 1
            dims = (1,) if dim is None or isinstance(dim, (tuple, list)) else _check_scalar_dim(dim)
        elif dim is None or (isinstance(dim, (tuple, list)) and not dim):
            dims = tuple(range(1, rank + 1))
        elif isinstance(dim, (tuple, list)):
            dims = tuple(_physical(d, rank) for d in dim)
        else:
            dims = _physical(dim, rank)
        args, kwargs = list(args), dict(kwargs)
        _put(fn, args, kwargs, name, dims)
        out = run(fn, v, *args[1:], **kwargs)
        if scalar:
            out = _squeezed_scalar(out)
        return _batched(out, level)

    return rule


def _check_scalar_dim(d) -> int:
    if d not in (0, -1):
        raise _dim_error(d, 0)
    return 1


def _squeezed_scalar(out):
    if isinstance(out, Tensor):
        return out.reshape(out.shape[:1]) if out.dim() > 1 else out
    if isinstance(out, (tuple, list)):
        parts = [_squeezed_scalar(o) for o in out]
        return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)
    return out


by_dim = _by_dim("dim")
by_dims = _by_dim("dims", all_when_none=False)
by_dim_required = _by_dim("dim", all_when_none=False)


def extremum(fn, level, args, kwargs):
    """``max``/``min``: with another tensor, elementwise; with ``dim``, a reduction; alone, over every dim."""
    args, kwargs = extremum_arguments(args, kwargs)  # a batched tensor's methods come here without op entry
    if isinstance(kwargs.get("other"), Tensor):
        return broadcasting(fn, level, args, kwargs)
    if _get(fn, args, kwargs, "dim") is None:
        whole = reduction.amax if fn is reduction.max else reduction.amin
        return by_dim(whole, level, (args[0],), {})
    return by_dim(fn, level, args, kwargs)


def arg_extremum(fn, level, args, kwargs):
    """``argmax``/``argmin`` without ``dim`` index the flattened entry."""
    if _get(fn, args, kwargs, "dim") is not None:
        return by_dim(fn, level, args, kwargs)
    v = value_at(args[0], level)
    if v is None or _get(fn, args, kwargs, "keepdim"):
        return loop(fn, level, args, kwargs)
    return wrap(run(fn, v.reshape(v.shape[0], -1), 1), level)


def composite(fn, level, args, kwargs):
    """Ops written with other ops only (mse_loss): run as they are, each inner op batched by its rule."""
    return fn(*args, **kwargs)


def inplace_elementwise(fn, level, args, kwargs):
    """In-place arithmetic: the batched target's value changes in place; other operands align to it."""
    v = value_at(args[0], level)
    if v is None:
        name = getattr(fn, "__name__", "inplace")
        raise RuntimeError(
            f"vmap: {name}(self, *extra_args) is not possible because there exists a Tensor `other` in extra_args "
            "that has more elements than `self`. This happened due to `other` being vmapped over but `self` not "
            f"being vmapped over in a vmap. Please try to use out-of-place operators instead of {name}."
        )
    rank = v.dim() - 1

    def align(x):
        w = value_at(x, level)
        return x if w is None else _padded(w, rank)

    run(fn, v, *[align(a) for a in args[1:]], **{k: align(x) for k, x in kwargs.items()})
    return args[0]


def random_op(fn, level, args, kwargs):
    """``dropout``: its mask is a random tensor of one entry's shape, drawn as :func:`random_factory` draws."""
    x, p, training = args[0], _get(fn, args, kwargs, "p"), _get(fn, args, kwargs, "training")
    if value_at(x, level) is None or _batched_among(list(args[1:]) + list(kwargs.values()), level):
        return loop(fn, level, args, kwargs)
    if not training or p == 0.0 or not 0.0 <= p <= 1.0:
        return fn(*args, **kwargs)  # the identity, or dropout's own error
    if p == 1.0:
        return x * 0.0
    uniform = random_factory(creation.rand.__wrapped__, (tuple(x.shape),), {"dtype": x.dtype, "device": x.device})
    return x * ((uniform >= p).to(x.dtype) * (1.0 / (1.0 - p)))


def random_like(fn, level, args, kwargs):
    """``rand_like``/``randn_like``/``randint_like``: a factory call with one entry's shape (:func:`random_factory`)."""
    t = args[0]
    dtype, device = _get(fn, args, kwargs, "dtype") or t.dtype, _get(fn, args, kwargs, "device") or t.device
    if fn is creation.randint_like.__wrapped__:
        low, high = _get(fn, args, kwargs, "low"), _get(fn, args, kwargs, "high")
        factory_args = (low, high, tuple(t.shape))
        return random_factory(creation.randint.__wrapped__, factory_args, {"dtype": dtype, "device": device})
    factory = creation.rand if fn is creation.rand_like.__wrapped__ else creation.randn
    options = {"dtype": dtype, "device": device, "requires_grad": _get(fn, args, kwargs, "requires_grad")}
    return random_factory(factory.__wrapped__, (tuple(t.shape),), options)


# ---------------------------------------------------------------- shape ops
def reshape_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    if v is None:
        return loop(fn, level, args, kwargs)
    sizes = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs.get("shape", ()))
    return wrap(run(fn, v, (v.shape[0],) + sizes), level)


def flatten_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    rank = v.dim() - 1
    start, end = _get(fn, args, kwargs, "start_dim"), _get(fn, args, kwargs, "end_dim")
    if rank == 0:
        return wrap(v.reshape(v.shape[0], 1), level)
    return wrap(run(fn, v, _physical(start, rank), _physical(end, rank)), level)


def unflatten_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    dim, sizes = _get(fn, args, kwargs, "dim"), _get(fn, args, kwargs, "sizes")
    return wrap(run(fn, v, _physical(dim, v.dim() - 1), sizes), level)


def unsqueeze_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    rank, d = v.dim() - 1, _get(fn, args, kwargs, "dim")
    if not -rank - 1 <= d <= rank:
        raise _dim_error(d, rank + 1)
    return wrap(run(fn, v, d % (rank + 1) + 1), level)


def squeeze_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    shape, dim = tuple(v.shape[1:]), _get(fn, args, kwargs, "dim")
    rank = len(shape)
    if dim is None:
        dims = tuple(i + 1 for i, s in enumerate(shape) if s == 1)
    elif isinstance(dim, (tuple, list)):
        dims = tuple(_physical(d, rank) for d in dim if rank == 0 or shape[d] == 1) if rank else ()
    else:
        dims = (_physical(dim, rank),) if rank and shape[dim] == 1 else ()
        if not rank:
            _check_scalar_dim(dim)
    return wrap(run(fn, v, dims) if dims else v, level)


def permute_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    rank, dims = v.dim() - 1, _sizes(args[1:]) if len(args) > 1 else tuple(kwargs["dims"])
    if len(dims) != rank:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
            f"desired ordering of dimensions i.e. input.dim() = {rank} is not equal to len(dims) = {len(dims)}"
        )
    return wrap(run(fn, v, (0,) + tuple(_physical(d, rank) for d in dims)), level)


def transpose_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    rank = v.dim() - 1
    d0, d1 = _get(fn, args, kwargs, "dim0"), _get(fn, args, kwargs, "dim1")
    if rank == 0:
        _check_scalar_dim(d0), _check_scalar_dim(d1)
        return args[0]
    return wrap(run(fn, v, _physical(d0, rank), _physical(d1, rank)), level)


def t_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    if v.dim() - 1 > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {v.dim() - 1}D")
    return wrap(v.transpose(1, 2), level) if v.dim() == 3 else args[0]


def movedim_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    rank = v.dim() - 1
    source, destination = _get(fn, args, kwargs, "source"), _get(fn, args, kwargs, "destination")

    def moved(d):
        return tuple(_physical(x, rank) for x in d) if isinstance(d, (tuple, list)) else _physical(d, rank)

    return wrap(run(fn, v, moved(source), moved(destination)), level)


def expand_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    sizes = _sizes(args[1:]) if len(args) > 1 else tuple(kwargs.get("shape", kwargs.get("size", ())))
    v = _padded(v, len(sizes))
    return wrap(run(fn, v, (v.shape[0],) + tuple(sizes)), level)


def repeat_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    repeats = _sizes(args[1:])
    rank = v.dim() - 1
    if fn is shape.tile and len(repeats) < rank:
        repeats = (1,) * (rank - len(repeats)) + repeats
    v = _padded(v, len(repeats))
    return wrap(run(fn, v, (1,) + tuple(repeats)), level)


def along_dim(fn, level, args, kwargs):
    """``narrow``/``select``/``split``/``chunk``/``unbind``/``unflatten``-like ops: ``dim`` past the batch dim."""
    v = value_at(args[0], level)
    if v is None or _batched_among(list(args[1:]) + list(kwargs.values()), level):
        return loop(fn, level, args, kwargs)
    args, kwargs = list(args), dict(kwargs)
    _put(fn, args, kwargs, "dim", _physical(_get(fn, args, kwargs, "dim"), v.dim() - 1))
    return _batched(run(fn, v, *args[1:], **kwargs), level)


def flip_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    dims = _sizes(args[1:]) if len(args) > 1 else kwargs.get("dims")
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    return wrap(run(fn, v, dims=tuple(_physical(d, v.dim() - 1) for d in dims)), level)


def joined(fn, level, args, kwargs):
    """``cat``/``stack``: unbatched tensors repeated over the batch, ``dim`` past the batch dim."""
    tensors = args[0] if args else kwargs["tensors"]
    dim = _get(fn, args, kwargs, "dim")
    size = next(value_at(t, level).shape[0] for t in tensors if value_at(t, level) is not None)
    values = [_expanded(t, level, size) for t in tensors]
    rank = values[0].dim() - 1
    if fn is shape.stack:
        if not -rank - 1 <= dim <= rank:
            raise _dim_error(dim, rank + 1)
        dim = dim % (rank + 1) + 1
    else:
        dim = _physical(dim, rank)
    return wrap(run(fn, values, dim), level)


# ---------------------------------------------------------------- indexing
def _is_index_array(k) -> bool:
    return isinstance(k, (Tensor, list)) or hasattr(k, "__array__")


def getitem_rule(fn, level, args, kwargs):
    """``x[key]``: the key gets a leading ``:``; batched index tensors get the batch's own index
    (:func:`_batched_key`); split advanced indices loop."""
    x, key = args
    v = value_at(x, level)
    key = key if isinstance(key, tuple) else (key,)
    advanced = [i for i, k in enumerate(key) if _is_index_array(k)]
    split = advanced and advanced[-1] - advanced[0] + 1 != len(advanced)
    if split:
        return loop(fn, level, args, kwargs)
    if _batched_among(key, level):
        return _batched_key(fn, level, args, kwargs, key)
    if v is None:
        return loop(fn, level, args, kwargs)
    return wrap(run(fn, v, (slice(None),) + key), level)


def _batched_key(fn, level, args, kwargs, key: tuple):
    """``x[key]`` with batched integer index tensors among slices: ``arange(B)`` joins the advanced
    indices in front (each entry reads its own rows), the batched indices padded to one rank. NumPy
    then puts the index dims first, so slices before the indices move back in front of them."""
    x = args[0]
    simple = all(isinstance(k, slice) or k is Ellipsis or _is_index_array(k) for k in key)
    masks = any(isinstance(k, Tensor) and k.dtype.kind == "b" for k in key)
    if not simple or masks or sum(k is Ellipsis for k in key) > 1:
        return loop(fn, level, args, kwargs)
    rank = _rank(x, level)
    if Ellipsis in key:
        at = key.index(Ellipsis)
        key = key[:at] + (slice(None),) * (rank - len(key) + 1) + key[at + 1 :]
    size = next(value_at(k, level) for k in key if value_at(k, level) is not None).shape[0]
    index_rank = max(_rank(k, level) if isinstance(k, Tensor) else Tensor(k).dim() for k in key
                     if _is_index_array(k))  # fmt: skip
    items = tuple(_padded(value_at(k, level), index_rank) if value_at(k, level) is not None else k for k in key)
    rows = creation.arange(size, device=x.device).reshape((size,) + (1,) * index_rank)
    out = run(fn, _expanded(x, level, size), (rows,) + items)
    before = next(i for i, k in enumerate(key) if _is_index_array(k))
    if before:  # [B, *index dims, *before, ...] -> [B, *before, *index dims, ...]
        order = (0, *range(1 + index_rank, 1 + index_rank + before), *range(1, 1 + index_rank))
        out = out.permute(order + tuple(range(len(order), out.dim())))
    return wrap(out, level)


def setitem_rule(fn, level, args, kwargs):
    t, key, value = args
    v = value_at(t, level)
    keys = key if isinstance(key, tuple) else (key,)
    if v is None:
        return inplace_elementwise(fn, level, args, kwargs)
    if _batched_among(keys, level) or any(_is_index_array(k) for k in keys):
        loop(fn, level, args, kwargs, warn=True)
        return None
    w = value_at(value, level)
    if w is not None:
        w = _padded(w, t[key].dim())
    run(fn, v, (slice(None),) + keys, value if w is None else w)
    return None


def gather_rule(fn, level, args, kwargs):
    a, index = args[0], _get(fn, args, kwargs, "index")
    dim = _get(fn, args, kwargs, "dim")
    size = (value_at(a, level) if value_at(a, level) is not None else value_at(index, level)).shape[0]
    va, vi = _expanded(a, level, size), _expanded(index, level, size)
    return wrap(run(fn, va, _physical(dim, va.dim() - 1), vi), level)


def take_along_dim_rule(fn, level, args, kwargs):
    a, indices = args[0], _get(fn, args, kwargs, "indices")
    dim = _get(fn, args, kwargs, "dim")
    if dim is None:
        return loop(fn, level, args, kwargs)
    size = (value_at(a, level) if value_at(a, level) is not None else value_at(indices, level)).shape[0]
    va, vi = _expanded(a, level, size), _expanded(indices, level, size)
    vi = _padded(vi, va.dim() - 1)
    return wrap(run(fn, va, vi, _physical(dim, va.dim() - 1)), level)


def index_select_rule(fn, level, args, kwargs):
    """``index_select``: one call for a batched input; a batched index becomes a ``gather`` along ``dim``
    with the index spread over the other dims."""
    x, index, dim = args[0], _get(fn, args, kwargs, "index"), _get(fn, args, kwargs, "dim")
    v, vi = value_at(x, level), value_at(index, level)
    if vi is None:
        return wrap(run(fn, v, _physical(dim, v.dim() - 1), index), level)
    rank = _rank(x, level)
    if rank == 0:
        return loop(fn, level, args, kwargs)
    va = _expanded(x, level, vi.shape[0])
    d = _physical(dim, rank)
    picks = vi.reshape(vi.shape[0], -1)
    shape = list(va.shape)
    shape[d] = picks.shape[1]
    spread = picks.reshape((picks.shape[0],) + (1,) * (d - 1) + (picks.shape[1],) + (1,) * (rank - d))
    return wrap(run(indexing.gather, va, d, spread.expand(tuple(shape))), level)


def scatter_rule(fn, level, args, kwargs):
    """``scatter``/``scatter_add``: every tensor repeated over the batch where unbatched, ``dim`` past it."""
    names = ("input", "index", "src")
    tensors = {n: _get(fn, args, kwargs, n) for n in names}
    rank = _rank(tensors["input"], level)
    if rank == 0:
        return loop(fn, level, args, kwargs)
    size = next(value_at(t, level) for t in tensors.values() if value_at(t, level) is not None).shape[0]
    changes = {n: _expanded(t, level, size) for n, t in tensors.items() if isinstance(t, Tensor)}
    changes["dim"] = _physical(_get(fn, args, kwargs, "dim"), rank)
    args, kwargs = _with(fn, args, kwargs, **changes)
    return wrap(run(fn, *args, **kwargs), level)


def take_rule(fn, level, args, kwargs):
    """``take``: each entry flattened to one row, the indices (negatives counted from its end) gathered."""
    x, index = _get(fn, args, kwargs, "input"), _get(fn, args, kwargs, "index")
    size = next(value_at(t, level) for t in (x, index) if value_at(t, level) is not None).shape[0]
    rows, picks = _expanded(x, level, size).reshape(size, -1), _expanded(index, level, size)
    flat = picks.reshape(size, -1)
    flat = flat + (flat < 0).long() * rows.shape[1]
    return wrap(run(indexing.gather, rows, 1, flat).reshape(tuple(picks.shape)), level)


def repeat_interleave_rule(fn, level, args, kwargs):
    """``repeat_interleave`` with one count for all or unbatched counts: ``dim`` past the batch dim, the
    flattened entry for ``dim=None`` (batched counts change each entry's length: they loop)."""
    x, repeats, dim = args[0], _get(fn, args, kwargs, "repeats"), _get(fn, args, kwargs, "dim")
    v = value_at(x, level)
    if v is None or value_at(repeats, level) is not None or _get(fn, args, kwargs, "output_size") is not None:
        return loop(fn, level, args, kwargs)
    if dim is None:
        v, dim = v.reshape(v.shape[0], -1), 1
    else:
        dim = _physical(dim, v.dim() - 1)
    return wrap(run(fn, v, repeats, dim), level)


# ---------------------------------------------------------------- linear algebra
def matmul_rule(fn, level, args, kwargs):
    """``matmul`` (and ``mm``, ``bmm``, ``mv``, ``dot``): vectors become matrices, the batch dims of both
    operands are padded to the same count, one broadcasting matmul, then the added dims go again."""
    a, b = args[0], args[1] if len(args) > 1 else next(iter(kwargs.values()))
    ra, rb = _rank(a, level), _rank(b, level)
    if ra == 0 or rb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {ra}D and {rb}D")
    va, vb = value_at(a, level), value_at(b, level)
    if vb is None and rb == 2:  # entries @ one matrix: the batch is more rows of one matmul
        return wrap(ops.matmul(va, b), level)
    if va is None and ra == 2 and rb == 1:  # one matrix @ a batch of vectors: (vectors @ matrixᵀ)
        return wrap(ops.matmul(vb, a.transpose(-1, -2)), level)
    left, right = (a if va is None else va), (b if vb is None else vb)
    if ra == 1:
        left = left.unsqueeze(-2)
    if rb == 1:
        right = right.unsqueeze(-1)
    stacked = max(max(ra, 2), max(rb, 2)) - 2  # batch dims of the matmul itself
    if va is not None:
        left = _padded(left, stacked + 2)
    if vb is not None:
        right = _padded(right, stacked + 2)
    out = ops.matmul(left, right)
    if ra == 1:
        out = out.squeeze(-2)
    if rb == 1:
        out = out.squeeze(-1)
    return wrap(out, level)


def rmatmul_rule(fn, level, args, kwargs):
    return matmul_rule(linalg.matmul, level, (args[1], args[0]), {})


def outer_rule(fn, level, args, kwargs):
    a, b = args
    return a.unsqueeze(-1) * b.unsqueeze(-2)


def linear_rule(fn, level, args, kwargs):
    """``linear``: one ``linear`` call for a batched input, a matmul where the weight is batched."""
    x, weight = args[0], args[1]
    bias = args[2] if len(args) > 2 else kwargs.get("bias")
    v = value_at(x, level)
    if v is not None and value_at(weight, level) is None and value_at(bias, level) is None and x.dim() > 0:
        return wrap(run(fn, v, weight, bias), level)
    out = x @ weight.transpose(-1, -2)
    return out if bias is None else out + bias


# ---------------------------------------------------------------- einsum, diag, trace
class _Rank:
    """Stands in for an operand when parsing an equation: one entry's rank, where ``.array.ndim`` is read."""

    def __init__(self, ndim: int):
        self.array, self.ndim = self, ndim


def einsum_rule(fn, level, args, kwargs):
    """``einsum``: the batched operands and the output gain one fresh letter in front of their subscripts."""
    equation, operands = args[0], args[1:]
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    subs, out_sub = linalg._parse_einsum(equation, tuple(_Rank(_rank(t, level)) for t in operands))
    used = set("".join(subs) + out_sub)
    letter = next((c for c in linalg._LETTERS if c not in used), None)
    if letter is None:
        return loop(fn, level, args, kwargs)
    values = [value_at(t, level) for t in operands]
    lhs = ",".join(s if v is None else letter + s for s, v in zip(subs, values))
    inputs = [t if v is None else v for t, v in zip(operands, values)]
    return wrap(run(fn, f"{lhs}->{letter}{out_sub}", *inputs), level)


def _diagonal_positions(rows: int, cols: int, k: int) -> tuple:
    start_r, start_c = (0, k) if k >= 0 else (-k, 0)
    n = max(0, min(rows - start_r, cols - start_c))
    return list(range(start_r, start_r + n)), list(range(start_c, start_c + n))


def diag_rule(fn, level, args, kwargs):
    """``diag``: a matrix's diagonal is one indexing of the batch; a vector's matrix is ``Rᵀ diag(v) C``,
    with ``R``/``C`` the one-hot rows and columns of the diagonal's places."""
    v, k = value_at(args[0], level), _get(fn, args, kwargs, "diagonal")
    if v is None or not isinstance(k, int) or v.dim() - 1 not in (1, 2):
        return loop(fn, level, args, kwargs)
    if v.dim() == 3:
        rows, cols = _diagonal_positions(v.shape[1], v.shape[2], k)
        return wrap(v[:, rows, cols], level)
    n = v.shape[1]
    size = n + abs(k)
    rows, cols = _diagonal_positions(size, size, k)
    eye = creation.eye(size, dtype=v.dtype, device=v.device)
    r, c = eye[rows], eye[cols]  # [n, size] one-hot
    return wrap((r.T.unsqueeze(0) * v.unsqueeze(1)) @ c, level)


def trace_rule(fn, level, args, kwargs):
    v = value_at(args[0], level)
    if v is None or v.dim() != 3:
        return loop(fn, level, args, kwargs)
    rows, cols = _diagonal_positions(v.shape[1], v.shape[2], 0)
    picked = v[:, rows, cols]
    return wrap(picked.sum(1) if v.dtype.kind == "f" else picked.long().sum(1), level)


# ---------------------------------------------------------------- convolutions and pools
# op -> (spatial dims, the input ranks it takes): the first is the rank with a batch dim N
_WINDOWED = {
    _conv.conv2d: (2, (4,)),
    _conv.max_pool2d: (2, (4, 3)),
    _pooling.avg_pool2d: (2, (4, 3)),
    _conv_transpose.conv_transpose2d: (2, (4, 3)),
    _conv1d.conv1d: (1, (3, 2)),
    _conv1d.max_pool1d: (1, (3, 2)),
    _conv1d.avg_pool1d: (1, (3, 2)),
    _conv_transpose.conv_transpose1d: (1, (3, 2)),
    _unpool.max_unpool2d: (2, (4, 3)),
    _unpool.max_unpool1d: (1, (3, 2)),
}


_first_names: dict = {}


def _first_name(fn) -> str:
    """The name of ``fn``'s first argument (``x`` or ``input``)."""
    if fn not in _first_names:
        _first_names[fn] = next(iter(inspect.signature(fn).parameters))
    return _first_names[fn]


def _with(fn, args, kwargs, **changes) -> tuple:
    args, kwargs = list(args), dict(kwargs)
    for name, value in changes.items():
        _put(fn, args, kwargs, name, value)
    return args, kwargs


def _folded(fn, level, args, kwargs, **batched):
    """Batched arguments (by name, all of one shape), the rest not: the batch folds into the op's N (or is
    N, for unbatched entries)."""
    spatial, ranks = _WINDOWED[fn]
    if next(iter(batched.values())).dim() - 1 == spatial + 1:
        args, kwargs = _with(fn, args, kwargs, **batched)
        return _wrap_each(run(fn, *args, **kwargs), level, lambda out: out)
    return _into_n(fn, level, args, kwargs, **batched)


def _into_n(fn, level, args, kwargs, **batched):
    """The op on ``[B * N, ...]`` (each batched argument so), its result split back into ``[B, N, ...]``."""
    sizes = tuple(next(iter(batched.values())).shape)
    folded = (sizes[0] * sizes[1],) + sizes[2:]
    args, kwargs = _with(fn, args, kwargs, **{name: v.reshape(folded) for name, v in batched.items()})
    return _wrap_each(run(fn, *args, **kwargs), level, lambda out: out.reshape(sizes[:2] + tuple(out.shape[1:])))


def unpool_rule(fn, level, args, kwargs):
    """max_unpool of batched values and indices: the batch folds into the op's N (or is N, for
    unbatched entries), as for the pools that made them."""
    v = value_at(args[0], level)
    at = value_at(args[1], level) if len(args) > 1 else value_at(kwargs.get("indices"), level)
    if v is None or at is None or v.shape != at.shape:
        return loop(fn, level, args, kwargs)
    return _folded(fn, level, args, kwargs, input=v, indices=at)


def _wrap_each(result, level, shape_back):
    """The op's result (a tensor, or a tuple: a pool's values and indices) batched at ``level``."""
    if isinstance(result, tuple):
        return tuple(wrap(shape_back(out), level) for out in result)
    return wrap(shape_back(result), level)


def windowed_rule(fn, level, args, kwargs):
    """Pools, and convolutions whose weight and bias are not batched: one call, the batch folded into N."""
    x = _get(fn, args, kwargs, _first_name(fn))
    v = value_at(x, level)
    others = [a for a in list(args) + list(kwargs.values()) if a is not x]
    if v is None or v.dim() - 1 not in _WINDOWED[fn][1] or _batched_among(others, level):
        return loop(fn, level, args, kwargs)
    return _folded(fn, level, args, kwargs, **{_first_name(fn): v})


def conv_rule(fn, level, args, kwargs):
    """Convolutions: a batched input alone folds into N; a batched weight or bias makes one grouped
    convolution, each entry's channels a group of their own (``groups`` times the batch size)."""
    x = _get(fn, args, kwargs, _first_name(fn))
    weight, bias = _get(fn, args, kwargs, "weight"), _get(fn, args, kwargs, "bias")
    groups = _get(fn, args, kwargs, "groups")
    vx, vw, vb = value_at(x, level), value_at(weight, level), value_at(bias, level)
    spatial, ranks = _WINDOWED[fn]
    rank = _rank(x, level)
    if rank not in ranks or _rank(weight, level) != spatial + 2 or not isinstance(groups, int):
        return loop(fn, level, args, kwargs)
    if vw is None and vb is None:
        return _folded(fn, level, args, kwargs, **{_first_name(fn): vx})
    size = next(v for v in (vx, vw, vb) if v is not None).shape[0]
    xs = _expanded(x, level, size)
    if rank == spatial + 1:
        xs = xs.unsqueeze(1)
    sizes = tuple(xs.shape)  # [B, N, C, *S]
    grouped = xs.movedim(0, 1).reshape((sizes[1], size * sizes[2]) + sizes[3:])
    ws = _expanded(weight, level, size)
    ws = ws.reshape((size * ws.shape[1],) + tuple(ws.shape[2:]))
    bs = None if bias is None else _expanded(bias, level, size).reshape(-1)
    args, kwargs = _with(
        fn, args, kwargs, **{_first_name(fn): grouped, "weight": ws, "bias": bs, "groups": size * groups}
    )
    out = run(fn, *args, **kwargs)  # [N, B * O, *S']
    out = out.reshape((sizes[1], size, out.shape[1] // size) + tuple(out.shape[2:])).movedim(1, 0)
    return wrap(out.squeeze(1) if rank == spatial + 1 else out, level)


def batch_of_samples_rule(fn, level, args, kwargs):
    """``group_norm``, ``interpolate``, the adaptive pools: each of the N samples of ``[N, C, ...]`` on its
    own, so a batched input folds into N (the other arguments unbatched)."""
    x = _get(fn, args, kwargs, _first_name(fn))
    v = value_at(x, level)
    others = [a for a in list(args) + list(kwargs.values()) if a is not x]
    if v is None or v.dim() < 3 or _batched_among(others, level):
        return loop(fn, level, args, kwargs)
    return _into_n(fn, level, args, kwargs, **{_first_name(fn): v})


def one_hot_rule(fn, level, args, kwargs):
    """``one_hot`` acts on each index alone, given ``num_classes``; inferred, the class count would depend on
    each entry's values, so it is refused as PyTorch refuses it."""
    num_classes = _get(fn, args, kwargs, "num_classes")
    if isinstance(num_classes, int) and not isinstance(num_classes, bool) and num_classes <= 0:
        raise RuntimeError(
            "When vmap-ing torch.nn.functional.one_hot, please provide an explicit positive num_classes argument."
        )
    return trailing(fn, level, args, kwargs)


UNBATCHED_RUNNING_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which will be updated in "
    "place, were not batched.\nIf you are using a module and do not need eval mode, please set "
    "`track_running_stats` to be False.If you are using a prebuilt module and do not need eval mode, please see "
    "the functorch website for resources on how to patch your module to work with vmap"
)


def batch_norm_rule(fn, level, args, kwargs):
    """``batch_norm``: each entry's ``[N, C, *]`` normalised on its own, so the batch joins the channels:
    one call on ``[N, B * C, *]`` with the running statistics, weight and bias as ``[B * C]`` (unbatched
    ones repeated). Training updates batched running statistics in place, each entry its own; unbatched
    ones beside a batched input are refused, as PyTorch refuses them."""
    names = ("x", "running_mean", "running_var", "weight", "bias")
    x, mean, var, weight, bias = (_get(fn, args, kwargs, n) for n in names)
    training = _get(fn, args, kwargs, "training")
    if _rank(x, level) < 2:
        return loop(fn, level, args, kwargs)
    stats_batched = value_at(mean, level) is not None or value_at(var, level) is not None
    if training and value_at(x, level) is not None and mean is not None and not stats_batched:
        raise RuntimeError(UNBATCHED_RUNNING_STATS)
    size = levels.find(level).size
    xs = _expanded(x, level, size)  # [B, N, C, *]
    sizes = tuple(xs.shape)
    folded = xs.movedim(0, 1).reshape((sizes[1], size * sizes[2]) + sizes[3:])

    def per_channel(t):
        return None if t is None else _expanded(t, level, size).reshape(size * sizes[2])

    flat_mean, flat_var = per_channel(mean), per_channel(var)
    args, kwargs = _with(
        fn, args, kwargs, x=folded, running_mean=flat_mean, running_var=flat_var,
        weight=per_channel(weight), bias=per_channel(bias),
    )  # fmt: skip
    out = run(fn, *args, **kwargs)
    if training:  # the call updated the [B * C] copies: back into each entry's statistics
        with no_grad():
            for stat, flat in ((mean, flat_mean), (var, flat_var)):
                if stat is None:
                    continue
                v = value_at(stat, level)
                updated = flat.reshape((size,) + tuple(stat.shape))
                if v is not None:
                    v.copy_(updated)
                else:  # unbatched statistics of an unbatched input: every entry made the same update, once
                    stat.copy_(updated[0])
    return wrap(out.reshape((sizes[1], size) + sizes[2:]).movedim(1, 0), level)


def cross_rule(fn, level, args, kwargs):
    """``cross``: along the entries' ``dim`` (by default their first dim of size 3), one dim further in."""
    a, b = _get(fn, args, kwargs, "input"), _get(fn, args, kwargs, "other")
    dim = _get(fn, args, kwargs, "dim")
    rank = _rank(a, level)
    if rank == 0 or _rank(b, level) != rank or not isinstance(dim, (int, type(None))):
        return loop(fn, level, args, kwargs)
    shapes = [tuple(x.shape) for x in (a, b)]  # the entries' shapes
    if dim is None:
        common = tuple(max(m, n) for m, n in zip(*shapes))
        dim = next((i for i, n in enumerate(common) if n == 3), None)
        if dim is None:
            raise RuntimeError("no dimension of size 3 in input")
    va, vb = value_at(a, level), value_at(b, level)
    left = a.unsqueeze(0) if va is None else va
    right = b.unsqueeze(0) if vb is None else vb
    return wrap(run(fn, left, right, dim=_physical(dim, rank)), level)


def attention_rule(fn, level, args, kwargs):
    """``scaled_dot_product_attention`` batches over every dim before the last two: query, key, value and
    the mask repeated over the batch where unbatched, padded to one rank. Dropout follows ``randomness``
    (one mask per entry with "different"; "same" loops)."""
    names = ("query", "key", "value", "attn_mask")
    tensors = {n: _get(fn, args, kwargs, n) for n in names}
    present = {n: t for n, t in tensors.items() if isinstance(t, Tensor)}
    size = next(value_at(t, level) for t in present.values() if value_at(t, level) is not None).shape[0]
    if _get(fn, args, kwargs, "dropout_p"):
        mode = levels.find(level).randomness
        if mode == "error":
            raise RuntimeError(RANDOMNESS_ERROR)
        if mode == "same":
            return loop(fn, level, args, kwargs)
    rank = max(_rank(t, level) for t in present.values())
    changes = {n: _padded(_expanded(t, level, size), rank) for n, t in present.items()}
    args, kwargs = _with(fn, args, kwargs, **changes)
    return wrap(run(fn, *args, **kwargs), level)


# ---------------------------------------------------------------- losses
def class_loss_rule(fn, level, args, kwargs):
    """``cross_entropy`` and ``nll_loss`` (``[C]``, ``[N, C]`` or ``[N, C, d1, ...]`` entries): the batch's
    rows (class dim last) flattened into one call without reduction, then each entry reduced as the call asked: the mean divides by the summed
    class weights of the rows that are not ignored (by the row count for probability targets)."""
    input, target = _get(fn, args, kwargs, "input"), _get(fn, args, kwargs, "target")  # noqa: A001
    weight, ignore_index = _get(fn, args, kwargs, "weight"), _get(fn, args, kwargs, "ignore_index")
    reduction = _get(fn, args, kwargs, "reduction")
    rank = _rank(input, level)
    if not isinstance(target, Tensor) or rank == 0 or value_at(weight, level) is not None:
        return loop(fn, level, args, kwargs)
    vi = value_at(input, level)
    size = (vi if vi is not None else value_at(target, level)).shape[0]
    vi, vt = _expanded(input, level, size), _expanded(target, level, size)
    class_dim = 1 if rank == 1 else 2
    classes = vi.shape[class_dim]
    probabilities = vt.dtype.kind == "f"
    rows = vt.movedim(class_dim, -1).reshape(-1, classes) if probabilities else vt.reshape(-1)
    inputs = vi.movedim(class_dim, -1).reshape(-1, classes)
    args, kwargs = _with(fn, args, kwargs, input=inputs, target=rows, reduction="none")
    losses = run(fn, *args, **kwargs).reshape(size, -1)
    if reduction == "none":
        return wrap(losses.reshape(tuple(vi.shape[:class_dim]) + tuple(vi.shape[class_dim + 1 :])), level)
    if reduction == "sum":
        return wrap(losses.sum(1), level)
    if probabilities:
        return wrap(losses.mean(1), level)
    kept = vt.reshape(size, -1) != ignore_index
    if weight is None:
        counted = kept.sum(1).to(losses.dtype)
    else:
        counted = (weight.to(losses.dtype).detach()[kept.long() * vt.reshape(size, -1)] * kept).sum(1)
    return wrap(losses.sum(1) / counted, level)


def binary_loss_rule(fn, level, args, kwargs):
    """``binary_cross_entropy(_with_logits)``: elementwise, so one call without reduction (the weights
    padded to line up with the batch), then each entry reduced."""
    names = ("input", "target", "weight", "pos_weight")
    tensors = {n: _get(fn, args, kwargs, n) for n in names if _slot(fn, n) != (None, None) or n in kwargs}
    reduction = _get(fn, args, kwargs, "reduction")
    input, target = tensors["input"], tensors["target"]  # noqa: A001
    if not isinstance(target, Tensor) or _rank(target, level) != _rank(input, level):
        return loop(fn, level, args, kwargs)
    size = next(value_at(t, level) for t in tensors.values() if value_at(t, level) is not None).shape[0]
    rank = _rank(input, level)
    changes = {"input": _expanded(input, level, size), "target": _expanded(target, level, size), "reduction": "none"}
    for name in ("weight", "pos_weight"):
        v = value_at(tensors.get(name), level)
        if v is not None:
            changes[name] = _padded(v, rank)
    args, kwargs = _with(fn, args, kwargs, **changes)
    losses = run(fn, *args, **kwargs)
    if reduction == "none" or rank == 0:
        return wrap(losses, level)
    dims = tuple(range(1, rank + 1))
    return wrap(losses.sum(dims) if reduction == "sum" else losses.mean(dims), level)


# ---------------------------------------------------------------- random factories
def random_factory(fn, args: tuple, kwargs: dict):
    """``rand``/``randn``/``randint`` (no tensor argument) inside ``vmap``, as PyTorch's: any running
    ``vmap`` with ``randomness="error"`` refuses; each ``"different"`` one adds a batch dim of its own
    (one draw per entry), each ``"same"`` one none (one draw for all its entries)."""
    running = levels.active()
    if any(level.randomness == "error" for level in running):
        raise RuntimeError(RANDOMNESS_ERROR)
    different = [level for level in running if level.randomness == "different"]
    batch = tuple(level.size for level in different)
    if fn is creation.randint.__wrapped__:
        high = _get(fn, args, kwargs, "high")
        name = "high" if isinstance(high, (tuple, list)) else "size"
        shape = _get(fn, args, kwargs, name)
        args, kwargs = _with(fn, args, kwargs, **{name: batch + ((shape,) if isinstance(shape, int) else tuple(shape))})
        out = fn(*args, **kwargs)
    else:
        out = fn(batch + _sizes(args), **kwargs)
    for level in different:
        out = wrap(out, level.id)
    return out


# ---------------------------------------------------------------- an op's own rule
class Call:
    """One call with batched arguments, as an op's own batching rule sees it (``ops.declare.BatchedCall``)."""

    __slots__ = ("fn", "level", "args", "kwargs")

    def __init__(self, fn, level: int, args: tuple, kwargs: dict):
        self.fn, self.level, self.args, self.kwargs = fn, level, args, kwargs

    def value(self, x):
        return value_at(x, self.level)

    def rank(self, x) -> int:
        return _rank(x, self.level)

    def wrap(self, out):
        return _batched(out, self.level)

    def loop(self):
        return loop(self.fn, self.level, self.args, self.kwargs)

    def get(self, name: str):
        return _get(self.fn, self.args, self.kwargs, name)

    def padded(self, v, rank: int):
        return _padded(v, rank)

    def expanded(self, x, size: int):
        return _expanded(x, self.level, size)

    def batched_among(self, values) -> bool:
        return _batched_among(values, self.level)

    def run(self, fn, *args, **kwargs):
        return run(fn, *args, **kwargs)

    def physical(self, d: int, rank: int) -> int:
        return _physical(d, rank)

    def replaced(self, **changes) -> tuple:
        return _with(self.fn, self.args, self.kwargs, **changes)

    def into_n(self, **batched):
        return _into_n(self.fn, self.level, self.args, self.kwargs, **batched)


def _own(rule):
    """An op's own batching rule (a function of a :class:`Call`) as the dispatcher calls rules."""

    def run_own(fn, level, args, kwargs):
        return rule(Call(fn, level, args, kwargs))

    return run_own


#: The rule of each family an op may declare (``ops.declare``'s names).
FAMILY_RULES = {
    declare.BROADCASTING: broadcasting,
    declare.TRAILING: trailing,
    declare.BY_DIM: by_dim,
    declare.BY_DIM_REQUIRED: by_dim_required,
    declare.BY_DIMS: by_dims,
    declare.ALONG_DIM: along_dim,
    declare.COMPOSITE: composite,
    declare.IN_PLACE: inplace_elementwise,
}


def declared_rules() -> dict:
    """Each declared op's batching rule, by the op's function (None for an op declared ``LOOP``)."""
    table = {}
    for fn, decl in declare.declared_ops().items():
        if callable(decl.batch):
            table[fn] = _own(decl.batch)
        else:
            table[fn] = FAMILY_RULES.get(decl.batch)
    return table


# ---------------------------------------------------------------- the table
def _first_batched(rule):
    """``rule`` for calls whose first tensor is batched; the others (a batched argument further on,
    ``x.expand_as(batched)``) run by the loop."""

    def guarded(fn, level, args, kwargs):
        if not args or value_at(args[0], level) is None:
            return loop(fn, level, args, kwargs)
        return rule(fn, level, args, kwargs)

    return guarded


def _table() -> dict:
    table = {}

    def add(rule, *fns):
        for f in fns:
            table[getattr(f, "__wrapped__", f)] = rule

    methods = vars(Tensor)
    add(
        broadcasting,
        *(getattr(arithmetic, n) for n in ("add", "sub", "mul", "div", "pow", "neg", "abs", "rsub", "rdiv", "rpow")),
        *(getattr(compare, n) for n in compare.__all__ if n not in ("equal", "allclose")),
        *(getattr(elementwise, n) for n in elementwise.__all__),
        *(getattr(trig, n) for n in trig.__all__),
        *(getattr(special, n) for n in special.__all__),
        *(getattr(division, n) for n in division.__all__),
        *(getattr(activation, n) for n in activation.__all__),
        indexing.masked_fill,
        *(methods[n] for n in ("__radd__", "__rmul__", "__rfloordiv__", "__and__", "__or__", "__xor__")),
        *(methods[n] for n in ("__rand__", "__ror__", "__rxor__", "__invert__", "__eq__", "__ne__")),
        *(methods[n] for n in ("__lt__", "__le__", "__gt__", "__ge__", "__floordiv__", "__rmod__")),
        *(methods[n] for n in ("__lshift__", "__rshift__", "__rlshift__", "__rrshift__")),
        *(methods[n] for n in ("bool", "double", "float", "half", "int", "long", "cpu", "cuda", "type_as")),
    )
    add(trailing, conversion.to, conversion.clone, layout.contiguous, matrix.tril, matrix.triu, shape.pad)
    add(trailing, _normalization.layer_norm, _embedding.embedding)
    add(trailing, linalg.matrix_exp, linalg.matrix_rank, linalg.lu, linalg.lu_factor)  # on the last two dims
    add(by_dim, reduction.sum, reduction.mean, reduction.var, reduction.std, reduction.prod, reduction.logsumexp)
    add(by_dim, reduction.amax, reduction.amin, reduction.norm, matrix.vector_norm)
    add(by_dim_required, reduction.softmax, reduction.log_softmax, reduction.cumsum, scan.cumprod)
    add(by_dims, scan.roll)
    add(extremum, reduction.max, reduction.min)
    add(arg_extremum, reduction.argmax, reduction.argmin)
    add(_first_batched(reshape_rule), shape.reshape, layout.view)
    add(_first_batched(flatten_rule), shape.flatten)
    add(_first_batched(unflatten_rule), shape.unflatten)
    add(_first_batched(unsqueeze_rule), shape.unsqueeze)
    add(_first_batched(squeeze_rule), shape.squeeze)
    add(_first_batched(permute_rule), shape.permute)
    add(_first_batched(transpose_rule), shape.transpose)
    add(_first_batched(t_rule), layout.t)
    add(_first_batched(movedim_rule), shape.movedim)
    add(_first_batched(expand_rule), shape.expand, shape.broadcast_to)
    add(_first_batched(repeat_rule), shape.repeat, shape.tile)
    add(along_dim, shape.narrow, shape.select, shape.split, shape.chunk, shape.unbind)
    add(_first_batched(flip_rule), shape.flip)
    add(joined, shape.cat, shape.stack)
    add(getitem_rule, indexing.getitem)
    add(setitem_rule, inplace.setitem)
    add(gather_rule, indexing.gather)
    add(take_along_dim_rule, indexing.take_along_dim)
    add(index_select_rule, indexing.index_select)
    add(scatter_rule, scattering.scatter, scattering.scatter_add)
    add(take_rule, scattering.take)
    add(repeat_interleave_rule, scan.repeat_interleave)
    add(matmul_rule, linalg.matmul, linalg.mm, linalg.bmm, linalg.mv, linalg.dot)
    add(rmatmul_rule, methods["__rmatmul__"])
    add(outer_rule, linalg.outer)
    add(linear_rule, _linear.linear)
    add(class_loss_rule, _loss.cross_entropy, _loss.nll_loss)
    add(binary_loss_rule, _loss.binary_cross_entropy, _loss.binary_cross_entropy_with_logits)
    add(einsum_rule, linalg.einsum)
    add(diag_rule, matrix.diag)
    add(trace_rule, matrix.trace)
    add(conv_rule, _conv.conv2d, _conv1d.conv1d, _conv_transpose.conv_transpose2d, _conv_transpose.conv_transpose1d)
    add(batch_of_samples_rule, _group_norm.group_norm, _interpolate.interpolate)
    adaptive = ("adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d")
    add(batch_of_samples_rule, *(getattr(_adaptive_pool, name) for name in adaptive))
    add(one_hot_rule, _one_hot.one_hot)
    add(batch_norm_rule, _normalization.batch_norm)
    add(cross_rule, matrix.cross)
    add(attention_rule, _attention.scaled_dot_product_attention)
    add(windowed_rule, _conv.max_pool2d, _pooling.avg_pool2d, _conv1d.max_pool1d, _conv1d.avg_pool1d)
    add(unpool_rule, _unpool.max_unpool2d, _unpool.max_unpool1d)
    add(composite, _loss.mse_loss, _loss.l1_loss)
    random_draws = ("rrelu", "gumbel_softmax")  # their noise would be one draw for the whole batch: the loop runs them
    add(composite, *(getattr(_composed_activation, n) for n in _composed_activation.__all__ if n not in random_draws))
    add(composite, _instance_rms_norm.rms_norm, _instance_rms_norm.instance_norm, _bilinear.bilinear)
    add(composite, _pixel_shuffle.pixel_shuffle, _pixel_shuffle.pixel_unshuffle, _likelihood_loss.poisson_nll_loss)
    add(composite, _pixel_shuffle.channel_shuffle, _instance_rms_norm.local_response_norm)
    # the multi-class margin losses and gaussian_nll_loss check values (labels, negative variances): the loop runs them
    checks_labels = ("multi_margin_loss", "multilabel_margin_loss")
    add(composite, *(getattr(_margin_loss, n) for n in _margin_loss.__all__ if n not in checks_labels))
    add(composite, distance.pdist, _grid_sample.affine_grid, _grid_sample.grid_sample)
    add(random_op, _dropout.dropout)
    add(random_like, creation.rand_like, creation.randn_like, creation.randint_like)
    inplace_names = ("add_", "sub_", "mul_", "div_", "pow_", "remainder_", "fmod_", "clamp_", "fill_", "zero_")
    add(inplace_elementwise, *(methods[n] for n in (*inplace_names, "copy_", "masked_fill_")))
    operators = ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__", "__imod__")
    add(inplace_elementwise, *(methods[n] for n in operators))
    bitwise = ("and", "or", "xor", "left_shift", "right_shift")
    add(inplace_elementwise, *(methods[f"bitwise_{n}_"] for n in bitwise))
    add(inplace_elementwise, *(methods[f"__i{n}__"] for n in ("and", "or", "xor", "lshift", "rshift")))
    return table


RULES.update(_table())
for _fn, _rule in declared_rules().items():
    if _rule is None:
        RULES.pop(_fn, None)
    else:
        RULES[_fn] = _rule
_upcalls.vmap_random_factory = random_factory  # rand, randn and randint hand their draw here under vmap
