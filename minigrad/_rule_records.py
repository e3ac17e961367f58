"""A node's rule kept as the values it captured, made a function again when it is called or read.

An op's rule is a closure: a function object, its closure tuple and one cell per captured value, five
objects with the node's parents tuple and tensor that Python's cyclic garbage collector tracks and walks
at every collection while the graph is alive (on a 10^5-node chain, several full collections while it
is built). A node made by a declared op keeps instead the record ``(k, value, ...)``, ``k`` numbering the
rule's code: one tuple, which the collector stops tracking once it holds only numbers, strings and None
(``x * 1.0001``'s rule). ``Tensor._backward`` makes the function again from it, the same code with the
same values in fresh cells, so that a rule reads, runs and shows in the debugger as its op wrote it;
the engine calls the record with :func:`run_record`.

Only a rule whose cells cannot change once it is made is kept so. The first time a rule of a declared
op reaches ``make``, :func:`first_sight` reads the code of the function that defines it: the rule must
be bound to a name as a plain function (no defaults, annotations or decorator), outside any loop, and
neither that function after defining it, nor the rule, nor anything else defined there may assign a
name the rule captured (``nonlocal``, a walrus in a comprehension).
"""

from __future__ import annotations

import dis
import types
from collections.abc import Callable
from operator import attrgetter

__all__ = ["declare_rules", "first_sight", "index", "codes", "contents", "function_of", "run_record"]

_function = types.FunctionType
_cell = types.CellType
#: A cell's value (``map(contents, fn.__closure__)``).
contents = attrgetter("cell_contents")

#: id(code) -> the code's number ``k`` (from 1) when its rules are kept as records, 0 when not. Keyed by
#: id, as hashing a code object hashes its whole contents; ``codes`` holds each kept code, so its id
#: stays its own (an id of a freed code seen again only misses a record).
index: dict[int, int] = {}
#: k -> the code (codes[0] is None).
codes: list = [None]
_globals: list = [None]
# k -> [(the code's own function, its cells)], which the engine fills for a call; empty while it is in one.
_free: list = [None]
# id(code) -> (code, the code defining it, its globals) for the rules of declared ops not seen yet.
_declared: dict[int, tuple] = {}

_WRITES = frozenset({"STORE_DEREF", "DELETE_DEREF"})
_LOOPS = frozenset({"JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"})
_BINDS = frozenset({"STORE_FAST", "STORE_DEREF"})
_CLOSURE_ONLY = 0x08  # MAKE_FUNCTION's flag for a closure tuple; the others add defaults or annotations


def _nested(code: types.CodeType):
    """Every code object defined inside ``code``, at any depth."""
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested(const)


def declare_rules(fn: Callable) -> None:
    """Note the functions defined inside ``fn`` (an op, or a function that makes an op's rules): those
    that reach ``make`` as a rule are looked at then (:func:`first_sight`)."""
    pending = [fn.__code__]
    while pending:
        maker = pending.pop()
        for code in maker.co_consts:
            if isinstance(code, types.CodeType):
                if code.co_freevars:
                    _declared.setdefault(id(code), (code, maker, fn.__globals__))
                pending.append(code)


def _writes(code: types.CodeType) -> set:
    """The captured names ``code`` or a function inside it assigns or deletes."""
    return {ins.argval for c in (code, *_nested(code)) for ins in dis.get_instructions(c) if ins.opname in _WRITES}


def _fixed_once_made(rule: types.CodeType, maker: types.CodeType) -> bool:
    """Whether the closures of ``rule`` that ``maker`` makes keep the values their cells had when made."""
    body = list(dis.get_instructions(maker))
    made = [i for i, ins in enumerate(body) if ins.opname == "MAKE_FUNCTION" and i and body[i - 1].argval is rule]
    if len(made) != 1 or made[0] + 1 >= len(body):
        return False
    i = made[0]
    make, bound, captured = body[i], body[i + 1], set(rule.co_freevars)
    if make.arg != _CLOSURE_ONLY or bound.opname not in _BINDS or not captured <= set(maker.co_cellvars):
        return False
    if any(ins.opname in _LOOPS and ins.argval <= make.offset < ins.offset for ins in body):
        return False  # made in a loop: a later pass may assign what it captured
    later = body[i + 2 :]
    if any(ins.opname in _WRITES and ins.argval in captured for ins in later):
        return False
    loads = ("LOAD_FAST", "LOAD_DEREF")
    if any(
        ins.opname == "STORE_ATTR" and later[j - 1].opname in loads and later[j - 1].argval == bound.argval
        for j, ins in enumerate(later)
        if j
    ):
        return False  # an attribute set on the rule
    inner = (c for c in maker.co_consts if isinstance(c, types.CodeType))
    return not any(_writes(c) & captured for c in inner)


def first_sight(code: types.CodeType) -> int:
    """The number of ``code``, a closure given to ``make`` as a rule, when the rules made of it are kept as
    records, else 0 (decided once per code)."""
    entry = _declared.pop(id(code), None)
    k = 0
    # a rule whose lambdas keep its cells (called after it returns) would need a new function at each call
    if (
        entry is not None
        and entry[0] is code
        and not any(set(c.co_freevars) & set(code.co_freevars) for c in _nested(code))
        and _fixed_once_made(code, entry[1])
    ):
        k = len(codes)
        codes.append(code)
        _globals.append(entry[2])
        cells = tuple(_cell(None) for _ in code.co_freevars)
        _free.append([(_function(code, entry[2], None, None, cells), cells)])
    index[id(code)] = k
    return k


def function_of(record: tuple) -> Callable:
    """The rule a record was made from: its code with the captured values in fresh cells."""
    k = record[0]
    return _function(codes[k], _globals[k], None, None, tuple(map(_cell, record[1:])))


def run_record(record: tuple, g):
    """The rule a record was made from, called on ``g``: the values go into the cells of the code's own
    function for the call, and out again after it."""
    free = _free[record[0]]
    try:
        reusable = free.pop()  # one step under the GIL: no other thread or call gets the same cells
    except IndexError:  # the code's function is in a call (another thread's pass, or the rule itself)
        return function_of(record)(g)
    rule, cells = reusable
    try:
        if len(cells) == 1:
            cells[0].cell_contents = record[1]
        else:
            for cell, value in zip(cells, record[1:]):
                cell.cell_contents = value
        return rule(g)
    finally:
        for cell in cells:
            cell.cell_contents = None
        free.append(reusable)
