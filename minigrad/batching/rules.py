"""The families of batching rules that ops declare, and the call an op's own rule receives.

Each op declares its batching rule where it is defined (``@op(batch=...)``, ``minigrad.ops.declare``):
the name of a family below, its own rule (a function of a :class:`Call`), or ``LOOP``. A rule gets the
op, the level being batched and the call's arguments. Arguments batched at that level hold their
entries along dim 0 (``value_at``); the rule calls the op once on those values, with dims shifted past
the batch dim, shapes padded so broadcasting lines the batch dims up, and wraps the result as batched
again. Arguments batched at an outer level only are plain tensors here: the op they reach dispatches
them at their own level. This module owns the families and reads the declarations; it holds no table
of ops.
"""

from __future__ import annotations

import inspect

from .. import _upcalls, creation
from ..ops import declare
from ..ops.declare import RANDOMNESS_ERROR
from ..tensor import Tensor
from . import dispatch, levels
from .dispatch import call, loop
from .tensor import value_at, wrap


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


def along_dim(fn, level, args, kwargs):
    """``narrow``/``select``/``split``/``chunk``/``unbind``/``unflatten``-like ops: ``dim`` past the batch dim."""
    v = value_at(args[0], level)
    if v is None or _batched_among(list(args[1:]) + list(kwargs.values()), level):
        return loop(fn, level, args, kwargs)
    args, kwargs = list(args), dict(kwargs)
    _put(fn, args, kwargs, "dim", _physical(_get(fn, args, kwargs, "dim"), v.dim() - 1))
    return _batched(run(fn, v, *args[1:], **kwargs), level)


# ---------------------------------------------------------------- arguments replaced, batch folded into N
def _with(fn, args, kwargs, **changes) -> tuple:
    args, kwargs = list(args), dict(kwargs)
    for name, value in changes.items():
        _put(fn, args, kwargs, name, value)
    return args, kwargs


def _into_n(fn, level, args, kwargs, **batched):
    """The op on ``[B * N, ...]`` (each batched argument so), its result split back into ``[B, N, ...]``."""
    sizes = tuple(next(iter(batched.values())).shape)
    folded = (sizes[0] * sizes[1],) + sizes[2:]
    args, kwargs = _with(fn, args, kwargs, **{name: v.reshape(folded) for name, v in batched.items()})
    return _wrap_each(run(fn, *args, **kwargs), level, lambda out: out.reshape(sizes[:2] + tuple(out.shape[1:])))


def _wrap_each(result, level, shape_back):
    """The op's result (a tensor, or a tuple: a pool's values and indices) batched at ``level``."""
    if isinstance(result, tuple):
        return tuple(wrap(shape_back(out), level) for out in result)
    return wrap(shape_back(result), level)


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

    def by_family(self, family: str, args=None, kwargs=None):
        rule = FAMILY_RULES[family]
        return rule(self.fn, self.level, self.args if args is None else args, self.kwargs if kwargs is None else kwargs)

    @property
    def size(self) -> int:
        return levels.find(self.level).size

    @property
    def randomness(self) -> str:
        return levels.find(self.level).randomness


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


def _entry_by_entry(fn, level, args, kwargs):
    """A rule's step on arrays (``rules_saving``), handed a batch: once per entry, without the loop's warning."""
    return loop(fn, level, args, kwargs, warn=False)


def declared_rule(fn):
    """The batching rule ``fn`` declares (None: ``LOOP``, or no declaration)."""
    decl = declare.declaration(fn)
    if decl is None:
        return _entry_by_entry if fn in declare.ENTRY_BY_ENTRY else None
    if callable(decl.batch):
        return _own(decl.batch)
    return FAMILY_RULES.get(decl.batch)


_upcalls.vmap_random_factory = random_factory  # rand, randn and randint hand their draw here under vmap
dispatch.resolve = declared_rule
