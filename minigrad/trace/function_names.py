"""The names a custom Function's backward uses for what it reads: its saved tensors and its inputs.

A Function's rule is one wrapper for every Function (its closure holds ``args``,
``cls`` and ``ctx``), but the learner wrote ``(x,) = ctx.saved_tensors`` in
``backward`` and ``def forward(ctx, x, k)``: the recorder shows the saved tensors
under the names ``backward`` unpacks them to and the inputs under ``forward``'s
parameter names, read from the source's syntax tree (never run).
"""

from __future__ import annotations

import ast
import inspect
import textwrap

__all__ = ["saved_names", "input_names"]

_saved_cache: dict = {}  # code object -> tuple of names (None entries where a target is not a plain name)
_input_cache: dict = {}


def saved_names(backward) -> tuple:
    """The names ``backward`` unpacks ``ctx.saved_tensors`` into (``(x, w)`` for ``x, w = ctx.saved_tensors``),
    in order; ``()`` when it does not unpack them in one assignment (or its source cannot be read)."""
    code = getattr(backward, "__code__", None)
    if code is None:
        return ()
    names = _saved_cache.get(code)
    if names is None:
        names = _saved_cache[code] = _unpacked(backward)
    return names


def _unpacked(backward) -> tuple:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(backward)))
    except (OSError, TypeError, SyntaxError):
        return ()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and _reads_saved(node.value):
            target = node.targets[0]
            if isinstance(target, ast.Name):
                return ()  # the whole tuple under one name: shown as saved_tensors[i]
            if isinstance(target, (ast.Tuple, ast.List)):
                return tuple(t.id if isinstance(t, ast.Name) else None for t in target.elts)
    return ()


def _reads_saved(value) -> bool:
    return isinstance(value, ast.Attribute) and value.attr == "saved_tensors"


def input_names(forward, count: int) -> tuple:
    """Names for the ``count`` inputs of ``forward(ctx, ...)``: its parameters after ``ctx`` (``args[i]`` for
    those a ``*args`` takes, ``input[i]`` where the signature cannot be read)."""
    code = getattr(forward, "__code__", None)
    params = _input_cache.get(code) if code is not None else None
    if params is None:
        try:
            params = tuple(inspect.signature(forward).parameters.values())[1:]
        except (TypeError, ValueError):
            params = ()
        if code is not None:
            _input_cache[code] = params
    positional = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    star = next((p.name for p in params if p.kind == p.VAR_POSITIONAL), "input")
    return tuple(positional[i] if i < len(positional) else f"{star}[{i - len(positional)}]" for i in range(count))
