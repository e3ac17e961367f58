"""A custom ``autograd.Function`` under ``vmap``, batched as ``torch.func`` batches one.

A Function called with batched tensors is batched at the innermost level among them, in one of
two ways the Function chooses:

- its own ``vmap`` staticmethod, ``vmap(info, in_dims, *args) -> (output, out_dims)``, gets the
  tensors behind the batched ones (``in_dims``: 0 for a batched argument, None for the others)
  and says where each output's batch dim is;
- with ``generate_vmap_rule = True``, a Function made for the call (``Vmapped<Name>``) is applied
  to the tensors behind the batched ones. Its ``forward``, ``setup_context``, ``backward`` and
  ``jvp`` run the user's under a ``vmap`` of their own, so the user's code sees one entry, and
  the engine sees one node whose gradients and tangents are the whole batch's.

A Function with neither is refused, except at a level whose entries are all the same (``jacrev``
running its function, ``levels.replicated``): there its forward runs once and its backward under
a ``vmap``, as ``torch.func.jacrev`` runs them.

Levels outside that one are batched the same way by the call the rule makes: the arguments it
passes on are still batched there. Below every level, the Function is an ordinary graph node, so
``grad``, ``jvp`` and their compositions with ``vmap`` work as for built-in ops.
"""

from __future__ import annotations

from typing import NamedTuple

from .. import _upcalls
from ..autograd.function import Function
from ..tensor import Tensor
from . import levels
from .tensor import BatchedTensor, value_at, wrap

DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"
NO_VMAP_MESSAGE = (
    "You tried to vmap over {name}, but it does not have vmap support. Please override and implement the vmap "
    "staticmethod or set generate_vmap_rule=True. " + DOCS
)
BOTH_MESSAGE = (
    "You tried to vmap over {name}, but it has both generate_vmap_rule=True and an overridden vmap staticmethod. "
    "Please set generate_vmap_rule=False or delete the overridden vmap staticmethod to avoid ambiguity. " + DOCS
)
RETURNS_MESSAGE = (
    "Expected the vmap staticmethod to have two returns, an output and out_dims with pytree structure "
    "compatible with the output. "
)


class VmapInfo(NamedTuple):
    """What a Function's ``vmap`` staticmethod learns of the ``vmap`` it runs under."""

    batch_size: int
    randomness: str


def batched_level(args) -> int | None:
    """The innermost ``vmap`` level among the batched tensors in ``args`` (nested tuples and lists), or None."""
    top = None
    for a in args:
        level = a._level if type(a) is BatchedTensor else batched_level(a) if isinstance(a, (tuple, list)) else None
        if level is not None and (top is None or level > top):
            top = level
    return top


def apply_if_batched(cls, args: tuple, kwargs: dict):
    """``cls.apply(*args, **kwargs)`` batched at the innermost level among ``args``, or ``NotImplemented``
    when none of them is batched (``Function.apply`` then runs it as an ordinary graph node)."""
    level = batched_level(args)
    return NotImplemented if level is None else apply_batched(cls, args, kwargs, level)


_upcalls.vmap_function_apply = apply_if_batched  # Function.apply hands it a call while a vmap runs


def apply_batched(cls, args: tuple, kwargs: dict, level_id: int):
    """``cls.apply(*args, **kwargs)`` where some of ``args`` are batched at ``level_id`` (the innermost)."""
    if any(isinstance(v, Tensor) for v in kwargs.values()):
        raise NotImplementedError(
            "Run vmap on autograd.Function with kwarg-only Tensor args. Please do not pass kwarg-only Tensors to "
            f"autograd.Function. Got: {kwargs}"
        )
    level = levels.find(level_id)
    info = VmapInfo(level.size, level.randomness)
    values, in_dims = _unwrapped(args, level_id)
    overridden = cls.vmap is not Function.vmap
    if cls.generate_vmap_rule:
        if overridden:
            raise RuntimeError(BOTH_MESSAGE.format(name=cls.__name__))
        generated, dims = vmapped(cls, in_dims, info)
        return _batched_outputs(generated.apply(*values, **kwargs), dims["out"], args, values, level_id)
    if not overridden:
        if _all_replicated(args):
            generated, dims = vmapped(cls, in_dims, info, replicated=True)
            return _batched_outputs(generated.apply(*values, **kwargs), dims["out"], args, values, level_id)
        raise RuntimeError(NO_VMAP_MESSAGE.format(name=cls.__name__))
    result = cls.vmap(info, in_dims, *values, **kwargs)
    if not isinstance(result, tuple):
        raise RuntimeError(RETURNS_MESSAGE + f"Got a {type(result)} instead")
    if len(result) != 2:
        raise RuntimeError(RETURNS_MESSAGE + f"Got {len(result)} returns instead")
    return _batched_outputs(result[0], result[1], args, values, level_id)


def _all_replicated(args) -> bool:
    """Whether every level ``args`` are batched at has the same entries (``levels.replicated``)."""
    same = levels.active_replicated()
    for a in args:
        if isinstance(a, (tuple, list)):
            if not _all_replicated(a):
                return False
            continue
        while type(a) is BatchedTensor:
            if a._level not in same:
                return False
            a = a._value
    return True


# ---------------------------------------------------------------- wrapping and unwrapping
def _unwrapped(x, level_id: int):
    """``(values, dims)``: ``x`` (nested tuples and lists of anything) with its tensors batched at
    ``level_id`` replaced by the tensors behind them (dim 0), the same structure of dims (None elsewhere)."""
    if isinstance(x, (tuple, list)):
        pairs = [_unwrapped(a, level_id) for a in x]
        return type(x)(p[0] for p in pairs), type(x)(p[1] for p in pairs)
    value = value_at(x, level_id)
    return (x, None) if value is None else (value, 0)


def _wrapped(x, dims, level_id: int):
    """The inverse of :func:`_unwrapped`: each tensor of ``x`` whose dim is not None batched at ``level_id``
    (a dim for a tuple applies to all of it)."""
    if isinstance(x, (tuple, list)):
        parts = dims if isinstance(dims, (tuple, list)) else [dims] * len(x)
        return type(x)(_wrapped(a, d, level_id) for a, d in zip(x, parts))
    if dims is None or not isinstance(x, Tensor):
        return x
    return wrap(x.movedim(dims, 0) if dims % x.dim() else x, level_id)


def _first_entries(x, dims):
    """``x`` with each tensor batched along dim 0 (its dim in ``dims`` is 0) replaced by its first entry."""
    if isinstance(x, (tuple, list)):
        parts = dims if isinstance(dims, (tuple, list)) else [dims] * len(x)
        return type(x)(_first_entries(a, d) for a, d in zip(x, parts))
    return x.select(0, 0) if dims == 0 and isinstance(x, Tensor) else x


def _repeated(x, size: int):
    """``(x, dims)``: each tensor of ``x`` repeated ``size`` times along a new dim 0 (dim 0), others as they are."""
    if isinstance(x, (tuple, list)):
        pairs = [_repeated(a, size) for a in x]
        return type(x)(p[0] for p in pairs), type(x)(p[1] for p in pairs)
    if not isinstance(x, Tensor):
        return x, None
    return x.unsqueeze(0).expand((size,) + tuple(x.shape)).contiguous(), 0


def _leaves(x) -> list:
    return [leaf for a in x for leaf in _leaves(a)] if isinstance(x, (tuple, list)) else [x]


def _under_vmap(fn, dims, info: VmapInfo, *args):
    """``fn(*args)`` in a ``vmap`` level of its own, ``args`` batched along ``dims``: ``(result, its dims)``,
    the result unbatched (dim 0 where batched, None where ``fn`` gave an unbatched tensor)."""
    with levels.entered(info.batch_size, info.randomness) as level:
        return _unwrapped(fn(*_wrapped(args, dims, level.id)), level.id)


def _structure(x) -> str:
    if isinstance(x, (tuple, list)):
        return f"{type(x).__name__}(" + ", ".join(_structure(a) for a in x) + ")"
    return "*"


def _batched_outputs(output, out_dims, originals: tuple, values: tuple, level_id: int):
    """The rule's ``output`` batched at ``level_id`` along ``out_dims``; an input returned as it came is the
    caller's own (batched) argument again."""
    single = not isinstance(output, (tuple, list))
    leaves = (output,) if single else tuple(output)
    if out_dims is None or isinstance(out_dims, int):
        dims = (out_dims,) * len(leaves)
    elif not single and type(out_dims) is type(output) and len(out_dims) == len(leaves):
        dims = tuple(out_dims)
    else:
        raise RuntimeError(
            "The autograd.Function's vmap staticmethod returned an incompatible (output, out_dims) tuple. "
            f"Expected out_dims={out_dims} to be compatible with the structure of `output`. out_dims has structure "
            f"{_structure(out_dims)} but output has structure {_structure(output)}. " + DOCS
        )
    originals_of = {id(v): a for v, a in zip(values, originals) if isinstance(v, Tensor)}
    batched = []
    for leaf, d in zip(leaves, dims):
        if id(leaf) in originals_of:
            batched.append(originals_of[id(leaf)])
        else:
            batched.append(_wrapped(leaf, d, level_id))
    return batched[0] if single else type(output)(batched)


# ---------------------------------------------------------------- generate_vmap_rule
class _WrappedCtx:
    """A Function's ctx seen by the user's code under a ``vmap`` of the rule's: attributes go to the real one."""

    def __init__(self, ctx):
        object.__setattr__(self, "_inner", ctx)

    def __getattr__(self, name: str):
        return getattr(self._inner, name)

    def __setattr__(self, name: str, value) -> None:
        setattr(self._inner, name, value)


class _SavingCtx(_WrappedCtx):
    """For ``setup_context`` under a ``vmap`` level: saved tensors (and outputs marked non-differentiable)
    go to the real ctx unbatched, each saved tensor's batch dim kept in ``dims``."""

    def __init__(self, ctx, level_id: int, dims: dict):
        super().__init__(ctx)
        object.__setattr__(self, "_level_id", level_id)
        object.__setattr__(self, "_dims", dims)

    def save_for_backward(self, *tensors) -> None:
        values, self._dims["saved"] = _unwrapped(tensors, self._level_id)
        self._inner.save_for_backward(*values)

    def save_for_forward(self, *tensors) -> None:
        values, self._dims["saved_for_forward"] = _unwrapped(tensors, self._level_id)
        self._inner.save_for_forward(*values)

    def mark_non_differentiable(self, *outputs) -> None:
        self._inner.mark_non_differentiable(*_unwrapped(outputs, self._level_id)[0])


class _EntryCtx(_WrappedCtx):
    """For ``setup_context`` run on one entry (a level whose entries are all the same): a saved (or marked)
    entry of an input or output goes to the real ctx as the batched tensor it came from (dim 0), so that
    backward and jvp see one per entry, each in the graph; other saved tensors are shared (dim None)."""

    def __init__(self, ctx, batched_of: dict, dims: dict):
        super().__init__(ctx)
        object.__setattr__(self, "_batched_of", batched_of)
        object.__setattr__(self, "_dims", dims)

    def _batched(self, tensors) -> tuple:
        values = tuple(self._batched_of.get(id(t), t) for t in tensors)
        return values, tuple(0 if id(t) in self._batched_of else None for t in tensors)

    def save_for_backward(self, *tensors) -> None:
        values, self._dims["saved"] = self._batched(tensors)
        self._inner.save_for_backward(*values)

    def save_for_forward(self, *tensors) -> None:
        values, self._dims["saved_for_forward"] = self._batched(tensors)
        self._inner.save_for_forward(*values)

    def mark_non_differentiable(self, *outputs) -> None:
        self._inner.mark_non_differentiable(*self._batched(outputs)[0])


class _SavedCtx(_WrappedCtx):
    """For ``backward`` and ``jvp`` under a ``vmap`` level: ``saved_tensors`` are the batched ones."""

    def __init__(self, ctx, saved: tuple):
        super().__init__(ctx)
        object.__setattr__(self, "saved_tensors", saved)


def vmapped(cls, in_dims: tuple, info: VmapInfo, replicated: bool = False):
    """``(Vmapped<Name>, dims)``: a Function on the tensors behind the batched arguments (batch dims
    ``in_dims``) whose every method runs ``cls``'s under a ``vmap``; ``dims`` fills in as it runs
    (the outputs', the saved tensors' batch dims, the inputs' shapes within one entry).

    With ``replicated`` (every entry the same, ``levels.replicated``), ``forward`` and ``setup_context``
    run once, on the first entry, and the outputs are repeated over the batch: ``cls`` needs no vmap
    support, as ``torch.func.jacrev`` runs a Function's forward unbatched."""
    dims = {"saved": (), "saved_for_forward": ()}

    def forward(*operands, **kwargs):
        dims["inputs"] = tuple(
            (tuple(a.shape[1:]) if d == 0 else tuple(a.shape)) if isinstance(a, Tensor) else None
            for a, d in zip(operands, in_dims)
        )
        if replicated:
            dims["entries"] = _first_entries(operands, in_dims)
            dims["entry_output"] = cls.forward(*dims["entries"], **kwargs)
            output, dims["out"] = _repeated(dims["entry_output"], info.batch_size)
            return output
        output, dims["out"] = _under_vmap(lambda *a: cls.forward(*a, **kwargs), in_dims, info, *operands)
        return output

    def setup_context(ctx, inputs, output):
        if replicated:
            entries, entry_output = dims.pop("entries"), dims.pop("entry_output")
            pairs = zip(_leaves((entries, entry_output)), _leaves((tuple(inputs), output)))
            batched_of = {id(e): b for e, b in pairs if isinstance(e, Tensor) and e is not b}
            cls.setup_context(_EntryCtx(ctx, batched_of, dims), entries, entry_output)
            return

        def run(inputs, output):
            cls.setup_context(_SavingCtx(ctx, levels.active()[-1].id, dims), inputs, output)

        _under_vmap(run, (in_dims, dims["out"]), info, tuple(inputs), output)

    def backward(ctx, *grads):
        out_dims = dims["out"] if isinstance(dims["out"], tuple) else (dims["out"],)
        grad_dims = tuple(None if g is None else d for g, d in zip(grads, out_dims))

        def run(saved, grads):
            return cls.backward(_SavedCtx(ctx, saved), *grads)

        result, result_dims = _under_vmap(run, (dims["saved"], grad_dims), info, tuple(ctx.saved_tensors), grads)
        return _reduced(result, result_dims, in_dims, info.batch_size, dims["inputs"])

    def jvp(ctx, *tangents):
        tangent_dims = tuple(None if t is None else d for t, d in zip(tangents, in_dims))

        def run(saved, tangents):
            return cls.jvp(_SavedCtx(ctx, saved), *tangents)

        saved = tuple(ctx.saved_tensors)
        result, result_dims = _under_vmap(run, (dims["saved_for_forward"], tangent_dims), info, saved, tangents)
        out_dims = dims["out"] if isinstance(dims["out"], tuple) else (dims["out"],)
        return _reduced(result, result_dims, out_dims, info.batch_size)

    for method, user_method in ((forward, cls.forward), (backward, cls.backward), (jvp, cls.jvp)):
        method.__wrapped__ = user_method  # inspect.getsource (and the debugger) shows the user's code
    generated = type(
        f"Vmapped{cls.__name__}",
        (Function,),
        {
            "forward": staticmethod(forward),
            "setup_context": staticmethod(setup_context),
            "backward": staticmethod(backward),
            "jvp": staticmethod(jvp),
            "generate_vmap_rule": not replicated,  # replicated: again at the next level (all replicated)
            "__doc__": f"{cls.__name__} batched by generate_vmap_rule.",
        },
    )
    return generated, dims


def _reduced(values, value_dims, target_dims: tuple, size: int, shapes: tuple | None = None) -> tuple:
    """Gradients (or tangents) from a rule's ``vmap`` made to match what they belong to: summed over the
    batch for an unbatched target, expanded over it for a batched target that got an unbatched one, and
    with ``shapes``, summed down to each target's shape within one entry (a broadcast gradient)."""
    if not isinstance(values, tuple):
        values, value_dims = (values,), (value_dims,)
    out = []
    for k, (value, value_dim, target_dim) in enumerate(zip(values, value_dims, target_dims)):
        if not isinstance(value, Tensor):
            out.append(value)
        elif target_dim is None:
            out.append(value if value_dim is None else value.sum(0))
        else:
            if value_dim is None:
                value = value.unsqueeze(0).expand((size,) + tuple(value.shape))
            out.append(value if shapes is None else _summed_to(value, shapes[k]))
    return tuple(out)


def _summed_to(value: Tensor, shape: tuple) -> Tensor:
    """``value`` (batch dim first) summed down to ``shape`` within each entry, as broadcasting would need."""
    extra = value.dim() - 1 - len(shape)
    if extra > 0:
        value = value.sum(dim=tuple(range(1, 1 + extra)))
    ones = tuple(i + 1 for i, s in enumerate(shape) if s == 1 and value.shape[i + 1] != 1)
    return value.sum(dim=ones, keepdim=True) if ones else value
