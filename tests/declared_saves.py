"""A check that runs under the whole suite: every op's declared ``saves`` is what its rule really keeps.

The ops declare what their ``backward`` closures save (``@op(saves=...)``); the engine's version
check, ``retain_graph``'s freeing and the debugger's "captured" list read only that declaration,
so a name left out would be a value the engine never checks and the learner never sees. Here
every rule that minigrad's own code hands to ``make`` is compared, once per rule (per code object),
with the values its cells hold: the declared names must be exactly the cells holding a value (a
tensor, an array, a number, a shape; a weak reference to the op's output) rather than a function,
a class or a module.
"""

from __future__ import annotations

import os
import sys
import types
import weakref

import minigrad
from minigrad.ops.declare import declared_saves

_PACKAGE = os.path.dirname(os.path.abspath(minigrad.__file__)) + os.sep
_checked: dict = {}  # code object -> None (fine) or the message of its mismatch


def _is_value(v) -> bool:
    if isinstance(v, weakref.ref):
        return True
    return not (callable(v) or isinstance(v, types.ModuleType))


def mismatch(rule) -> str | None:
    """Why ``rule``'s declaration and its cells disagree, or None."""
    code = getattr(rule, "__code__", None)
    if code is None or not code.co_filename.startswith(_PACKAGE) or rule.__closure__ is None:
        return None
    if hasattr(rule, "__wrapped__"):  # a custom Function's rule: it saved what its ctx holds (ctx.save_for_backward)
        return None
    if code in _checked:
        return _checked[code]
    declared = declared_saves(rule)
    held = set()
    for name, cell in zip(code.co_freevars, rule.__closure__):
        try:
            if _is_value(cell.cell_contents):
                held.add(name)
        except ValueError:
            held.add(name)  # assigned later: a value the rule reads
    where = f"{code.co_qualname} ({os.path.relpath(code.co_filename, _PACKAGE)}:{code.co_firstlineno})"
    if declared is None:
        message = None if not held else f"{where} saves {sorted(held)} but its op declares no saves="
    elif set(declared) != held:
        message = f"{where} declares saves={tuple(declared)} but keeps {sorted(held)}"
    else:
        message = None
    _checked[code] = message
    return message


def install() -> None:
    """Check each rule given to ``make`` by a module of minigrad: a declaration that differs from what the
    rule keeps fails, and so does a rule that keeps values without a declaration."""
    import minigrad.nn  # noqa: F401  (every module that makes nodes is loaded before the swap)

    original = sys.modules["minigrad.tensor"].make

    def make(data, parents, backward, op, jvp=None):
        if backward is not None:
            message = mismatch(backward)
            if message is not None:
                raise AssertionError(message)
        return original(data, parents, backward, op, jvp)

    # A recording names tensors from the first frame outside minigrad (the user's code); this wrapper's frame
    # sits between an op and the real make, so it is given make's own file to read as minigrad's, as make is.
    make.__code__ = make.__code__.replace(co_filename=original.__code__.co_filename)
    make.__wrapped__ = original
    for name, module in list(sys.modules.items()):
        if name.startswith("minigrad.") and name != "minigrad.tensor" and getattr(module, "make", None) is original:
            module.make = make
