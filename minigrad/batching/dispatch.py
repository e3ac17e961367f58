"""Where a batched call goes: the op's batching rule, or a loop over the batch with PyTorch's warning."""

from __future__ import annotations

import inspect
import os
import sys
import warnings

from .. import _upcalls
from ..ops import stack
from ..tensor import Tensor
from . import levels
from .tensor import BatchedTensor, value_at, wrap

DATA_DEPENDENT_OUTPUT = (
    "vmap: {op} returned a {kind}, which depends on the values of one entry: vmap can only batch ops that "
    "return tensors"
)


#: Each op's batching rule, ``rule(fn, level, args, kwargs)`` (None: the loop), keyed by the op's function:
#: what its declaration names, looked up at its first batched call.
RULES: dict = {}


def resolve(fn):
    """The rule ``fn`` declares (set by :mod:`.rules`, which owns the families)."""
    raise NotImplementedError


_UNSEEN = object()


def level_of(args, kwargs) -> int | None:
    """The innermost level among the batched tensors in ``args``/``kwargs`` (one list deep, for ``cat``)."""
    top = None
    for group in (args, kwargs.values()):
        for a in group:
            if type(a) is BatchedTensor:
                if top is None or a._level > top:
                    top = a._level
            elif type(a) in (list, tuple):
                for b in a:
                    if type(b) is BatchedTensor and (top is None or b._level > top):
                        top = b._level
    return top


def call(fn, args: tuple, kwargs: dict):
    """``fn(*args, **kwargs)`` with batched arguments: by ``fn``'s batching rule, else by :func:`loop`."""
    level = level_of(args, kwargs)
    if level is None:
        return fn(*args, **kwargs)
    rule = RULES.get(fn, _UNSEEN)
    if rule is _UNSEEN:
        rule = RULES[fn] = resolve(fn)
    if rule is None:
        return loop(fn, level, args, kwargs)
    return rule(fn, level, args, kwargs)


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the first caller outside minigrad, for a warning raised in the caller."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def op_name(fn) -> str:
    return getattr(fn, "__name__", repr(fn)).strip("_") or repr(fn)


def _entry(x, level: int, b: int):
    v = value_at(x, level)
    if v is not None:
        return v.select(0, b)
    if type(x) in (list, tuple):
        return type(x)(_entry(y, level, b) for y in x)
    return x


def loop(fn, level: int, args: tuple, kwargs: dict, warn: bool = True):
    """``fn`` once per entry of the batch, the results stacked: the fallback for an op without a rule."""
    if warn:
        warnings.warn(
            f"There is a performance drop because we have not yet implemented the batching rule for "
            f"{op_name(fn)}. Please file us an issue on GitHub so that we can prioritize its implementation.",
            UserWarning,
            stacklevel=_user_stacklevel(),
        )
    results = [
        call(fn, _entry(args, level, b), {k: _entry(v, level, b) for k, v in kwargs.items()})
        for b in range(levels.find(level).size)
    ]  # each entry's call may still hold tensors batched at outer levels: dispatch again
    return _stacked(results, level, fn, stack)


def per_entry(fn, g):
    """``fn(entry)`` for each entry of the batch ``g`` (at every level it is batched at), its results stacked:
    a backward rule not written for a batch of gradients (the engine hands it one entry at a time)."""
    level = level_of((g,), {})
    if level is None:
        return fn(g)
    return _stacked([per_entry(fn, _entry(g, level, b)) for b in range(levels.find(level).size)], level, fn, stack)


def _stacked(results: list, level: int, fn, stack):
    first = results[0]
    if first is None:
        return None
    if isinstance(first, Tensor):
        return wrap(stack(results), level)
    if isinstance(first, (tuple, list)):
        parts = [_stacked([r[k] for r in results], level, fn, stack) for k in range(len(first))]
        return type(first)(*parts) if hasattr(first, "_fields") else type(first)(parts)
    raise RuntimeError(DATA_DEPENDENT_OUTPUT.format(op=op_name(fn), kind=type(first).__name__))


def _method(name: str, fn):
    def method(self, *args, **kwargs):
        return call(fn, (self,) + args, kwargs)

    method.__name__ = method.__qualname__ = name
    return method


_OWN = set(vars(BatchedTensor))


def bind_methods() -> None:
    """Give BatchedTensor every op method of Tensor, routed to the batching rules."""
    for name, value in list(vars(Tensor).items()):
        fn = inspect.unwrap(value)  # a checked method wraps its checked function, which wraps the op
        if name in _OWN or not callable(fn) or not getattr(fn, "__module__", "").startswith("minigrad.ops"):
            continue
        setattr(BatchedTensor, name, _method(name, fn))


bind_methods()
# While a vmap runs, the ops' entry (and getitem, for a batched index) hand their calls here.
_upcalls.vmap_call = call
_upcalls.vmap_per_entry = per_entry
_upcalls.vmap_level_of = level_of
