"""Breakpoint conditions: a small expression language over an event's values, never Python's ``eval``.

A condition is text a viewer typed (the debugger's ``i`` prompt, the browser, the
notebook's breakpoint field, ``--break``), so it is data: :func:`parse_condition`
parses it with :func:`ast.parse`, refuses every construct outside the grammar
below with a ValueError naming it, and turns the rest into plain Python closures
that only do arithmetic, comparisons and the listed reductions on the event's
values. No text is ever run as Python.

The grammar (Python's spelling and precedence)::

    condition := expr
    expr      := expr or expr | expr and expr | not expr
               | expr CMP expr [CMP expr ...]      CMP: < <= > >= == !=
               | expr OP expr                      OP: + - * / // % **
               | -expr | +expr | (expr)
               | NAME                              g (the event's gradient), inf, nan
               | NUMBER | True | False
               | FUNCTION(expr)                    FUNCTION: abs all any isfinite isinf isnan
                                                             max mean min norm sum
               | expr.FUNCTION()                   the same: g.max() is max(g)
               | |expr|                            the norm: |g| is norm(g)

Attribute access, subscripts, strings, lambdas, comprehensions, calls of anything
else, keyword arguments and the operators ``in``, ``is``, ``@``, ``|``, ``&``,
``^``, ``~``, ``<<``, ``>>`` are refused.
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import re
from collections.abc import Callable, Mapping

import numpy as np

__all__ = ["Condition", "ConditionError", "Summarised", "parse_condition", "FUNCTIONS", "NAMES", "MAX_LENGTH"]

MAX_LENGTH = 1000  # characters of condition text
MAX_DEPTH = 50  # nesting of the parsed expression
NAMES = ("g",)  # the event's values a condition can name
CONSTANTS = {"inf": math.inf, "nan": math.nan}
_NORM = re.compile(r"\|([^|]+)\|")


class ConditionError(ValueError):
    """A condition that cannot be evaluated at an event (a shape or a summary it does not expect)."""


class Summarised:
    """A value kept only as a summary (more values than the recorder's max_values): a condition can
    still ask for its ``norm`` (``|g|``), ``max``, ``min`` and ``mean``. ``stats``: a
    :class:`~minigrad.trace.summary.Stats`."""

    def __init__(self, stats):
        self.stats = stats

    def stat(self, name: str) -> float:
        s = self.stats
        value = None if s is None else {"min": s.min, "max": s.max, "mean": s.mean, "norm": s.norm}[name]
        if value is None:
            raise ConditionError(f"the value was not kept, so its {name} is unknown")
        return value


def _needs_values(name: str, x):
    if isinstance(x, Summarised):
        raise ConditionError(
            f"{name}() needs every value, and the value was kept only as a summary "
            "(a condition can use its norm, max, min and mean)"
        )
    return x


def _norm(x) -> float:
    if isinstance(x, Summarised):
        return x.stat("norm")
    return float(np.linalg.norm(np.asarray(x, dtype=float).ravel())) if np.size(x) else 0.0


def _summary_or(name: str, reduce: Callable) -> Callable:
    def function(x):
        return x.stat(name) if isinstance(x, Summarised) else reduce(x)

    return function


def _values_only(name: str, fn: Callable) -> Callable:
    def function(x):
        return fn(_needs_values(name, x))

    return function


FUNCTIONS: dict[str, Callable] = {
    "abs": _values_only("abs", np.abs),
    "all": _values_only("all", lambda x: bool(np.all(x))),
    "any": _values_only("any", lambda x: bool(np.any(x))),
    "isfinite": _values_only("isfinite", np.isfinite),
    "isinf": _values_only("isinf", np.isinf),
    "isnan": _values_only("isnan", np.isnan),
    "max": _summary_or("max", np.max),
    "mean": _summary_or("mean", lambda x: np.mean(x) if np.size(x) else math.nan),  # no warning for an empty one
    "min": _summary_or("min", np.min),
    "norm": _norm,
    "sum": _values_only("sum", np.sum),
}

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_COMPARE = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_SYMBOLS = {
    ast.MatMult: "@",
    ast.BitOr: "|",
    ast.BitAnd: "&",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.Invert: "~",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
_CONSTRUCTS = {
    ast.Lambda: "lambda",
    ast.ListComp: "a list comprehension",
    ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension",
    ast.GeneratorExp: "a generator expression",
    ast.IfExp: "a conditional expression (x if c else y)",
    ast.NamedExpr: "an assignment expression (:=)",
    ast.JoinedStr: "an f-string",
    ast.FormattedValue: "an f-string",
    ast.List: "a list",
    ast.Tuple: "a tuple",
    ast.Set: "a set",
    ast.Dict: "a dict",
    ast.Starred: "unpacking (*)",
    ast.Slice: "a slice",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield",
}


class Condition:
    """A parsed condition: ``holds(values)`` says whether it is true for the event's ``values``
    (a mapping from the names in :data:`NAMES` to NumPy arrays, numbers or :class:`Summarised`)."""

    __slots__ = ("text", "_evaluate")

    def __init__(self, text: str, evaluate: Callable[[Mapping], object]):
        self.text = text
        self._evaluate = evaluate

    def evaluate(self, values: Mapping):
        """The condition's value for ``values``; ConditionError when it cannot be evaluated there."""
        try:
            with np.errstate(all="ignore"):
                return self._evaluate(values)
        except ConditionError:
            raise
        except (ArithmeticError, ValueError, TypeError) as exc:
            raise ConditionError(f"the condition {self.text!r} cannot be evaluated here: {exc}") from None

    def holds(self, values: Mapping) -> bool:
        """True when the condition is true for ``values``; ConditionError when it cannot be evaluated."""
        value = self.evaluate(values)
        try:
            return bool(value)
        except (ValueError, TypeError) as exc:
            raise ConditionError(f"the condition {self.text!r} is not a single truth value here: {exc}") from None

    def __repr__(self) -> str:
        return f"Condition({self.text!r})"


@functools.lru_cache(maxsize=256)
def parse_condition(text: str) -> Condition:
    """The :class:`Condition` ``text`` states (``"|g| > 10"``, ``"g.max() > 1 and not any(isnan(g))"``).

    ValueError naming what is wrong: a syntax error, or a construct outside the grammar
    (``attribute access '__class__' is not allowed in a condition``).
    """
    if not isinstance(text, str):
        raise TypeError(f"a condition must be a str, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ValueError(f"the condition is {len(text)} characters long: at most {MAX_LENGTH} are allowed")
    source = _NORM.sub(r"norm(\1)", text).strip()
    try:
        tree = ast.parse(source, "<condition>", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        reason = (exc.msg if isinstance(exc, SyntaxError) else str(exc)) or type(exc).__name__
        raise ValueError(f"the condition {text!r} is not a valid expression: {reason}") from None
    return Condition(text, _build(tree.body, 1))


def _build(node: ast.AST, depth: int) -> Callable[[Mapping], object]:
    """The closure that evaluates ``node``; ValueError naming anything outside the grammar."""
    if depth > MAX_DEPTH:
        raise ValueError(f"the condition nests deeper than {MAX_DEPTH} levels")
    builder = _BUILDERS.get(type(node))
    if builder is None:
        raise ValueError(f"{_construct(node)} is not allowed in a condition")
    return builder(node, depth + 1)


def _construct(node: ast.AST) -> str:
    if isinstance(node, ast.Subscript):
        return f"subscript '{ast.unparse(node)}'"
    if isinstance(node, ast.Attribute):
        return f"attribute access '{node.attr}'"
    return _CONSTRUCTS.get(type(node), type(node).__name__)


def _plain(x):
    """``x``, unless it is a summary: of that a condition can use only the reductions."""
    if isinstance(x, Summarised):
        raise ConditionError(
            "the value was kept only as a summary: a condition can use its norm (|g|), max, min and mean, "
            "but not the value itself"
        )
    return x


def _number(x):
    """Python ints and bools become floats, so that ``**`` never builds a huge int."""
    x = _plain(x)
    return float(x) if isinstance(x, int) else x


def _build_constant(node: ast.Constant, depth: int):
    value = node.value
    if isinstance(value, bool):
        return lambda values: value
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise ValueError(f"the number {value} is too large for a condition") from None
        return lambda values: number
    what = {str: "a string", bytes: "bytes", complex: "a complex number"}.get(type(value))
    shown = ast.unparse(node)
    raise ValueError(f"{what + f' ({shown})' if what else shown} is not allowed in a condition")


def _build_name(node: ast.Name, depth: int):
    name = node.id
    if name in NAMES:

        def lookup(values):
            if name not in values:
                raise ConditionError(f"the event has no value '{name}'")
            return values[name]

        return lookup
    if name in CONSTANTS:
        constant = CONSTANTS[name]
        return lambda values: constant
    if name in FUNCTIONS:
        raise ValueError(f"'{name}' is a function: call it, as {name}(g)")
    known = ", ".join((*NAMES, *CONSTANTS))
    raise ValueError(f"name '{name}' is not allowed in a condition (names: {known})")


def _build_binop(node: ast.BinOp, depth: int):
    op = _BINARY.get(type(node.op))
    if op is None:
        raise ValueError(
            f"operator '{_SYMBOLS.get(type(node.op), type(node.op).__name__)}' is not allowed in a condition"
        )
    left, right = _build(node.left, depth), _build(node.right, depth)
    return lambda values: op(_number(left(values)), _number(right(values)))


def _build_unaryop(node: ast.UnaryOp, depth: int):
    operand = _build(node.operand, depth)
    if isinstance(node.op, ast.Not):
        return lambda values: not _plain(operand(values))
    if isinstance(node.op, ast.USub):
        return lambda values: -_number(operand(values))
    if isinstance(node.op, ast.UAdd):
        return lambda values: +_number(operand(values))
    raise ValueError(f"operator '{_SYMBOLS.get(type(node.op), type(node.op).__name__)}' is not allowed in a condition")


def _build_boolop(node: ast.BoolOp, depth: int):
    parts = [_build(v, depth) for v in node.values]
    if isinstance(node.op, ast.And):

        def both(values):
            result = True
            for part in parts:
                result = _plain(part(values))
                if not result:
                    return result
            return result

        return both

    def either(values):
        result = False
        for part in parts:
            result = _plain(part(values))
            if result:
                return result
        return result

    return either


def _build_compare(node: ast.Compare, depth: int):
    ops = []
    for op in node.ops:
        fn = _COMPARE.get(type(op))
        if fn is None:
            raise ValueError(f"operator '{_SYMBOLS.get(type(op), type(op).__name__)}' is not allowed in a condition")
        ops.append(fn)
    first = _build(node.left, depth)
    rest = [_build(c, depth) for c in node.comparators]

    def compare(values):
        left = _number(first(values))
        result = True
        for op, part in zip(ops, rest):
            right = _number(part(values))
            result = op(left, right)
            if len(ops) > 1 and not result:  # a chain stops at its first false link, as Python's does
                return result
            left = right
        return result

    return compare


def _build_call(node: ast.Call, depth: int):
    allowed = ", ".join(FUNCTIONS)
    if isinstance(node.func, ast.Name):
        name = node.func.id
        if name not in FUNCTIONS:
            raise ValueError(f"call of '{name}' is not allowed in a condition (allowed: {allowed})")
        args = node.args
    elif isinstance(node.func, ast.Attribute):
        name = node.func.attr
        if name not in FUNCTIONS:
            raise ValueError(f"call of method '{name}' is not allowed in a condition (allowed: {allowed})")
        if node.args:
            raise ValueError(f"{name}() takes no arguments in a condition: write {ast.unparse(node.func)}()")
        args = [node.func.value]
    else:
        raise ValueError(f"call of '{ast.unparse(node.func)}' is not allowed in a condition (allowed: {allowed})")
    if node.keywords:
        keyword = node.keywords[0].arg
        raise ValueError(f"keyword argument '{keyword or '**'}' is not allowed in a condition")
    if len(args) != 1:
        raise ValueError(f"{name}() takes exactly one argument in a condition, got {len(args)}")
    fn = FUNCTIONS[name]
    arg = _build(args[0], depth)
    return lambda values: fn(arg(values))


_BUILDERS: dict[type, Callable] = {
    ast.Constant: _build_constant,
    ast.Name: _build_name,
    ast.BinOp: _build_binop,
    ast.UnaryOp: _build_unaryop,
    ast.BoolOp: _build_boolop,
    ast.Compare: _build_compare,
    ast.Call: _build_call,
}
