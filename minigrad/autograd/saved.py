"""The values a node's backward rule saved, as its op declared them.

An op declares what its ``backward`` closure saves (``@op(saves=...)`` in ``minigrad.ops.declare``):
the names of the forward's values the rule keeps, as PyTorch's ``save_for_backward`` does. Those
cells of the rule, and nothing else, are its saved values; a tuple or list there is a group of
them, a weak reference the op's own output, a custom Function's ``ctx`` the tensors it saved. A
rule no op declared (a closure of the learner's own) saved what its cells hold. The engine uses
them for two checks PyTorch makes on its saved variables: one written in place since (its version
moved on) makes backward refuse, and a rule that saved no tensor survives ``retain_graph=False``;
the debugger's "captured" list shows the same names.

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
from ..ops.declare import declared_saves
from ..ops.inplace import version_error
from ..tensor import Tensor

__all__ = ["saved_items", "saved_values", "saves_values", "saves_by_code", "call_checked"]

# id(code) -> (code, whether its rules save tensors, or _EACH_TIME). Keyed by id: hashing a code
# object hashes its whole contents on every call. The entry holds the code, so the id stays its own.
saves_by_code: dict = {}
_EACH_TIME = object()


def saved_items(rule) -> list:
    """``(name, value)`` for each value the rule ``rule`` saved, in the order of its cells: the names its
    op declared, or every cell of a closure no op declared."""
    code = getattr(rule, "__code__", None)
    cells = getattr(rule, "__closure__", None)
    if code is None or not cells:
        return []
    declared = declared_saves(rule)
    out = []
    for name, cell in zip(code.co_freevars, cells):
        if declared is not None and name not in declared:
            continue
        try:
            out.append((name, cell.cell_contents))
        except ValueError:  # a cell not assigned yet
            continue
    return out


def saved_values(rule) -> list:
    """``(tensor or None, array)`` for every tensor and array the rule ``rule`` saved."""
    found = []
    for _, value in saved_items(rule):
        _collect(value, found)
    return found


def _collect(obj, found: list, group: bool = True) -> None:
    """The tensors and arrays ``obj`` (one saved value) holds: itself, a group's members, a weakly held
    output, a custom Function's saved tensors."""
    if isinstance(obj, Tensor):
        found.append((obj, obj.array))
    elif isinstance(obj, np.ndarray) or B.is_cupy_array(obj):
        found.append((None, obj))
    elif isinstance(obj, weakref.ref):  # an op's own output, held weakly
        target = obj()
        if target is not None:
            _collect(target, found, False)
    elif group and isinstance(obj, (tuple, list)):
        for x in obj:
            _collect(x, found, False)
    elif _is_ctx(obj):
        for t in obj.saved_tensors:
            if t is not None:
                _collect(t, found, False)


def _is_ctx(obj) -> bool:
    return hasattr(obj, "saved_tensors") and hasattr(obj, "needs_input_grad")


def saves_values(fn) -> bool:
    """Whether the rule ``fn`` saved tensors.

    Decided once per code object, as the kinds of value an op's rule saves are fixed;
    a custom Function's rule (one code for all, marked ``__wrapped__``) is looked at each time.
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
    written = {}  # name -> (tensor or None, array) for the lazily used saved values written since
    for name, value in saved_items(rule):
        found = []
        _collect(value, found)
        for t, arr in found:
            if _versions.changed_after(arr, node.id):
                if name not in lazy:
                    raise _error(node, rule, t, arr)
                written.setdefault(name, (t, arr))
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
        for name in c.__code__.co_freevars if cells else ():
            if name in written:
                raise _error(node, rule, *written[name])
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
