"""The values a node's backward rule saved: what its closure holds.

A rule is a closure; the tensors and arrays in its cells (and in tuples, lists,
nested closures, weak references and a custom Function's ``ctx`` there) are the values it saved
at forward time. The engine uses them for two checks PyTorch makes on its
saved variables: one written in place since (its version moved on) makes
backward refuse, and a rule that saved nothing survives ``retain_graph=False``.

PyTorch saves only what the gradients of the inputs that require grad use
(``x * c`` with a constant ``c`` keeps ``c``, not ``x``), so writing ``x`` in
place afterwards is no error. Here a rule holds all its operands, and gives the
gradient of each parent as a lambda; ``call_checked`` refuses a written value
only when the rule itself uses it, or the lambda of a parent that requires grad
holds it.
"""

from __future__ import annotations

import dis
import types
import weakref

import numpy as np

from .. import _versions
from .. import backend as B
from ..ops.inplace import version_error
from ..tensor import Tensor

__all__ = ["saved_values", "saves_values", "saves_by_code", "call_checked"]

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
        found.append((obj, obj.array))
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


# id(code) -> (code, the names of the rule's cells only its lambdas use); keyed by id as saves_by_code.
_lazy_by_code: dict = {}
_DEREF_OPS = frozenset({"LOAD_DEREF", "LOAD_CLASSDEREF", "LOAD_FROM_DICT_OR_DEREF", "STORE_DEREF", "DELETE_DEREF"})


def _lazy_names(code) -> frozenset:
    """The free names of a rule's ``code`` that only its lambdas read: what the rule itself reads (or a
    nested ``def`` captures, which it may call on the spot) serves every parent's gradient."""
    entry = _lazy_by_code.get(id(code))
    if entry is None:
        direct = {ins.argval for ins in dis.get_instructions(code) if ins.opname in _DEREF_OPS}
        in_lambdas, in_others = set(), set()
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                (in_lambdas if const.co_name == "<lambda>" else in_others).update(const.co_freevars)
        lazy = frozenset((in_lambdas - in_others - direct) & set(code.co_freevars))
        entry = _lazy_by_code[id(code)] = (code, lazy)
    return entry[1]


def call_checked(node, g):
    """``node``'s rule called on ``g``, after PyTorch's check of the values it saved (some memory was
    written in place since the node was made; the engine asks only then).

    A value written since raises PyTorch's error when a gradient that will be computed uses it: the
    rule reads it, or the lambda the rule gives for a parent that requires grad holds it. A rule whose
    every parent requires grad is not called; a rule giving a computed tensor (not a lambda) for such a
    parent may have used any of its values.
    """
    rule = node._backward
    code = getattr(rule, "__code__", None)
    if code is None or hasattr(rule, "__wrapped__"):  # a custom Function's rule: its ctx's values, all used
        _check_all(node, rule)
        return rule(g)
    lazy = _lazy_names(code)
    written = {}  # id(cell) -> (tensor or None, array) for the lazily used cells holding a written value
    for name, cell in zip(code.co_freevars, rule.__closure__ or ()):
        try:
            value = cell.cell_contents
        except ValueError:  # a cell not assigned yet
            continue
        found = []
        _collect(value, found, _DEPTH - 1, set())
        for t, arr in found:
            if _versions.changed_after(arr, node.id):
                if name not in lazy:
                    raise _error(node, rule, t, arr)
                written.setdefault(id(cell), (t, arr))
    if not written:
        return rule(g)
    parents = node.parents
    first = next(iter(written.values()))
    if all(p._rg for p in parents):
        raise _error(node, rule, *first)
    outputs = rule(g)
    if len(outputs) != len(parents):  # the engine reports the miscount
        return outputs
    for parent, c in zip(parents, outputs):
        if c is None or not parent._rg:
            continue
        cells = getattr(c, "__closure__", False)
        if isinstance(c, Tensor) or cells is False:
            raise _error(node, rule, *first)
        for cell in cells or ():
            if id(cell) in written:
                raise _error(node, rule, *written[id(cell)])
    return outputs


def _check_all(node, rule) -> None:
    for t, arr in saved_values(rule):
        if _versions.changed_after(arr, node.id):
            raise _error(node, rule, t, arr)


def _error(node, rule, t, arr) -> RuntimeError:
    """PyTorch's error for ``arr`` (of the tensor ``t``, when known) written in place after ``node`` saved it."""
    if t is None:
        t = next((s for s, a in saved_values(rule) if s is not None and a is arr), None)
    return version_error(t, arr, node)
