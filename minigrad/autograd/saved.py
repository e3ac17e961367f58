"""The values a node's backward rule saved: what its closure holds.

A rule is a closure; the tensors and arrays in its cells (and in tuples, lists,
nested closures, weak references and a custom Function's ``ctx`` there) are the values it saved
at forward time. The engine uses them for two checks PyTorch makes on its
saved variables: one written in place since (its version moved on) makes
backward refuse, and a rule that saved nothing survives ``retain_graph=False``.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import _versions
from .. import backend as B
from ..tensor import Tensor

__all__ = ["saved_values", "saves_values", "saves_by_code", "check_versions"]

_DEPTH = 3
# id(code) -> (code, whether its closures save values, or _EACH_TIME). Keyed by id: hashing a code
# object hashes its whole contents on every call. The entry holds the code, so the id stays its own.
saves_by_code: dict = {}
_EACH_TIME = object()


def saved_values(fn) -> list:
    """``(tensor or None, array)`` for every tensor and array the rule ``fn`` holds."""
    found = []
    _collect(fn, found, _DEPTH, set())
    return found


def _collect(obj, found: list, depth: int, seen: set) -> None:
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, Tensor):
        found.append((obj, obj.data))
    elif isinstance(obj, np.ndarray) or B.is_cupy_array(obj):
        found.append((None, obj))
    elif isinstance(obj, weakref.ref):  # an op's own output, held weakly
        target = obj()
        if target is not None:
            _collect(target, found, depth, seen)
    elif depth <= 0:
        return
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            _collect(x, found, depth - 1, seen)
    elif callable(obj) and getattr(obj, "__closure__", None):
        custom = hasattr(obj, "__wrapped__")  # a custom Function's rule: it saved what its ctx holds
        for cell in obj.__closure__:
            try:
                value = cell.cell_contents
            except ValueError:  # a cell not assigned yet
                continue
            if not custom or _is_ctx(value):
                _collect(value, found, depth - 1, seen)
    elif _is_ctx(obj):
        for t in obj.saved_tensors:
            if t is not None:
                _collect(t, found, depth - 1, seen)


def _is_ctx(obj) -> bool:
    return hasattr(obj, "saved_tensors") and hasattr(obj, "needs_input_grad")


def saves_values(fn) -> bool:
    """Whether the rule ``fn`` saved tensors.

    Decided once per code object, as the kinds of value an op's closure captures
    are fixed; a custom Function's rule (one code for all, marked ``__wrapped__``)
    is looked at each time.
    """
    code = getattr(fn, "__code__", None)
    if code is None:
        return True
    entry = saves_by_code.get(id(code))
    if entry is None:
        entry = saves_by_code[id(code)] = (code, _EACH_TIME if hasattr(fn, "__wrapped__") else bool(saved_values(fn)))
    known = entry[1]
    if known is _EACH_TIME:
        return bool(saved_values(fn))
    return known


def check_versions(node) -> None:
    """Raise PyTorch's error when a value ``node``'s rule saved was written in place after the node was made."""
    from ..ops.inplace import version_error

    for t, arr in saved_values(node._backward):
        if _versions.changed_after(arr, node._id):
            if t is None:
                t = next((s for s, a in saved_values(node._backward) if s is not None and a is arr), None)
            raise version_error(t, arr, node)
